package cmdfile

import (
	"bufio"
	"reflect"
	"strings"
	"testing"
)

func TestParseRequires(t *testing.T) {
	f, err := Parse("# a file\n# requires: HSET HGET (issue 20)\n# requires: SADD\nrun sorted\nPING\n----\nPONG\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"HSET", "HGET", "SADD"}; !reflect.DeepEqual(f.Requires, want) || f.Why != "issue 20" {
		t.Fatalf("Requires %q, Why %q; want %q and %q", f.Requires, f.Why, want, "issue 20")
	}
	if got := LackingMessage(f, "HSET"); got != "kvserver lacks HSET (issue 20)" {
		t.Fatalf("LackingMessage: %q", got)
	}
	for _, bad := range []string{"# requires:\n", "# requires: (issue 20)\n", "# requires: HSET (issue 20\n",
		"# requires: HSET (issue 20)\n# requires: SADD (issue 21)\n"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

// sorted reads the RESP reply in raw, sorts it and formats it.
func sorted(t *testing.T, raw string) string {
	t.Helper()
	r, err := ReadReply(bufio.NewReader(strings.NewReader(raw)))
	if err != nil {
		t.Fatal(err)
	}
	Sort(r)
	return Format(r, false)
}

func TestSort(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"*3\r\n$1\r\nc\r\n$1\r\na\r\n$1\r\nb\r\n", "1) \"a\"\n2) \"b\"\n3) \"c\"\n"},
		{"~2\r\n:2\r\n:1\r\n", "1~ (integer) 1\n2~ (integer) 2\n"},
		// A map's pairs by key, each value staying with its key.
		{"%2\r\n$1\r\nz\r\n$1\r\na\r\n$1\r\ny\r\n$1\r\nb\r\n", "1# \"y\" => \"b\"\n2# \"z\" => \"a\"\n"},
		// Pairs are sorted as units and stay in their order.
		{"*2\r\n*2\r\n$1\r\nz\r\n$1\r\na\r\n*2\r\n$1\r\ny\r\n$1\r\nb\r\n", "1) 1) \"y\"\n   2) \"b\"\n2) 1) \"z\"\n   2) \"a\"\n"},
		// A SCAN reply keeps its cursor first; its elements are sorted.
		{"*2\r\n$1\r\n0\r\n*2\r\n$1\r\nk\r\n$1\r\nb\r\n", "1) \"0\"\n2) 1) \"b\"\n   2) \"k\"\n"},
		{"$1\r\nx\r\n", "\"x\"\n"},
	} {
		if got := sorted(t, tc.raw); got != tc.want {
			t.Errorf("Sort(%q):\n%s\nwant:\n%s", tc.raw, got, tc.want)
		}
	}
}

// FuzzParse: Parse never panics, and what it accepts reassembles (String) into a file that
// parses to the same blocks and requirements.
func FuzzParse(f *testing.F) {
	f.Add("# requires: HSET (issue 20)\nrun sorted\nHGETALL h\n----\n(empty array)\n\nrun\nPING\n----\nPONG\n")
	f.Add("run resp3 types\nX\n----\n")
	f.Add("# requires: A\n# requires: B (n)\n")
	f.Fuzz(func(t *testing.T, data string) {
		p, err := Parse(data)
		if err != nil {
			return
		}
		q, err := Parse(p.String())
		if err != nil {
			t.Fatalf("the reassembled file does not parse: %v\n%q", err, p.String())
		}
		if !reflect.DeepEqual(p.Blocks, q.Blocks) || !reflect.DeepEqual(p.Requires, q.Requires) || p.Why != q.Why {
			t.Fatalf("reassembled file parses differently:\n%q\n%q", data, p.String())
		}
	})
}
