package cmdfile

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Target is the server a command file runs against.
type Target struct {
	// Redis is true against redis-server: kvserver-only blocks are skipped there, redis-only
	// blocks everywhere else.
	Redis bool
	// Dial opens a new connection to the server, or fails the test. The driver closes it.
	Dial func(t testing.TB) net.Conn
	// Timeout bounds each write of a command and each read of a reply.
	Timeout time.Duration
	// Rewrite replaces the file's expectations with the replies instead of comparing them.
	Rewrite bool
}

// Files returns the command files in dir (*.txt), or fails the test when there are none.
func Files(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no command files in %s: %v", dir, err)
	}
	return files
}

// Load reads and parses the command file at path, or fails the test.
func Load(t testing.TB, path string) (*File, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(string(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f, data
}

// RunFile runs the command file at path against tg: a FLUSHALL, then every block that is
// not skipped, each over a fresh connection, in order. A reply that differs from the
// expectation is an error of the test; with tg.Rewrite the file is rewritten instead. It
// returns how many blocks ran.
func RunFile(t testing.TB, path string, tg Target) int {
	t.Helper()
	f, data := Load(t, path)
	if name := Lacking(t, f, tg); name != "" {
		t.Skipf("%s: %s", path, LackingMessage(f, name))
	}
	c := dial(t, tg)
	if r := c.do(t, "FLUSHALL", "FLUSHALL"); r.Kind != '+' {
		t.Fatalf("FLUSHALL: %s", Format(r, false))
	}
	c.Close()
	ran := 0
	for _, b := range f.Blocks {
		if b.Skipped(tg.Redis) != "" {
			continue
		}
		ran++
		got := RunBlock(t, b, tg)
		if tg.Rewrite {
			b.Expected = got
		} else if got != b.Expected {
			t.Errorf("%s:%d: %s\n%s\ngot:\n%s\nwant:\n%s", path, b.Line, strings.Join(b.Cmds, " | "), FirstDiff(got, b.Expected), got, b.Expected)
		}
	}
	if tg.Rewrite {
		if out := f.String(); !bytes.Equal([]byte(out), data) {
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote %s", path)
		}
	}
	return ran
}

// Lacking returns the first command of f's `# requires:` lines that tg answers with
// `unknown command`, or "". Each is sent bare (no arguments), which a command that exists
// answers with an arity error, so list only commands that need arguments. Against
// redis-server nothing is skipped: a command Redis lacks fails the test.
func Lacking(t testing.TB, f *File, tg Target) string {
	t.Helper()
	if len(f.Requires) == 0 {
		return ""
	}
	c := dial(t, tg)
	defer c.Close()
	for _, name := range f.Requires {
		r := c.do(t, "requires: "+name, name)
		if r.Kind == '-' && strings.HasPrefix(r.Str, "ERR unknown command") {
			if tg.Redis {
				t.Fatalf("redis-server lacks %s, which the file requires: %s", name, r.Str)
			}
			return name
		}
	}
	return ""
}

// LackingMessage is the reason a file is skipped when the target lacks the command name,
// e.g. "kvserver lacks HSET (issue 20)".
func LackingMessage(f *File, name string) string {
	msg := "kvserver lacks " + name
	if f.Why != "" {
		msg += " (" + f.Why + ")"
	}
	return msg
}

// RunBlock sends a block's commands over a fresh connection and returns the formatted replies.
func RunBlock(t testing.TB, b *Block, tg Target) string {
	t.Helper()
	c := dial(t, tg)
	defer c.Close()
	if b.Has("resp3") {
		if r := c.do(t, fmt.Sprintf("line %d: HELLO 3", b.Line), "HELLO", "3"); r.Kind != '%' {
			t.Fatalf("%d: HELLO 3: %s", b.Line, Format(r, false))
		}
	}
	var out strings.Builder
	for _, line := range b.Cmds {
		args, err := SplitArgs(line)
		if err != nil || len(args) == 0 {
			t.Fatalf("line %d: cannot split %q: %v", b.Line, line, err)
		}
		r := c.do(t, fmt.Sprintf("line %d: %q", b.Line, line), args...)
		if b.Has("sorted") {
			Sort(r)
		}
		out.WriteString(Format(r, b.Has("types")))
	}
	return out.String()
}

// conn is one connection of the driver.
type conn struct {
	net.Conn
	r       *bufio.Reader
	timeout time.Duration
}

func dial(t testing.TB, tg Target) *conn {
	t.Helper()
	c := tg.Dial(t)
	return &conn{Conn: c, r: bufio.NewReader(c), timeout: tg.Timeout}
}

// do sends args as a multibulk command and reads its reply, or fails the test (what names the
// command in the message).
func (c *conn) do(t testing.TB, what string, args ...string) *Reply {
	t.Helper()
	_ = c.SetWriteDeadline(time.Now().Add(c.timeout))
	if _, err := c.Write(EncodeCommand(args...)); err != nil {
		t.Fatalf("%s: write: %v", what, err)
	}
	_ = c.SetReadDeadline(time.Now().Add(c.timeout))
	r, err := ReadReply(c.r)
	if err != nil {
		t.Fatalf("%s: reading the reply: %v", what, err)
	}
	return r
}
