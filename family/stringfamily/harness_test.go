package stringfamily

import (
	"fmt"
	"github.com/kvserver/kvserver/conv"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

// startMs is the fake clock's start: 2023-11-14, so that the absolute times of the shared
// command files (EXAT 4102444800, in 2100) lie ahead and EXAT 1 lies behind.
const startMs = 1_700_000_000_000

// fakeClock is the keyspace's clock in the tests: it moves only when told (nothing sleeps),
// or by tick ms at every reading when tick is set (a slow server, where each reading is later).
type fakeClock struct{ ms, tick atomic.Int64 }

func newFakeClock() *fakeClock {
	c := &fakeClock{}
	c.ms.Store(startMs)
	return c
}

func (c *fakeClock) now() int64       { return c.ms.Add(c.tick.Load()) }
func (c *fakeClock) advance(ms int64) { c.ms.Add(ms) }

// fakeConn is the connection the pipeline runs the harness's commands for.
type fakeConn struct{}

func (*fakeConn) AuthRequired() bool { return false }
func (*fakeConn) DebugAllowed() bool { return true }

// harness is the family's rows (and the test rows of helpers_test.go) in a command.Table, a
// command.Pipeline over a real keyspace with a fake clock, and one connection's Ctx.
type harness struct {
	t      testing.TB
	clock  *fakeClock
	ks     *keyspace.Keyspace
	tab    *command.Table
	p      *command.Pipeline
	ctx    *command.Ctx
	w      resp.Writer
	parser *querybuf.Parser
	copies atomic.Int64 // ctx.BigArgCopies
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	h := &harness{t: t, clock: newFakeClock(), parser: querybuf.NewParser(querybuf.DefaultLimits())}
	ks, err := keyspace.New(keyspace.Options{Shards: 16, Databases: 2, Clock: h.clock.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ks.Close)
	h.ks = ks
	h.tab = command.New(Commands(), testCommands(h))
	h.p = &command.Pipeline{KS: ks}
	h.ctx = &command.Ctx{W: &h.w, KS: ks, Cfg: config.New(), Stats: &command.KeyStats{}, BigArgCopies: &h.copies}
	return h
}

// encodeCommand is args as a RESP2 multibulk request.
func encodeCommand(args ...string) []byte {
	b := fmt.Appendf(nil, "*%d\r\n", len(args))
	for _, a := range args {
		b = fmt.Appendf(b, "$%d\r\n%s\r\n", len(a), a)
	}
	return b
}

// parse makes args the parser's one command.
func (h *harness) parse(args ...string) querybuf.Args {
	h.t.Helper()
	h.parser.ResetCommands()
	data := encodeCommand(args...)
	for len(data) > 0 {
		n, err := h.parser.Parse(data)
		if err != nil || n == 0 {
			h.t.Fatalf("parse %.80q: consumed %d: %v", args, n, err)
		}
		data = data[n:]
	}
	if h.parser.NumCommands() != 1 {
		h.t.Fatalf("parse %.80q: %d commands", args, h.parser.NumCommands())
	}
	return h.parser.Command(0)
}

// do runs one command through the pipeline (not inline: it waits for the locks) and returns
// its raw reply.
func (h *harness) do(args ...string) []byte {
	h.t.Helper()
	a := h.parse(args...)
	cmd, errText := h.tab.Lookup(a)
	h.ctx.Args, h.ctx.Cmd = a, cmd
	h.w.Reset()
	if out := h.p.Run(h.ctx, &fakeConn{}, errText, false); out != command.Done {
		h.t.Fatalf("%.80q: outcome %v", args, out)
	}
	return h.w.Bytes()
}

// run is do with the reply formatted as redis-cli prints it.
func (h *harness) run(args ...string) string {
	h.t.Helper()
	out, rest, err := formatReply(h.do(args...), "")
	if err != nil || len(rest) != 0 {
		h.t.Fatalf("%.80q: reply %q: %v (%d bytes left)", args, h.w.Bytes(), err, len(rest))
	}
	return strings.TrimSuffix(out, "\n")
}

// expect runs a command and checks its formatted reply.
func (h *harness) expect(want string, args ...string) {
	h.t.Helper()
	if got := h.run(args...); got != want {
		h.t.Errorf("%.80q: got %.200q, want %.200q", args, got, want)
	}
}

// formatReply formats the first RESP reply of b as redis-cli --no-raw prints it to a terminal
// (cliFormatReplyTTY), each element of an array on its own line after prefix, and returns the
// bytes after it.
func formatReply(b []byte, prefix string) (string, []byte, error) {
	if len(b) == 0 {
		return "", b, fmt.Errorf("no reply")
	}
	end := strings.Index(string(b), "\r\n")
	if end < 0 {
		return "", b, fmt.Errorf("unterminated line")
	}
	kind, line, rest := b[0], string(b[1:end]), b[end+2:]
	switch kind {
	case '+':
		return line + "\n", rest, nil
	case '-':
		return "(error) " + line + "\n", rest, nil
	case ':':
		return "(integer) " + line + "\n", rest, nil
	case ',':
		return "(double) " + line + "\n", rest, nil
	case '_':
		return "(nil)\n", rest, nil
	case '$', '=':
		n, err := strconv.Atoi(line)
		if err != nil {
			return "", b, err
		}
		if n < 0 {
			return "(nil)\n", rest, nil
		}
		if len(rest) < n+2 {
			return "", b, fmt.Errorf("short bulk")
		}
		return repr(rest[:n]) + "\n", rest[n+2:], nil
	case '*':
		n, err := strconv.Atoi(line)
		if err != nil {
			return "", b, err
		}
		if n < 0 {
			return "(nil)\n", rest, nil
		}
		if n == 0 {
			return "(empty array)\n", rest, nil
		}
		width := len(strconv.Itoa(n))
		inner := prefix + strings.Repeat(" ", width+2)
		var out strings.Builder
		for i := range n {
			if i > 0 {
				out.WriteString(prefix)
			}
			fmt.Fprintf(&out, "%*d) ", width, i+1)
			var s string
			if s, rest, err = formatReply(rest, inner); err != nil {
				return "", b, err
			}
			out.WriteString(s)
		}
		return out.String(), rest, nil
	}
	return "", b, fmt.Errorf("unknown reply type %q", kind)
}

// repr is Redis's sdscatrepr (conv.Repr).
func repr(s []byte) string { return conv.Repr(s) }

// splitArgs splits a command line as redis-cli does (Redis's sdssplitargs, conv.SplitArgs).
func splitArgs(line string) ([]string, error) {
	args, ok := conv.SplitArgs(line)
	if !ok {
		return nil, fmt.Errorf("unbalanced quotes in %q", line)
	}
	return args, nil
}
