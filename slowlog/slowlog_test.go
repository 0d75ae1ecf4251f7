package slowlog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

// args parses one RESP command of the given arguments.
func args(t *testing.T, p *querybuf.Parser, argv ...string) querybuf.Args {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(argv))
	for _, a := range argv {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	p.ResetCommands()
	if _, err := p.Parse([]byte(b.String())); err != nil || p.NumCommands() != 1 {
		t.Fatalf("parse: %v", err)
	}
	return p.Command(0)
}

func TestEntryArgs(t *testing.T) {
	p := querybuf.NewParser(querybuf.DefaultLimits())
	long := strings.Repeat("x", 200)
	e := entryArgs(args(t, p, "SET", "k", long), nil)
	if len(e) != 3 || string(e[2]) != strings.Repeat("x", 128)+"... (72 more bytes)" {
		t.Fatalf("long argument: %q", e)
	}
	exact := strings.Repeat("y", 128)
	if e := entryArgs(args(t, p, "SET", "k", exact), nil); string(e[2]) != exact {
		t.Fatalf("128 bytes are kept whole: %q", e[2])
	}
	many := []string{"MSET"}
	for i := 0; i < 39; i++ {
		many = append(many, fmt.Sprint(i))
	}
	e = entryArgs(args(t, p, many...), nil) // 40 arguments: 31 kept, then "... (9 more arguments)"
	if len(e) != 32 || string(e[30]) != "29" || string(e[31]) != "... (9 more arguments)" {
		t.Fatalf("40 arguments: %d kept, last two %q %q", len(e), e[30], e[31])
	}
	if e := entryArgs(args(t, p, many[:32]...), nil); len(e) != 32 || string(e[31]) != "30" {
		t.Fatalf("32 arguments are kept whole: %q", e[31])
	}
}

func TestLogRing(t *testing.T) {
	p := querybuf.NewParser(querybuf.DefaultLimits())
	l := New()
	if !l.Logs(10000) || l.Logs(9999) {
		t.Fatal("default threshold is 10000 µs, inclusive")
	}
	l.SetMaxLen(3)
	for i := 0; i < 5; i++ {
		l.Push("get", args(t, p, "GET", fmt.Sprint(i)), int64(i), "1.2.3.4:5", "")
	}
	es := l.Newest(-1)
	if len(es) != 3 || es[0].ID != 4 || es[2].ID != 2 || string(es[0].Args[1]) != "4" || es[0].Peer != "1.2.3.4:5" {
		t.Fatalf("newest of 5 with max 3: %+v", es)
	}
	if es := l.Newest(2); len(es) != 2 || es[1].ID != 3 {
		t.Fatalf("Newest(2): %+v", es)
	}
	l.SetMaxLen(1)
	if l.Len() != 1 || l.Newest(-1)[0].ID != 4 {
		t.Fatal("lowering slowlog-max-len trims at once")
	}
	// Off: nothing is logged, and a lower max-len waits until the log is on again.
	l.SetMaxLen(10)
	l.Push("get", args(t, p, "GET", "5"), 0, "", "")
	l.SetSlowerThan(-1)
	if l.Logs(1 << 40) {
		t.Fatal("-1 logs nothing")
	}
	l.SetMaxLen(0)
	if l.Len() != 2 {
		t.Fatalf("trimmed while off: %d", l.Len())
	}
	l.SetSlowerThan(0)
	if l.Len() != 0 || !l.Logs(0) {
		t.Fatalf("on again with max-len 0: len %d", l.Len())
	}
	l.SetMaxLen(128)
	l.Reset()
	l.Push("ping", args(t, p, "PING"), 1, "", "")
	if es := l.Newest(-1); len(es) != 1 || es[0].ID != 6 {
		t.Fatalf("ids go on after RESET: %+v", es)
	}
}

func TestGetCommand(t *testing.T) {
	p := querybuf.NewParser(querybuf.DefaultLimits())
	l := New()
	for i := 0; i < 12; i++ {
		l.Push("get", args(t, p, "GET", fmt.Sprint(i)), 20000, "127.0.0.1:1", "n")
	}
	run := func(argv ...string) string {
		var w resp.Writer
		ctx := &command.Ctx{W: &w, Args: args(t, p, argv...)}
		l.getCommand(ctx)
		return string(w.Bytes())
	}
	if got := run("SLOWLOG", "GET"); !strings.HasPrefix(got, "*10\r\n*6\r\n:11\r\n") {
		t.Errorf("default count 10: %q", got[:min(40, len(got))])
	}
	if got := run("SLOWLOG", "GET", "-1"); !strings.HasPrefix(got, "*12\r\n") {
		t.Errorf("-1: all: %q", got[:20])
	}
	if got := run("SLOWLOG", "GET", "1"); !strings.HasSuffix(got, "*2\r\n$3\r\nGET\r\n$2\r\n11\r\n$11\r\n127.0.0.1:1\r\n$1\r\nn\r\n") {
		t.Errorf("one entry: %q", got)
	}
	for _, bad := range []string{"-2", "x", "1.5"} {
		if got := run("SLOWLOG", "GET", bad); got != "-ERR count should be greater than or equal to -1\r\n" {
			t.Errorf("GET %s: %q", bad, got)
		}
	}
	if got := run("SLOWLOG", "GET", "1", "2"); !strings.HasPrefix(got, "-ERR unknown subcommand or wrong number of arguments for 'GET'. Try SLOWLOG HELP.") {
		t.Errorf("GET 1 2: %q", got)
	}
}

func TestRedaction(t *testing.T) {
	p := querybuf.NewParser(querybuf.DefaultLimits())
	for _, tc := range []struct {
		name string
		argv []string
		want string
	}{
		{"auth", []string{"AUTH", "pw"}, "AUTH (redacted)"},
		{"auth", []string{"AUTH", "user", "pw"}, "AUTH (redacted) (redacted)"},
		{"auth", []string{"AUTH", "a", "b", "c"}, "AUTH (redacted) (redacted) (redacted)"},
		{"hello", []string{"HELLO", "3", "AUTH", "u", "pw", "SETNAME", "n"}, "HELLO 3 AUTH (redacted) (redacted) SETNAME n"},
		{"hello", []string{"HELLO", "3", "SETNAME", "n", "auth", "u", "pw"}, "HELLO 3 SETNAME n auth (redacted) (redacted)"},
		{"hello", []string{"HELLO", "3", "BOGUS", "AUTH", "u", "pw"}, "HELLO 3 BOGUS AUTH u pw"},
		{"config|set", []string{"CONFIG", "SET", "hz", "10", "RequirePass", "pw", "masterauth", "x"}, "CONFIG SET hz 10 RequirePass (redacted) masterauth (redacted)"},
		{"set", []string{"SET", "auth", "pw"}, "SET auth pw"},
	} {
		a := args(t, p, tc.argv...)
		var got []string
		for _, b := range entryArgs(a, secretArgs(tc.name, a)) {
			got = append(got, string(b))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%v: %q, want %q", tc.argv, strings.Join(got, " "), tc.want)
		}
	}
}
