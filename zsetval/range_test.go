package zsetval

import (
	"math"
	"testing"
)

func TestParseScore(t *testing.T) {
	good := map[string]float64{
		"1": 1, "-1": -1, "+2": 2, "1.5": 1.5, ".5": 0.5, "5.": 5, "1e3": 1000, "1E-2": 0.01,
		"inf": math.Inf(1), "+inf": math.Inf(1), "-inf": math.Inf(-1), "INF": math.Inf(1),
		"-Infinity": math.Inf(-1), "0x10": 16, "0x1.8p1": 3, "0X.8": 0.5, "-0": math.Copysign(0, -1),
		"1e-320": 1e-320, "00012": 12, "0.1": 0.1, "1e": math.NaN(), // 1e: see below
	}
	delete(good, "1e") // strtod stops before a bare e: the argument is not all used
	for s, want := range good {
		got, ok := ParseScore([]byte(s))
		if !ok || got != want || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("ParseScore(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	for _, s := range []string{"", " 1", "1 ", "\t1", "nan", "NaN", "-nan", "1e", "1e+", "abc",
		"1.5x", "1e400", "-1e400", "1e-400", "0x", "1_000", "--1", "+-1", "inf ", "infin", "1\x00"} {
		if got, ok := ParseScore([]byte(s)); ok {
			t.Errorf("ParseScore(%q) = %v, ok; want an error", s, got)
		}
	}
}

func TestParseScoreRange(t *testing.T) {
	cases := []struct {
		min, max string
		want     ScoreRange
	}{
		{"1", "2", ScoreRange{Min: 1, Max: 2}},
		{"(1", "(2.5", ScoreRange{Min: 1, Max: 2.5, MinEx: true, MaxEx: true}},
		{"-inf", "+inf", ScoreRange{Min: math.Inf(-1), Max: math.Inf(1)}},
		{"", "(", ScoreRange{Min: 0, Max: 0, MaxEx: true}},    // strtod of "" is 0
		{" 1", "1e400", ScoreRange{Min: 1, Max: math.Inf(1)}}, // spaces and overflow pass here
		{"1\x00junk", "2", ScoreRange{Min: 1, Max: 2}},        // strtod stops at the NUL
		{"(-inf", "(inf", ScoreRange{Min: math.Inf(-1), Max: math.Inf(1), MinEx: true, MaxEx: true}},
	}
	for _, c := range cases {
		got, ok := ParseScoreRange([]byte(c.min), []byte(c.max))
		if !ok || got != c.want {
			t.Errorf("ParseScoreRange(%q, %q) = %+v, %v; want %+v", c.min, c.max, got, ok, c.want)
		}
	}
	for _, c := range [][2]string{{"a", "1"}, {"1", "nan"}, {"((1", "2"}, {"1", "2 "}, {"[1", "2"}} {
		if got, ok := ParseScoreRange([]byte(c[0]), []byte(c[1])); ok {
			t.Errorf("ParseScoreRange(%q, %q) = %+v, ok; want an error", c[0], c[1], got)
		}
	}
}

func TestParseLexRange(t *testing.T) {
	r, ok := ParseLexRange([]byte("-"), []byte("+"))
	if !ok || r.MinInf != -1 || r.MaxInf != 1 || r.empty() {
		t.Fatalf("- +: %+v %v", r, ok)
	}
	r, ok = ParseLexRange([]byte("[a"), []byte("(b"))
	if !ok || string(r.Min) != "a" || r.MinEx || string(r.Max) != "b" || !r.MaxEx || r.MinInf != 0 {
		t.Fatalf("[a (b: %+v %v", r, ok)
	}
	if !r.gteMin([]byte("a")) || r.lteMax([]byte("b")) || !r.lteMax([]byte("az")) {
		t.Fatal("[a (b bounds")
	}
	r, ok = ParseLexRange([]byte("("), []byte("["))
	if !ok || len(r.Min) != 0 || !r.empty() {
		t.Fatalf("( [: %+v %v", r, ok)
	}
	for _, c := range [][2]string{{"a", "+"}, {"-", "b"}, {"--", "+"}, {"-", "+x"}, {"", "+"}, {"1", "2"}} {
		if _, ok := ParseLexRange([]byte(c[0]), []byte(c[1])); ok {
			t.Errorf("ParseLexRange(%q, %q) ok; want an error", c[0], c[1])
		}
	}
	empties := [][2]string{{"+", "-"}, {"-", "-"}, {"+", "+"}, {"[b", "[a"}, {"(a", "[a"}, {"+", "[a"}, {"[a", "-"}}
	for _, c := range empties {
		r, _ := ParseLexRange([]byte(c[0]), []byte(c[1]))
		if !r.empty() {
			t.Errorf("%q %q not empty", c[0], c[1])
		}
	}
	for _, c := range [][2]string{{"-", "+"}, {"[a", "[a"}, {"-", "[a"}, {"[a", "+"}} {
		r, _ := ParseLexRange([]byte(c[0]), []byte(c[1]))
		if r.empty() {
			t.Errorf("%q %q empty", c[0], c[1])
		}
	}
}

// FuzzParseScore checks ParseScore against strconv's reading of the same text where both
// grammars agree, and that it never panics.
func FuzzParseScore(f *testing.F) {
	for _, s := range []string{"1", "-1.5e10", "0x1p-3", "inf", "nan", "1e400", " 1", "(1", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, ok := ParseScore(b)
		if ok && math.IsNaN(v) {
			t.Fatalf("ParseScore(%q) is NaN", b)
		}
		ParseScoreRange(b, b)
		ParseLexRange(b, b)
		if ok {
			// What was accepted formats and parses back to itself.
			w, ok2 := ParseScore(appendScore(nil, v))
			if !ok2 || (w != v && !(math.IsInf(v, 0) && w == v)) {
				t.Fatalf("%q: %v formats as %q, reads back %v %v", b, v, appendScore(nil, v), w, ok2)
			}
		}
	})
}

// TestScoreText checks the score text zzlInsertAt stores in a listpack (Redis 7.2: integers
// up to 2^62, the shortest round-trip text otherwise).
func TestScoreText(t *testing.T) {
	cases := map[float64]string{
		1.5: "1.5", 0: "0", math.Copysign(0, -1): "0", -1: "-1", 1 << 62: "4611686018427387904",
		-(1 << 62): "-4611686018427387904", 1 << 63: "9223372036854776000", 0.1: "0.1",
		-1e300: "-1e+300", 1.25e-5: "1.25e-5", math.Inf(1): "inf", math.Inf(-1): "-inf",
		1e20: "1e+20", 4611686018427387904 * 1.5: "6917529027641082000",
	}
	for f, want := range cases {
		if got := string(appendScore(nil, f)); got != want {
			t.Errorf("appendScore(%v) = %q want %q", f, got, want)
		}
	}
}
