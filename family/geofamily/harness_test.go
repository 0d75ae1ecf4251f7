package geofamily

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/family/keyfamily"
	"github.com/kvserver/kvserver/family/stringfamily"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

// fakeConn is the connection the pipeline runs the harness's commands for.
type fakeConn struct{}

func (*fakeConn) AuthRequired() bool { return false }
func (*fakeConn) DebugAllowed() bool { return true }

// recorder is the pipeline's Publisher: it keeps the __keyevent@0__ events as "event key".
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) Publish(channel, message []byte) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev, ok := strings.CutPrefix(string(channel), "__keyevent@0__:"); ok {
		r.events = append(r.events, ev+" "+string(message))
	}
	return 1
}

func (r *recorder) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := strings.Join(r.events, ", ")
	r.events = nil
	return s
}

// harness is the family's rows, the string family's (for WRONGTYPE) and the key family's
// (OBJECT, EXISTS) over a real keyspace of 16 shards, with every keyspace event recorded.
type harness struct {
	t      testing.TB
	ks     *keyspace.Keyspace
	tab    *command.Table
	p      *command.Pipeline
	ctx    *command.Ctx
	w      resp.Writer
	parser *querybuf.Parser
	rec    recorder
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	h := &harness{t: t, parser: querybuf.NewParser(querybuf.DefaultLimits())}
	ks, err := keyspace.New(keyspace.Options{Shards: 16, Databases: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ks.Close)
	ks.SetNotifyClasses(keyspace.NotifyAll | keyspace.NotifyKeyevent | keyspace.NotifyNew)
	h.ks = ks
	h.tab = command.New(Commands(), stringfamily.Commands(), keyfamily.Commands())
	h.p = &command.Pipeline{KS: ks, Publisher: &h.rec}
	h.ctx = &command.Ctx{W: &h.w, KS: ks, Cfg: config.New(), Stats: &command.KeyStats{}}
	return h
}

// do runs one command through the pipeline and returns its raw reply.
func (h *harness) do(args ...string) string {
	h.t.Helper()
	h.parser.ResetCommands()
	data := fmt.Appendf(nil, "*%d\r\n", len(args))
	for _, a := range args {
		data = fmt.Appendf(data, "$%d\r\n%s\r\n", len(a), a)
	}
	if n, err := h.parser.Parse(data); err != nil || n != len(data) {
		h.t.Fatalf("parse %q: %d %v", args, n, err)
	}
	a := h.parser.Command(0)
	cmd, errText := h.tab.Lookup(a)
	h.ctx.Args, h.ctx.Cmd = a, cmd
	h.w.Reset()
	if out := h.p.Run(h.ctx, &fakeConn{}, errText, false); out != command.Done {
		h.t.Fatalf("%q: outcome %v", args, out)
	}
	return string(h.w.Bytes())
}

// expect runs a command and checks its raw reply.
func (h *harness) expect(want string, args ...string) {
	h.t.Helper()
	if got := h.do(args...); got != want {
		h.t.Errorf("%q: got %q, want %q", args, got, want)
	}
}

// expectEvents checks the events since the last call.
func (h *harness) expectEvents(want string) {
	h.t.Helper()
	if got := h.rec.take(); got != want {
		h.t.Errorf("events %q, want %q", got, want)
	}
}

// keysInShards returns n keys with prefix in n distinct shards.
func (h *harness) keysInShards(prefix string, n int) []string {
	var keys []string
	seen := map[int]bool{}
	for i := 0; len(keys) < n; i++ {
		k := fmt.Sprintf("%s%d", prefix, i)
		if s := h.ks.ShardFor([]byte(k)); !seen[s] {
			seen[s] = true
			keys = append(keys, k)
		}
	}
	return keys
}

// parseReply reads a raw RESP2 reply as internal/redisref's Conn.Do returns one: string,
// error, int64, []byte (nil for a null) or []any (empty for a null array).
func parseReply(raw string) (any, error) {
	return readReply(bufio.NewReader(strings.NewReader(raw)))
}

func readReply(r *bufio.Reader) (any, error) {
	line, err := r.ReadString('\n')
	if err != nil || len(line) < 3 {
		return nil, fmt.Errorf("bad reply line %q: %v", line, err)
	}
	body := line[1 : len(line)-2]
	switch line[0] {
	case '+':
		return body, nil
	case '-':
		return errors.New(body), nil
	case ':':
		return strconv.ParseInt(body, 10, 64)
	case '$':
		n, _ := strconv.Atoi(body)
		if n < 0 {
			return []byte(nil), nil
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		return buf[:n], nil
	case '*':
		n, _ := strconv.Atoi(body)
		out := make([]any, 0, max(n, 0))
		for range n {
			v, err := readReply(r)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return nil, fmt.Errorf("bad reply %q", line)
}

// render prints a parsed reply for comparisons and messages.
func render(v any) string {
	var b bytes.Buffer
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			b.WriteByte('[')
			for i, e := range x {
				if i > 0 {
					b.WriteByte(' ')
				}
				walk(e)
			}
			b.WriteByte(']')
		case []byte:
			if x == nil {
				b.WriteString("nil")
			} else {
				fmt.Fprintf(&b, "%q", x)
			}
		case error:
			fmt.Fprintf(&b, "(error %s)", x)
		default:
			fmt.Fprint(&b, x)
		}
	}
	walk(v)
	return b.String()
}
