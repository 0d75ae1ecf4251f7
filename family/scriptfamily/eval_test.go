package scriptfamily

import (
	"strings"
	"testing"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/evict"
	"github.com/kvserver/kvserver/family/keyfamily"
	"github.com/kvserver/kvserver/family/listfamily"
	"github.com/kvserver/kvserver/family/stringfamily"
	"github.com/kvserver/kvserver/family/txfamily"
	"github.com/kvserver/kvserver/internal/familytest"
	"github.com/kvserver/kvserver/scripting"
)

// newHarness runs the family's rows, with the string, list, key and transaction families for
// the scripts to call, through the real pipeline and a real engine.
func newHarness(t *testing.T) (*familytest.Harness, *Family) {
	t.Helper()
	sc := command.NewScripts(nil, nil)
	f := New(scripting.New(scripting.Options{Version: config.RedisVersion, VersionNum: 0x070204}), sc)
	h := familytest.New(t, f.Commands(), stringfamily.Commands(), listfamily.Commands(),
		keyfamily.Commands(), txfamily.Commands())
	sc.P, sc.Table = h.P, h.Tab
	return h, f
}

// TestEval: EVAL and EVALSHA run scripts with their keys and arguments, numkeys is checked in
// Redis's words, EVALSHA of an unknown SHA1 answers NOSCRIPT, and the script's writes raise
// their events after it.
func TestEval(t *testing.T) {
	h, _ := newHarness(t)
	sha := scripting.SHA1Hex([]byte("return redis.call('incrby', KEYS[1], ARGV[1])"))
	h.Expect(":5\r\n", "EVAL", "return redis.call('incrby', KEYS[1], ARGV[1])", "1", "n", "5")
	h.ExpectEvents("new n, incrby n")
	h.Expect(":7\r\n", "EVALSHA", sha, "1", "n", "2")
	h.Expect(":9\r\n", "EVALSHA", strings.ToUpper(sha), "1", "n", "2")
	h.Expect("-NOSCRIPT No matching script. Please use EVAL.\r\n", "EVALSHA", "ffffffffffffffffffffffffffffffffffffffff", "0")
	h.Expect("-NOSCRIPT No matching script. Please use EVAL.\r\n", "EVALSHA", "abc", "0")
	h.Expect("-ERR Number of keys can't be greater than number of args\r\n", "EVAL", "return 1", "2", "a")
	h.Expect("-ERR Number of keys can't be negative\r\n", "EVAL", "return 1", "-1")
	h.Expect("-ERR value is not an integer or out of range\r\n", "EVAL", "return 1", "x")
	h.Expect("*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n", "EVAL", "return {KEYS[1], ARGV[1], ARGV[2]}", "1", "a", "b", "c")
	// A blocking command answers at once inside a script.
	h.Expect("$-1\r\n", "EVAL", "return redis.call('blpop', KEYS[1], 0)", "1", "q") // a null array: false, then a null bulk
	h.Expect(":1\r\n", "EVAL", "return redis.acl_check_cmd('get', 'k')", "0")
	if got := h.Do("EVAL", "return redis.acl_check_cmd('nosuch')", "0"); !strings.HasPrefix(got, "-ERR Invalid command passed to redis.acl_check_cmd()") {
		t.Errorf("acl_check_cmd: %q", got)
	}
	if !strings.HasPrefix(h.Do("EVAL", "return redis.call('nosuch')", "0"), "-ERR Unknown Redis command called from script") {
		t.Errorf("unknown command: %q", h.Do("EVAL", "return redis.call('nosuch')", "0"))
	}
}

// TestEvalReadOnly: EVAL_RO and EVALSHA_RO refuse write commands; a script declaring
// no-writes is read-only under EVAL too; a script that may write is refused by the _RO forms.
func TestEvalReadOnly(t *testing.T) {
	h, _ := newHarness(t)
	h.Do("SET", "k", "v")
	h.Expect("$1\r\nv\r\n", "EVAL_RO", "return redis.call('get', KEYS[1])", "1", "k")
	if got := h.Do("EVAL_RO", "return redis.call('set', KEYS[1], 'x')", "1", "k"); !strings.HasPrefix(got,
		"-ERR Write commands are not allowed from read-only scripts.") {
		t.Errorf("EVAL_RO write: %q", got)
	}
	sha := strings.TrimSpace(strings.Split(h.Do("SCRIPT", "LOAD", "return redis.call('del', KEYS[1])"), "\r\n")[1])
	if got := h.Do("EVALSHA_RO", sha, "1", "k"); !strings.HasPrefix(got, "-ERR Write commands are not allowed") {
		t.Errorf("EVALSHA_RO write: %q", got)
	}
	if got := h.Do("EVAL", "#!lua flags=no-writes\nreturn redis.call('set', KEYS[1], 'x')", "1", "k"); !strings.HasPrefix(got,
		"-ERR Write commands are not allowed from read-only scripts.") {
		t.Errorf("no-writes: %q", got)
	}
	h.Expect("-ERR Can not execute a script with write flag using *_ro command.\r\n", "EVAL_RO", "#!lua\nreturn 1", "0")
	h.Expect(":1\r\n", "EVAL_RO", "#!lua flags=no-writes\nreturn 1", "0")
	h.Expect("$1\r\nv\r\n", "GET", "k")
}

// TestScriptCommands: SCRIPT LOAD, EXISTS, FLUSH, KILL, DEBUG and HELP.
func TestScriptCommands(t *testing.T) {
	h, f := newHarness(t)
	sha := scripting.SHA1Hex([]byte("return 1"))
	h.Expect("$40\r\n"+sha+"\r\n", "SCRIPT", "LOAD", "return 1")
	h.Expect("*2\r\n:1\r\n:0\r\n", "SCRIPT", "EXISTS", sha, "ffffffffffffffffffffffffffffffffffffffff")
	if got := h.Do("SCRIPT", "LOAD", "return +"); !strings.HasPrefix(got, "-ERR Error compiling script") {
		t.Errorf("bad script: %q", got)
	}
	h.Expect("-ERR SCRIPT FLUSH only support SYNC|ASYNC option\r\n", "SCRIPT", "FLUSH", "lazy")
	h.Expect("-ERR SCRIPT FLUSH only support SYNC|ASYNC option\r\n", "SCRIPT", "FLUSH", "sync", "x")
	h.Expect("+OK\r\n", "SCRIPT", "FLUSH", "async")
	h.Expect("*1\r\n:0\r\n", "SCRIPT", "EXISTS", sha)
	if f.Engine.Len() != 0 {
		t.Errorf("%d scripts after FLUSH", f.Engine.Len())
	}
	h.Expect("-NOTBUSY No scripts in execution right now.\r\n", "SCRIPT", "KILL")
	h.Expect("+OK\r\n", "SCRIPT", "DEBUG", "no")
	h.Expect("-ERR Use SCRIPT DEBUG YES/SYNC/NO\r\n", "SCRIPT", "DEBUG", "maybe")
	if got := h.Do("SCRIPT", "DEBUG", "yes"); !strings.HasPrefix(got, "-ERR the Lua debugger") {
		t.Errorf("debug yes: %q", got)
	}
	if got := h.Do("SCRIPT", "HELP"); !strings.HasPrefix(got, "*17\r\n+SCRIPT <subcommand>") {
		t.Errorf("help: %q", got)
	}
}

// TestEvalUndeclaredKeys: a script's first run, and every run of a script that touched a key
// it did not declare (never refused), lock every shard; a script whose run touched only its
// declared keys is vetted, and its later runs — by EVAL or EVALSHA — lock their shards only;
// SCRIPT FLUSH forgets what was learnt.
func TestEvalUndeclaredKeys(t *testing.T) {
	h, f := newHarness(t)
	keys := h.KeysInShards("k", 16) // shards are hashed with a per-process seed
	if h.KS.ShardFor([]byte(keys[0])) == h.KS.ShardFor([]byte("job:7")) {
		keys[0] = keys[1]
	}
	shards := func(name, arg string) int {
		h.Parser.ResetCommands()
		data := familytest.AppendCommand(nil, name, arg, "1", keys[0], "8")
		h.Parser.Parse(data)
		h.Ctx.Args = h.Parser.Command(0)
		h.Ctx.Cmd, _ = h.Tab.Lookup(h.Ctx.Args)
		return len(h.Ctx.Cmd.Shards(h.Ctx, nil))
	}
	straying := "redis.call('set', KEYS[1], 1) return redis.call('set', 'job:' .. ARGV[1], 2)"
	clean := "return redis.call('incr', KEYS[1])"
	all := h.KS.NumShards()
	for _, body := range []string{straying, clean} {
		sha := scripting.SHA1Hex([]byte(body))
		if n := shards("EVAL", body); n != all {
			t.Errorf("first run of %q locks %d shards, want every one", body, n)
		}
		h.Do("EVAL", body, "1", keys[0], "7")
		want := 1
		if body == straying {
			want = all
			h.Expect("$1\r\n2\r\n", "GET", "job:7")
		}
		if f.vettedScripts.has([]byte(sha)) != (body == clean) {
			t.Errorf("%q vetted: %v", body, !(body == clean))
		}
		for _, name := range []string{"EVAL", "EVALSHA"} {
			arg := body
			if name == "EVALSHA" {
				arg = strings.ToUpper(sha)
			}
			if n := shards(name, arg); n != want {
				t.Errorf("%s of %q locks %d shards, want %d", name, body, n, want)
			}
		}
	}
	h.Do("SCRIPT", "FLUSH")
	if f.vettedScripts.has([]byte(scripting.SHA1Hex([]byte(clean)))) {
		t.Error("vetted after SCRIPT FLUSH")
	}
}

// TestEvalInMulti: EVAL queued in MULTI runs in EXEC, its reply one of EXEC's.
func TestEvalInMulti(t *testing.T) {
	h, _ := newHarness(t)
	h.Expect("+OK\r\n", "MULTI")
	h.Expect("+QUEUED\r\n", "EVAL", "return redis.call('incr', KEYS[1])", "1", "c")
	h.Expect("+QUEUED\r\n", "EVAL", "return redis.call('incr', 'other')", "0")
	h.Expect("+QUEUED\r\n", "INCR", "c")
	h.Expect("*3\r\n:1\r\n:1\r\n:2\r\n", "EXEC")
}

// TestEvalResp3: the script's commands answer in the protocol the script chose
// (redis.setresp), and its result is written in the client's.
func TestEvalResp3(t *testing.T) {
	h, _ := newHarness(t)
	h.W.SetProto(3)
	h.Expect("_\r\n", "EVAL", "return redis.call('get', 'missing')", "0")
	h.Expect("_\r\n", "EVAL", "redis.setresp(3) return redis.call('get', 'missing')", "0")
}

// TestEvalOOM: over maxmemory, a script without a shebang is refused OOM at its first denyoom
// command (reads go on), a script with a shebang that may write without allow-oom is refused
// before it runs, and allow-oom or no-writes let it run.
func TestEvalOOM(t *testing.T) {
	h, _ := newHarness(t)
	e := evict.New(h.KS, func() int64 { return 1 << 20 })
	e.Configure(evict.Settings{MaxMemory: 1, Policy: evict.NoEviction, Samples: 5, Tenacity: 10})
	h.P.Evictor = e
	if got := h.Do("EVAL", "return redis.call('set', KEYS[1], 'v')", "1", "k"); !strings.HasPrefix(got,
		"-OOM command not allowed when used memory > 'maxmemory'.") {
		t.Errorf("legacy write: %q", got)
	}
	h.Expect("$-1\r\n", "EVAL", "return redis.call('get', KEYS[1])", "1", "k")
	h.Expect("-OOM command not allowed when used memory > 'maxmemory'.\r\n", "EVAL", "#!lua\nreturn 1", "0")
	h.Expect("+OK\r\n", "EVAL", "#!lua flags=allow-oom\nreturn redis.call('set', KEYS[1], 'v')", "1", "k")
	h.Expect(":1\r\n", "EVAL", "#!lua flags=no-writes\nreturn 1", "0")
}

// TestScriptRowsNotInline: a script never runs on a readiness loop (a busy one would stall the
// loop's other clients, SCRIPT KILL included), and EVAL's and SCRIPT KILL's flags are Redis's.
func TestScriptRowsNotInline(t *testing.T) {
	h, _ := newHarness(t)
	for _, name := range []string{"eval", "evalsha", "eval_ro", "evalsha_ro", "script|kill", "script|load"} {
		cmd := h.Tab.ByFullName(name)
		if cmd == nil || cmd.Inline {
			t.Errorf("%s: %v", name, cmd)
		}
	}
	if h.Tab.ByFullName("script|kill").Flags&command.AllowBusy == 0 || h.Tab.ByFullName("eval").Flags&command.NoScript == 0 {
		t.Error("flags")
	}
}
