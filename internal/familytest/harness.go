// Package familytest runs command families' rows through the real pipeline over a real
// keyspace, for the families' in-package tests: a command line in, its raw reply out, and the
// keyspace events it published. It is imported only by tests.
package familytest

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/config"
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

// Harness is some families' rows over a real keyspace of 16 shards and 2 databases, with
// every keyspace event recorded.
type Harness struct {
	T      testing.TB
	KS     *keyspace.Keyspace
	Tab    *command.Table
	P      *command.Pipeline
	Ctx    *command.Ctx
	W      resp.Writer // the replies; SetProto(3) for RESP3
	Parser *querybuf.Parser
	rec    recorder
}

// New makes a harness running the rows of families (the family under test first, then those
// its tests need: the string family for WRONGTYPE, the key family for OBJECT…).
func New(t testing.TB, families ...[]*command.Command) *Harness {
	t.Helper()
	h := &Harness{T: t, Parser: querybuf.NewParser(querybuf.DefaultLimits())}
	ks, err := keyspace.New(keyspace.Options{Shards: 16, Databases: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ks.Close)
	ks.SetNotifyClasses(keyspace.NotifyAll | keyspace.NotifyKeyevent | keyspace.NotifyNew)
	h.KS = ks
	h.Tab = command.New(families...)
	h.P = &command.Pipeline{KS: ks, Publisher: &h.rec}
	h.Ctx = &command.Ctx{W: &h.W, KS: ks, Cfg: config.New(), Stats: &command.KeyStats{}}
	return h
}

// Do runs one command through the pipeline and returns its raw reply.
func (h *Harness) Do(args ...string) string {
	h.T.Helper()
	h.Parser.ResetCommands()
	data := AppendCommand(nil, args...)
	if n, err := h.Parser.Parse(data); err != nil || n != len(data) {
		h.T.Fatalf("parse %q: %d %v", args, n, err)
	}
	if out := h.RunParsed(); out != command.Done {
		h.T.Fatalf("%q: outcome %v", args, out)
	}
	return string(h.W.Bytes())
}

// RunParsed runs the command the harness's parser holds (benchmarks parse once, run often).
func (h *Harness) RunParsed() command.Outcome {
	a := h.Parser.Command(0)
	cmd, errText := h.Tab.Lookup(a)
	h.Ctx.Args, h.Ctx.Cmd = a, cmd
	h.W.Reset()
	return h.P.Run(h.Ctx, &fakeConn{}, errText, false)
}

// AppendCommand appends args as a RESP2 command.
func AppendCommand(dst []byte, args ...string) []byte {
	dst = fmt.Appendf(dst, "*%d\r\n", len(args))
	for _, a := range args {
		dst = fmt.Appendf(dst, "$%d\r\n%s\r\n", len(a), a)
	}
	return dst
}

// Expect runs a command and checks its raw reply.
func (h *Harness) Expect(want string, args ...string) {
	h.T.Helper()
	if got := h.Do(args...); got != want {
		h.T.Errorf("%q: got %q, want %q", args, got, want)
	}
}

// TakeEvents returns the events recorded since the last call, as "event key, event key".
func (h *Harness) TakeEvents() string {
	h.rec.mu.Lock()
	defer h.rec.mu.Unlock()
	s := strings.Join(h.rec.events, ", ")
	h.rec.events = nil
	return s
}

// ExpectEvents checks the events since the last call.
func (h *Harness) ExpectEvents(want string) {
	h.T.Helper()
	if got := h.TakeEvents(); got != want {
		h.T.Errorf("events %q, want %q", got, want)
	}
}

// KeysInShards returns n keys with prefix in n distinct shards.
func (h *Harness) KeysInShards(prefix string, n int) []string {
	var keys []string
	seen := map[int]bool{}
	for i := 0; len(keys) < n; i++ {
		k := fmt.Sprintf("%s%d", prefix, i)
		if s := h.KS.ShardFor([]byte(k)); !seen[s] {
			seen[s] = true
			keys = append(keys, k)
		}
	}
	return keys
}
