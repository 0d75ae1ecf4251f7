package stringfamily

import (
	"testing"

	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

func TestParseExtendedStringArguments(t *testing.T) {
	cases := []struct {
		line   string
		typ    int
		flags  int
		expire string
		ok     bool
	}{
		{"SET k v", optsSet, 0, "", true},
		{"SET k v nx", optsSet, setNX, "", true},
		{"SET k v XX get", optsSet, setXX | setGet, "", true},
		{"SET k v NX GET", optsSet, setNX | setGet, "", true}, // allowed since Redis 7.0
		{"SET k v EX 10 EX 20", optsSet, setEX, "20", true},
		{"SET k v px 5", optsSet, setPX, "5", true},
		{"SET k v ExAt 5", optsSet, setEXAT, "5", true},
		{"SET k v PXAT abc", optsSet, setPXAT, "abc", true}, // the number is checked later
		{"SET k v KEEPTTL KEEPTTL", optsSet, setKeepTTL, "", true},
		{"SET k v NX XX", optsSet, 0, "", false},
		{"SET k v EX 1 PX 1", optsSet, 0, "", false},
		{"SET k v EX 1 KEEPTTL", optsSet, 0, "", false},
		{"SET k v KEEPTTL PXAT 1", optsSet, 0, "", false},
		{"SET k v EX", optsSet, 0, "", false},
		{"SET k v PERSIST", optsSet, 0, "", false},
		{"SET k v FOO", optsSet, 0, "", false},
		{"GETEX k", optsGetEx, 0, "", true},
		{"GETEX k persist PERSIST", optsGetEx, setPersist, "", true},
		{"GETEX k EX 10 ex 20", optsGetEx, setEX, "20", true},
		{"GETEX k PXAT 10", optsGetEx, setPXAT, "10", true},
		{"GETEX k PERSIST EX 10", optsGetEx, 0, "", false},
		{"GETEX k EX 10 PERSIST", optsGetEx, 0, "", false},
		{"GETEX k EX 10 PX 10", optsGetEx, 0, "", false},
		{"GETEX k KEEPTTL", optsGetEx, 0, "", false},
		{"GETEX k NX", optsGetEx, 0, "", false},
		{"GETEX k XX", optsGetEx, 0, "", false},
		{"GETEX k GET", optsGetEx, 0, "", false},
		{"GETEX k PX", optsGetEx, 0, "", false},
	}
	for _, c := range cases {
		flags, expire, ok := parseExtendedStringArguments(parseLine(t, c.line), c.typ)
		if flags != c.flags || string(expire) != c.expire || ok != c.ok {
			t.Errorf("%q: flags %#x expire %q ok %v, want %#x %q %v", c.line, flags, expire, ok, c.flags, c.expire, c.ok)
		}
	}
}

func BenchmarkParseExtendedStringArguments(b *testing.B) {
	args := parseLine(b, "SET key value NX GET PX 100000")
	b.ReportAllocs()
	for b.Loop() {
		parseExtendedStringArguments(args, optsSet)
	}
}

// parseLine parses an inline command line into its arguments.
func parseLine(t testing.TB, line string) querybuf.Args {
	t.Helper()
	p := querybuf.NewParser(querybuf.DefaultLimits())
	if _, err := p.Parse([]byte(line + "\r\n")); err != nil || p.NumCommands() != 1 {
		t.Fatalf("parse %q: %v", line, err)
	}
	return p.Command(0)
}

// The expire conversions of SET, SETEX, PSETEX and GETEX (Redis's getExpireMillisecondsOrReply).
func TestExpireMilliseconds(t *testing.T) {
	const now = 1_700_000_000_000
	cases := []struct {
		arg   string
		flags int
		want  int64
		err   error
	}{
		{"10", setEX, now + 10_000, nil},
		{"10", setPX, now + 10, nil},
		{"10", setEXAT, 10_000, nil},
		{"10", setPXAT, 10, nil},
		{"9223372036854775", setEXAT, 9223372036854775000, nil},
		{"9223372036854775807", setPXAT, 9223372036854775807, nil},
		{"9223372036854776", setEXAT, 0, replyerr.InvalidExpire("set")},  // × 1000 overflows
		{"9223372036854775", setEX, 0, replyerr.InvalidExpire("set")},    // + now overflows
		{"9223372036854775807", setPX, 0, replyerr.InvalidExpire("set")}, // + now overflows
		{"0", setEX, 0, replyerr.InvalidExpire("set")},
		{"-1", setPXAT, 0, replyerr.InvalidExpire("set")},
		{"1.5", setEX, 0, replyerr.NotInteger},
		{"+1", setPX, 0, replyerr.NotInteger},
		{"", setPX, 0, replyerr.NotInteger},
		{"9223372036854775808", setPXAT, 0, replyerr.NotInteger},
	}
	for _, c := range cases {
		got, err := expireMilliseconds("set", []byte(c.arg), c.flags, now)
		if got != c.want || err != c.err {
			t.Errorf("%q flags %#x: %d, %v; want %d, %v", c.arg, c.flags, got, err, c.want, c.err)
		}
	}
}
