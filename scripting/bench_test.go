package scripting

import (
	"context"
	"testing"

	"github.com/kvserver/kvserver/resp"
)

// BenchmarkRunGet runs `return redis.call('GET', KEYS[1])` against a fake Caller: the engine's
// cost per run (state from the pool, KEYS, the call, the reply's conversion both ways).
func BenchmarkRunGet(b *testing.B) {
	benchRun(b, "return redis.call('GET', KEYS[1])", nil)
}

// BenchmarkRunGetKillable is BenchmarkRunGet with a cancellable context, as a killable run
// has: gopher-lua then checks it before every instruction.
func BenchmarkRunGetKillable(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	benchRun(b, "return redis.call('GET', KEYS[1])", ctx)
}

// BenchmarkRunThreeCallsKillable is BenchmarkRunThreeCalls with a cancellable context.
func BenchmarkRunThreeCallsKillable(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	benchRun(b, "redis.call('GET', KEYS[1]) redis.call('INCR', KEYS[2]) return redis.call('EXPIRE', KEYS[2], 100)", ctx)
}

// BenchmarkRunThreeCalls is the bench's script: GET, INCR, EXPIRE.
func BenchmarkRunThreeCalls(b *testing.B) {
	benchRun(b, "redis.call('GET', KEYS[1]) redis.call('INCR', KEYS[2]) return redis.call('EXPIRE', KEYS[2], 100)", nil)
}

func benchRun(b *testing.B, body string, ctx context.Context) {
	e := newTestEngine()
	c := &benchCaller{}
	s, err := e.Load([]byte(body))
	if err != nil {
		b.Fatal(err)
	}
	var w resp.Writer
	opts := RunOpts{Keys: [][]byte{[]byte("key:1"), []byte("counter")}, Proto: 2}
	if ctx != nil {
		opts.Ctx = ctx
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Reset()
		e.Run(s, c, opts, &w)
	}
	if string(w.Bytes()) != "$3\r\nbar\r\n" && string(w.Bytes()) != ":1\r\n" {
		b.Fatalf("reply %q", w.Bytes())
	}
}

// BenchmarkLoopInstructions runs an empty Lua loop of 1e7 iterations (one FORLOOP instruction each),
// without and with a context: the difference is the context check per instruction.
func BenchmarkLoopInstructions(b *testing.B) {
	body := "for i = 1, 10000000 do end return 1"
	for _, tc := range []struct {
		name string
		ctx  context.Context
	}{{"NoContext", nil}, {"Context", context.Background()}} {
		b.Run(tc.name, func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.ctx == nil {
				ctx = nil
			}
			e := newTestEngine()
			s, _ := e.Load([]byte(body))
			var w resp.Writer
			for i := 0; i < b.N; i++ {
				w.Reset()
				e.Run(s, &benchCaller{}, RunOpts{Proto: 2, Ctx: ctx}, &w)
			}
		})
	}
}

// benchCaller answers GET with "bar" and anything else with :1, allocating nothing.
type benchCaller struct{}

func (benchCaller) Call(args [][]byte, proto int) []byte {
	if len(args[0]) == 3 && (args[0][0] == 'G' || args[0][0] == 'g') {
		return benchBar
	}
	return benchOne
}

var benchBar, benchOne = []byte("$3\r\nbar\r\n"), []byte(":1\r\n")

func (benchCaller) ACLCheck(args [][]byte) (bool, string) { return true, "" }
func (benchCaller) Log(level int, msg string)             {}

// The hot path allocates little: EVALSHA's lookup nothing, a run of GET two objects (the
// reply's string as a Lua value).
func TestAllocations(t *testing.T) {
	e := newTestEngine()
	s, _ := e.Load([]byte("return redis.call('GET', KEYS[1])"))
	sha := []byte(s.SHA)
	if n := testing.AllocsPerRun(100, func() { e.Lookup(sha) }); n != 0 {
		t.Errorf("Lookup: %v allocations", n)
	}
	var w resp.Writer
	opts := RunOpts{Keys: [][]byte{[]byte("key:1")}, Proto: 2}
	c := benchCaller{}
	if n := testing.AllocsPerRun(100, func() { w.Reset(); e.Run(s, c, opts, &w) }); n > 2 {
		t.Errorf("Run: %v allocations", n)
	}
}
