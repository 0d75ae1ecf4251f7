package scanargs

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

// argsOf parses args as one RESP command.
func argsOf(t *testing.T, args ...string) querybuf.Args {
	t.Helper()
	p := querybuf.NewParser(querybuf.DefaultLimits())
	data := fmt.Appendf(nil, "*%d\r\n", len(args))
	for _, a := range args {
		data = fmt.Appendf(data, "$%d\r\n%s\r\n", len(a), a)
	}
	for len(data) > 0 {
		n, err := p.Parse(data)
		if err != nil || n == 0 {
			t.Fatalf("parse: %d %v", n, err)
		}
		data = data[n:]
	}
	return p.Command(0)
}

func TestParseCursor(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		want uint64
		ok   bool
	}{
		{"0", 0, true}, {"", 0, true}, {"123", 123, true}, {"+5", 5, true},
		{"-1", 1<<64 - 1, true}, {"18446744073709551615", 1<<64 - 1, true},
		{"18446744073709551616", 0, false}, {" 1", 0, false}, {"1 ", 0, false},
		{"x", 0, false}, {"12\x00junk", 12, true}, {"1.5", 0, false},
	} {
		got, ok := ParseCursor([]byte(tc.arg))
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseCursor(%q) = %d %v, want %d %v", tc.arg, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want Options
		err  error
	}{
		{nil, Options{Count: DefaultCount}, nil},
		{[]string{"COUNT", "5", "match", "a*"}, Options{Count: 5, Pattern: []byte("a*"), UsePattern: true}, nil},
		{[]string{"MATCH", "*"}, Options{Count: DefaultCount, Pattern: []byte("*")}, nil},
		{[]string{"count", "1", "COUNT", "7"}, Options{Count: 7}, nil},
		{[]string{"COUNT", "0"}, Options{}, replyerr.Syntax},
		{[]string{"COUNT", "x"}, Options{}, replyerr.NotInteger},
		{[]string{"COUNT"}, Options{}, replyerr.Syntax},
		{[]string{"MATCH"}, Options{}, replyerr.Syntax},
		{[]string{"TYPE", "string"}, Options{}, replyerr.Syntax},
	} {
		got, err := Parse(argsOf(t, append([]string{"HSCAN", "k", "0"}, tc.args...)...), 3)
		if err != tc.err {
			t.Errorf("%q: error %v, want %v", tc.args, err, tc.err)
			continue
		}
		if err == nil && (got.Count != tc.want.Count || string(got.Pattern) != string(tc.want.Pattern) || got.UsePattern != tc.want.UsePattern) {
			t.Errorf("%q: %+v, want %+v", tc.args, got, tc.want)
		}
	}
}

// TestParseWithType: SCAN's TYPE is known to ParseWithType only, the last one counting.
func TestParseWithType(t *testing.T) {
	got, err := ParseWithType(argsOf(t, "SCAN", "0", "TYPE", "set", "count", "3", "type", "hash"), 2)
	if err != nil || string(got.TypeName) != "hash" || got.Count != 3 {
		t.Fatalf("ParseWithType: %+v, %v", got, err)
	}
	if _, err := ParseWithType(argsOf(t, "SCAN", "0", "TYPE"), 2); err != replyerr.Syntax {
		t.Fatalf("TYPE without a name: %v", err)
	}
}
