package command

import "testing"

func TestSmallRange(t *testing.T) {
	lrange := SmallRange(2)
	zrange := SmallRange(2, "withscores", "rev")
	cases := []struct {
		line string
		want bool
	}{
		{"LRANGE l 0 99", true},
		{"LRANGE l 0 127", true},
		{"LRANGE l 0 128", false}, // 129 elements
		{"LRANGE l -100 -1", true},
		{"LRANGE l 0 -1", false}, // the whole list: unbounded
		{"LRANGE l -5 3", false},
		{"LRANGE l 10 5", true}, // empty
		{"LRANGE l x 5", false},
		{"LRANGE l 0 5 extra", false},
		{"LRANGE l -9223372036854775808 -1", false},
		{"ZRANGE z 500000 500009", true},
		{"ZRANGE z 500000 500009 WITHSCORES", true},
		{"ZRANGE z 0 9 rev withscores", true},
		{"ZRANGE z 0 9 BYSCORE", false}, // scores, not ranks
		{"ZRANGE z 0 9 BYLEX", false},
		{"ZRANGE z 0 9 BYSCORE LIMIT 0 5", false},
	}
	for _, c := range cases {
		fn := lrange
		if c.line[0] == 'Z' {
			fn = zrange
		}
		if got := fn(parseLine(t, c.line)); got != c.want {
			t.Errorf("%s: inline %v, want %v", c.line, got, c.want)
		}
	}
}

func TestFewMembers(t *testing.T) {
	geopos := FewMembers(2)
	many := "GEOPOS g"
	for i := range InlineRangeMax {
		many += " m" + string(rune('a'+i%26))
	}
	for _, c := range []struct {
		line string
		want bool
	}{
		{"GEOPOS g", true},
		{"GEOPOS g a b c", true},
		{"GEODIST g a b km", true},
		{many, true},
		{many + " one-more", false},
	} {
		if got := geopos(parseLine(t, c.line)); got != c.want {
			t.Errorf("%.40s…: inline %v, want %v", c.line, got, c.want)
		}
	}
}
