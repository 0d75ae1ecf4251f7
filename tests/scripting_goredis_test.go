package tests

import (
	"context"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// Lua scripts through go-redis (issue 23): Script.Run's EVALSHA-then-EVAL, replies converted
// for a RESP3 client, EVAL and EVALSHA inside a MULTI/EXEC pipeline. These run against
// redis-server too, and skip while kvserver answers EVAL with "unknown command".

// skipWithoutScripting skips the test while the server lacks EVAL (or FCALL, with functions).
func skipWithoutScripting(t *testing.T, s *server, functions bool) {
	t.Helper()
	skipWithoutCommand(t, s, "EVAL")
	if functions {
		skipWithoutCommand(t, s, "FCALL")
	}
}

// commandCalls returns INFO commandstats' calls of the command name (0 when never called).
func commandCalls(t *testing.T, s *server, name string) string {
	t.Helper()
	v, ok := s.Info(t, "commandstats")["cmdstat_"+name]
	if !ok {
		return "0"
	}
	for _, f := range strings.Split(v, ",") {
		if n, ok := strings.CutPrefix(f, "calls="); ok {
			return n
		}
	}
	t.Fatalf("cmdstat_%s without calls: %q", name, v)
	return ""
}

// TestScriptGoRedisRun: Script.Run sends EVALSHA first; on NOSCRIPT (an empty cache) it falls
// back to EVAL, which caches the script, so the next Run is one EVALSHA. Load, Exists and
// SCRIPT FLUSH through go-redis too.
func TestScriptGoRedisRun(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	skipWithoutScripting(t, s, false)
	c := s.Client(t)
	ctx := context.Background()
	incrBy := redis.NewScript(`
local v = redis.call('INCRBY', KEYS[1], ARGV[1])
if v > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[1], 0)
  return {v, 'wrapped'}
end
return {v, 'ok'}`)
	if err := incrBy.Exists(ctx, c).Err(); err != nil {
		t.Fatalf("SCRIPT EXISTS: %v", err)
	}
	if got := incrBy.Exists(ctx, c).Val(); !reflect.DeepEqual(got, []bool{false}) {
		t.Fatalf("SCRIPT EXISTS before any run: %v", got)
	}
	for i, want := range [][]any{{int64(5), "ok"}, {int64(10), "ok"}, {int64(15), "wrapped"}, {int64(5), "ok"}} {
		got, err := incrBy.Run(ctx, c, []string{"counter"}, 5, 12).Slice()
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("run %d: got %v, want %v", i, got, want)
		}
	}
	if got, want := commandCalls(t, s, "eval"), "1"; got != want {
		t.Errorf("EVAL calls: %s, want %s (the fallback after the first NOSCRIPT)", got, want)
	}
	if got, want := commandCalls(t, s, "evalsha"), "4"; got != want {
		t.Errorf("EVALSHA calls: %s, want %s", got, want)
	}
	if got := incrBy.Exists(ctx, c).Val(); !reflect.DeepEqual(got, []bool{true}) {
		t.Errorf("SCRIPT EXISTS after the runs: %v", got)
	}

	// After SCRIPT FLUSH the next Run falls back again; RunRO uses EVALSHA_RO / EVAL_RO.
	if err := c.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if got, err := incrBy.Run(ctx, c, []string{"counter"}, 1, 100).Slice(); err != nil || !reflect.DeepEqual(got, []any{int64(6), "ok"}) {
		t.Fatalf("Run after SCRIPT FLUSH: %v, %v", got, err)
	}
	if got, want := commandCalls(t, s, "eval"), "2"; got != want {
		t.Errorf("EVAL calls after the flush: %s, want %s", got, want)
	}
	get := redis.NewScript(`return redis.call('GET', KEYS[1])`)
	if err := get.Load(ctx, c).Err(); err != nil {
		t.Fatalf("SCRIPT LOAD: %v", err)
	}
	if got, err := get.RunRO(ctx, c, []string{"counter"}).Text(); err != nil || got != "6" {
		t.Errorf("RunRO: %q, %v", got, err)
	}
	if _, err := redis.NewScript(`return redis.call('SET', KEYS[1], 'x')`).RunRO(ctx, c, []string{"counter"}).Result(); err == nil ||
		!strings.HasPrefix(err.Error(), "ERR Write commands are not allowed from read-only scripts.") {
		t.Errorf("RunRO of a write: %v", err)
	}

	// A script's error is the command's error; redis.Nil for a nil reply.
	if _, err := redis.NewScript(`return redis.error_reply('MY failure')`).Run(ctx, c, nil).Result(); err == nil || err.Error() != "MY failure" {
		t.Errorf("error_reply: %v", err)
	}
	if err := redis.NewScript(`return redis.call('GET', 'missing')`).Run(ctx, c, nil).Err(); err != redis.Nil {
		t.Errorf("nil reply: %v, want redis.Nil", err)
	}
}

// TestScriptGoRedisResp3: to a RESP3 client, after redis.setresp(3), a script's map, set,
// double, boolean and big number tables arrive as those types; to a RESP2 client as arrays,
// bulk strings and integers.
func TestScriptGoRedisResp3(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	skipWithoutScripting(t, s, false)
	ctx := context.Background()
	c3 := s.Client(t, withProtocol(3))
	c2 := s.Client(t)
	if err := c3.HSet(ctx, "h", "f", "v").Err(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		script       string
		resp3, resp2 any
	}{
		{`redis.setresp(3) return redis.call('HGETALL', 'h')`, map[any]any{"f": "v"}, []any{"f", "v"}},
		{`return {map={a=1}}`, map[any]any{"a": int64(1)}, []any{"a", int64(1)}},
		{`return {set={x=true}}`, map[any]struct{}{"x": {}}, []any{"x"}},
		{`return {double=2.5}`, 2.5, "2.5"},
		{`redis.setresp(3) return true`, true, int64(1)},
		{`redis.setresp(3) return false`, false, int64(0)},
		{`return false`, nil, nil},
	} {
		for _, p := range []struct {
			c    *redis.Client
			want any
		}{{c3, tc.resp3}, {c2, tc.resp2}} {
			got, err := p.c.Eval(ctx, tc.script, nil).Result()
			if p.want == nil {
				if err != redis.Nil {
					t.Errorf("%s (RESP%d): %v, %v; want redis.Nil", tc.script, p.c.Options().Protocol, got, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s (RESP%d): %v", tc.script, p.c.Options().Protocol, err)
				continue
			}
			if set, ok := got.([]any); ok && p.c == c3 && strings.Contains(tc.script, "set=") {
				// go-redis reads a RESP3 set as a slice.
				got = map[any]struct{}{}
				for _, m := range set {
					got.(map[any]struct{})[m] = struct{}{}
				}
			}
			if !reflect.DeepEqual(got, p.want) {
				t.Errorf("%s (RESP%d): got %#v, want %#v", tc.script, p.c.Options().Protocol, got, p.want)
			}
		}
	}

	// A big number: "(" in RESP3, which go-redis reads as a *big.Int; a bulk string in RESP2.
	const digits = "1234567890123456789012345678901234567890"
	got, err := c3.Eval(ctx, `return {big_number='`+digits+`'}`, nil).Result()
	if n, ok := got.(*big.Int); err != nil || !ok || n.String() != digits {
		t.Errorf("big number (RESP3): %#v, %v", got, err)
	}
	raw := s.RawConn(t)
	if r := raw.Do("HELLO", "3"); r.Kind != '%' {
		t.Fatalf("HELLO 3: %s", formatReply(r, false))
	}
	raw.Send(encodeCommand("EVAL", `return {big_number='`+digits+`'}`, "0"))
	if b := raw.ReadN(len(digits) + 3); string(b) != "("+digits+"\r\n" {
		t.Errorf("big number bytes: %q", b)
	}
	if got, err := c2.Eval(ctx, `return {big_number='`+digits+`'}`, nil).Text(); err != nil || got != digits {
		t.Errorf("big number (RESP2): %q, %v", got, err)
	}
}

// TestScriptGoRedisMulti: EVAL and EVALSHA queued in a MULTI/EXEC pipeline run in order
// with the transaction's other commands; a script error is one result among the others.
func TestScriptGoRedisMulti(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	skipWithoutScripting(t, s, false)
	ctx := context.Background()
	c := s.Client(t)
	if err := c.Set(ctx, "text", "abc", 0).Err(); err != nil {
		t.Fatal(err)
	}
	sha, err := c.ScriptLoad(ctx, `return redis.call('INCRBY', KEYS[1], ARGV[1])`).Result()
	if err != nil {
		t.Fatal(err)
	}
	cmds, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, "n", 1, 0)
		p.EvalSha(ctx, sha, []string{"n"}, 10)
		p.Eval(ctx, `return redis.call('INCR', KEYS[1])`, []string{"n"})
		p.Eval(ctx, `return redis.call('INCR', 'text')`, nil)
		p.Get(ctx, "n")
		return nil
	})
	if err == nil {
		t.Fatal("EXEC with a failing script: no error")
	}
	if got := cmds[0].(*redis.StatusCmd).Val(); got != "OK" {
		t.Errorf("SET: %q", got)
	}
	for i, want := range map[int]int64{1: 11, 2: 12} {
		if got, err := cmds[i].(*redis.Cmd).Int64(); err != nil || got != want {
			t.Errorf("command %d (%s): %d, %v; want %d", i, cmds[i].Name(), got, err, want)
		}
	}
	const scriptErr = "ERR value is not an integer or out of range script: 8679667e0741b37d05800ab1a77d06d260c34736, on @user_script:1."
	if e := cmds[3].Err(); e == nil || e.Error() != scriptErr {
		t.Errorf("the failing script in EXEC: %v, want %s", e, scriptErr)
	}
	if got := cmds[4].(*redis.StringCmd).Val(); got != "12" {
		t.Errorf("GET after the scripts: %q", got)
	}
}
