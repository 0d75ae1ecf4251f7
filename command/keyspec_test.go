package command

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

// parseLine parses one inline command line into Args (quotes as Redis's sdssplitargs).
func parseLine(t testing.TB, line string) querybuf.Args {
	t.Helper()
	p := querybuf.NewParser(querybuf.DefaultLimits())
	if _, err := p.Parse([]byte(line + "\r\n")); err != nil || p.NumCommands() != 1 {
		t.Fatalf("parse %q: %v", line, err)
	}
	return p.Command(0)
}

// lookupArgs resolves a command line to its metadata as Redis's lookupCommand does: the
// subcommand of a container when there is a second argument, nil when it is unknown.
func lookupArgs(args querybuf.Args, first int) *Meta {
	if args.Len() <= first {
		return nil
	}
	m := LookupMeta(string(args.Arg(first)))
	if m == nil || len(m.Subcommands) == 0 || args.Len() < first+2 {
		return m
	}
	return m.Sub(strings.ToLower(string(args.Arg(first + 1))))
}

func bufioReader(b []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(b)) }

// decode reads one RESP2 or RESP3 reply into a Go value: a string ("+x", "-ERR x", ":1" or a
// bulk's text), nil, or a []any.
func decode(r *bufio.Reader) any {
	line, _ := r.ReadString('\n')
	line = strings.TrimSuffix(line, "\r\n")
	switch line[0] {
	case '+', '-', ':':
		return line
	case '_':
		return nil
	case '$':
		n, _ := strconv.Atoi(line[1:])
		if n < 0 {
			return nil
		}
		b := make([]byte, n+2)
		r.Read(b)
		return string(b[:n])
	case '*', '~', '%':
		n, _ := strconv.Atoi(line[1:])
		if line[0] == '%' {
			n *= 2
		}
		out := []any{}
		for i := 0; i < n; i++ {
			out = append(out, decode(r))
		}
		return out
	}
	panic("unexpected reply " + line)
}

// getKeysAndFlags runs COMMAND GETKEYSANDFLAGS on a line and renders the reply as
// "key:FLAG|flag key:…", or the error without its '-'.
func getKeysAndFlags(t testing.TB, line string) string {
	args := parseLine(t, "COMMAND GETKEYSANDFLAGS "+line)
	var w resp.Writer
	WriteCommandGetKeys(&w, lookupArgs(args, 2), args, 2, true)
	v := decode(bufio.NewReader(bytes.NewReader(w.Bytes())))
	if s, ok := v.(string); ok {
		return strings.TrimPrefix(s, "-")
	}
	var parts []string
	for _, k := range v.([]any) {
		pair := k.([]any)
		var flags []string
		for _, f := range pair[1].([]any) {
			flags = append(flags, strings.TrimPrefix(f.(string), "+"))
		}
		parts = append(parts, fmt.Sprintf("%s:%s", pair[0], strings.Join(flags, "|")))
	}
	return strings.Join(parts, " ")
}

// TestGetKeysAndFlags: the keys and flags of command lines, as redis-server 7.0.15 answers
// COMMAND GETKEYSANDFLAGS (the three lines marked 7.2 answer as 7.2, whose GETKEYS takes a
// command without arguments): key specs by index and keyword, ranges with steps and limits,
// keynum, the key functions, and the errors.
func TestGetKeysAndFlags(t *testing.T) {
	cases := []struct{ line, want string }{
		{"GET k", "k:RO|access"},
		{"MSET a 1 b 2 c 3", "a:OW|update b:OW|update c:OW|update"},
		{"MSET a 1 b", "a:OW|update b:OW|update"},
		{"ZUNIONSTORE dst 2 a b WEIGHTS 1 2", "dst:OW|update a:RO|access b:RO|access"},
		{"ZUNIONSTORE dst 0 a", "ERR Invalid arguments specified for command"},
		{"ZUNIONSTORE dst x a", "ERR Invalid arguments specified for command"},
		{"ZUNIONSTORE dst 3 a b", "ERR Invalid arguments specified for command"},
		{"ZUNION 2 a b", "a:RO|access b:RO|access"},
		{"EVAL \"return 1\" 2 k1 k2 a1", "k1:RW|access|update k2:RW|access|update"},
		{"EVAL \"return 1\" 0", ""},
		{"EVAL \"return 1\" 1x k1", "k1:"},
		{"EVALSHA abc 3 a b c", "a:RW|access|update b:RW|access|update c:RW|access|update"},
		{"FCALL f 1 k", "k:RW|access|update"},
		{"LMPOP 2 l1 l2 LEFT COUNT 2", "l1:RW|access|delete l2:RW|access|delete"},
		{"BLMPOP 0 2 l1 l2 LEFT", "l1:RW|access|delete l2:RW|access|delete"},
		{"BZMPOP 0 1 z MIN", "z:RW|access|delete"},
		{"XREAD COUNT 2 STREAMS s1 s2 0 0", "s1:RO|access s2:RO|access"},
		{"XREAD STREAMS s1 0 1", "s1:RO|access"},
		{"XREADGROUP GROUP g c STREAMS s1 >", "s1:RO|access"},
		{"XREADGROUP GROUP streams c STREAMS streams >", "streams:RO|access"},
		{"MIGRATE h 1 k 0 10", "k:RW|access|delete"},
		{"MIGRATE h 1 \"\" 0 10 KEYS a b c", "a:RW|access|delete b:RW|access|delete c:RW|access|delete"},
		{"MIGRATE h 1 \"\" 0 10 AUTH p KEYS a b", "a:RW|access|delete b:RW|access|delete"},
		{"MIGRATE h 1 \"\" 0 10 AUTH2 KEYS p KEYS a b", "a:RW|access|delete b:RW|access|delete"},
		{"MIGRATE h 1 k 0 10 KEYS a b", "ERR Invalid arguments specified for command"},
		{"SORT k", "k:RO|access"},
		{"SORT k BY p GET g STORE d LIMIT 0 1", "k:RO|access d:OW|update"},
		{"SORT k STORE d1 STORE d2", "k:RO|access d2:OW|update"},
		{"SORT_RO k BY p", "k:RO|access"},
		{"SET k v", "k:OW|update"},
		{"SET k v GET", "k:RW|access|update"},
		{"SET k v EX 10 get", "k:RW|access|update"},
		{"BITFIELD k GET u8 0", "k:RO|access"},
		{"BITFIELD k GET u8 0 SET u8 0 1", "k:RW|access|update"},
		{"BITFIELD k OVERFLOW SAT INCRBY u8 0 1", "k:RW|access|update"},
		{"BITFIELD k", "k:RO|access"},
		{"GEORADIUS g 0 0 1 km STORE d", "g:RO|access d:OW|update"},
		{"GEORADIUSBYMEMBER g m 1 km STOREDIST d STORE e", "g:RO|access e:OW|update d:OW|update"},
		{"RENAME a b", "a:RW|access|delete b:OW|update"},
		{"COPY a b", "a:RO|access b:OW|update"},
		{"DEL a b c", "a:RM|delete b:RM|delete c:RM|delete"},
		{"SINTERCARD 2 a b LIMIT 1", "a:RO|access b:RO|access"},
		{"ZINTERCARD 1 a", "a:RO|access"},
		{"BLPOP a b 0", "a:RW|access|delete b:RW|access|delete"},
		{"LMOVE a b LEFT RIGHT", "a:RW|access|delete b:RW|insert"},
		{"XADD s * f v", "s:RW|update"},
		{"SPUBLISH ch m", "ERR The command has no key arguments"},
		{"PUBLISH ch m", "ERR The command has no key arguments"},
		{"SSUBSCRIBE a", "ERR The command has no key arguments"},
		{"CONFIG GET x", "ERR The command has no key arguments"},
		{"CONFIG", "ERR The command has no key arguments"}, // 7.2
		{"CONFIG NOSUCH", "ERR Invalid command specified"},
		{"NOSUCH a", "ERR Invalid command specified"},
		{"GET", "ERR Invalid number of arguments specified for command"}, // 7.2
		{"GET a b", "ERR Invalid number of arguments specified for command"},
		{"MEMORY USAGE k", "k:RO"},
		{"OBJECT ENCODING k", "k:RO"},
		{"ZRANK k m", "k:RO|access"},
		{"EXISTS a b", "a:RO b:RO"},
		{"PING", "ERR The command has no key arguments"}, // 7.2
		{"KEYS *", "ERR The command has no key arguments"},
		{"GETEX k PERSIST", "k:RW|access|update"},
		{"LCS a b", "a:RO|access b:RO|access"},
		{"SMOVE a b m", "a:RW|access|delete b:RW|insert"},
		{"BITOP AND d a b", "d:OW|update a:RO|access b:RO|access"},
		{"PFMERGE d a", "d:RW|access|insert a:RO|access"},
		{"PFCOUNT a b", "a:RW|access b:RW|access"},
		{"WATCH a b", "a:RO b:RO"},
		{"XINFO STREAM s", "s:RO|access"},
		{"XGROUP CREATE s g $", "s:RW|insert"},
		{"LPOS l e", "l:RO|access"},
		{"RESTORE k 0 x", "k:OW|update"},
		{"OBJECT HELP", "ERR The command has no key arguments"},
	}
	for _, c := range cases {
		if got := getKeysAndFlags(t, c.line); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.line, got, c.want)
		}
	}
}

// TestGetKeysNoAlloc: key extraction allocates nothing when the slice has room, by key specs
// (GET, MSET's step 2, ZUNIONSTORE's keynum, XREAD's keyword and limit) and by key function
// (SORT, SET, MIGRATE KEYS).
func TestGetKeysNoAlloc(t *testing.T) {
	for _, line := range []string{"GET k", "MSET a 1 b 2 c 3", "ZUNIONSTORE d 2 a b", "XREAD COUNT 1 STREAMS a b 0 0",
		"SORT k STORE d", "SET k v GET", "MIGRATE h 1 \"\" 0 10 KEYS a b c"} {
		args := parseLine(t, line)
		m := lookupArgs(args, 0)
		keys := make([]KeyRef, 0, 8)
		if n := testing.AllocsPerRun(100, func() { keys = GetKeys(m, args, keys) }); n != 0 {
			t.Errorf("%s: %v allocations", line, n)
		}
		if len(keys) == 0 {
			t.Errorf("%s: no keys", line)
		}
	}
}

func BenchmarkGetKeys(b *testing.B) {
	for _, line := range []string{"GET k", "MSET a 1 b 2 c 3", "ZUNIONSTORE d 2 a b", "XREAD COUNT 1 STREAMS a b 0 0", "SORT k STORE d"} {
		b.Run(strings.Fields(line)[0], func(b *testing.B) {
			args := parseLine(b, line)
			m := lookupArgs(args, 0)
			keys := make([]KeyRef, 0, 8)
			b.ReportAllocs()
			for b.Loop() {
				keys = GetKeys(m, args, keys)
			}
		})
	}
}

// TestOneKeyPos: for every Redis 7.2 command the ACL step's quick path takes as having one key
// (oneKeyPos), GetKeys finds that one key, at that index, on a line of arity's length (and on
// lines one and three arguments longer for variadic commands, with SET's and BITFIELD's
// options), needing no access the quick path's flags lack: the quick path asks the user
// about the same key, for at least as much.
func TestOneKeyPos(t *testing.T) {
	n := 0
	var walk func(m *Meta)
	walk = func(m *Meta) {
		for _, s := range m.Subcommands {
			walk(s)
		}
		var cmd Command
		cmd.fromMeta(m)
		if cmd.oneKeyPos == 0 {
			return
		}
		n++
		words := strings.Split(m.Name, "|")
		argc := max(m.Arity, -m.Arity)
		lines := [][]string{}
		for _, extra := range []int{0, 1, 3} {
			if extra > 0 && m.Arity > 0 {
				continue
			}
			line := append([]string(nil), words...)
			for len(line) < argc+extra {
				line = append(line, fmt.Sprint("a", len(line)))
			}
			lines = append(lines, line)
		}
		switch m.Name {
		case "set":
			lines = append(lines, []string{"set", "k", "v", "GET"}, []string{"set", "k", "v", "NX", "GET"})
		case "bitfield":
			lines = append(lines, []string{"bitfield", "k", "GET", "u8", "0"}, []string{"bitfield", "k", "INCRBY", "u8", "0", "1"})
		}
		need := func(f KeyFlags) (read, write bool) {
			return f&KeyAccess != 0, f&(KeyInsert|KeyDelete|KeyUpdate) != 0
		}
		qr, qw := need(cmd.oneKeyFlags)
		for _, line := range lines {
			args := parseLine(t, strings.Join(line, " "))
			keys := GetKeys(m, args, nil)
			var r, w bool
			if len(keys) == 1 {
				r, w = need(keys[0].Flags)
			}
			if len(keys) != 1 || keys[0].Pos != cmd.oneKeyPos || (r && !qr) || (w && !qw) {
				t.Errorf("%s %q: GetKeys %v, quick path key %d flags %v", m.Name, line, keys, cmd.oneKeyPos, cmd.oneKeyFlags)
			}
		}
	}
	for _, m := range AllMeta() {
		walk(m)
	}
	if n < 100 {
		t.Errorf("only %d commands take the quick path", n)
	}
	t.Logf("%d commands take the ACL step's one-key path", n)
}
