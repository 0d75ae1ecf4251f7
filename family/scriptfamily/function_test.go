package scriptfamily

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/stringfamily"
	"github.com/kvserver/kvserver/funclib"
	"github.com/kvserver/kvserver/internal/familytest"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
	"github.com/kvserver/kvserver/scripting"
)

// newFunctionHarness runs the family's rows (and the string family's, for the functions'
// redis.call) through the real pipeline, with a real Lua engine and registry.
func newFunctionHarness(t *testing.T) (*familytest.Harness, *Family) {
	e := scripting.New(scripting.Options{Version: "7.2.4", VersionNum: 0x070204})
	sc := command.NewScripts(nil, nil)
	f := New(e, sc)
	f.Functions = funclib.New(e)
	h := familytest.New(t, f.Commands(), stringfamily.Commands())
	sc.P, sc.Table = h.P, h.Tab
	return h, f
}

const (
	libCode = "#!lua name=mylib\n" +
		"redis.register_function('echo', function(keys, args) return args[1] end)\n" +
		"redis.register_function('setget', function(keys, args) redis.call('SET', keys[1], args[1]); return redis.call('GET', keys[1]) end)\n" +
		"redis.register_function{function_name='ro', callback=function(keys) return redis.call('GET', keys[1]) end, flags={'no-writes'}, description='reads a key'}"
	// libList is FUNCTION LIST's reply for libCode in RESP2.
	libList = "*1\r\n*6\r\n$12\r\nlibrary_name\r\n$5\r\nmylib\r\n$6\r\nengine\r\n$3\r\nLUA\r\n$9\r\nfunctions\r\n*3\r\n" +
		"*6\r\n$4\r\nname\r\n$4\r\necho\r\n$11\r\ndescription\r\n$-1\r\n$5\r\nflags\r\n*0\r\n" +
		"*6\r\n$4\r\nname\r\n$6\r\nsetget\r\n$11\r\ndescription\r\n$-1\r\n$5\r\nflags\r\n*0\r\n" +
		"*6\r\n$4\r\nname\r\n$2\r\nro\r\n$11\r\ndescription\r\n$11\r\nreads a key\r\n$5\r\nflags\r\n*1\r\n+no-writes\r\n"
)

// bulk is a RESP2 bulk string.
func bulk(s string) string { return "$" + itoa(len(s)) + "\r\n" + s + "\r\n" }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestFunctionLoadList(t *testing.T) {
	h, _ := newFunctionHarness(t)
	h.Expect(bulk("mylib"), "FUNCTION", "LOAD", libCode)
	h.Expect("-ERR Library 'mylib' already exists\r\n", "FUNCTION", "LOAD", libCode)
	h.Expect(bulk("mylib"), "FUNCTION", "LOAD", "REPLACE", "replace", libCode)
	h.Expect("-ERR Unknown option given: foo\r\n", "FUNCTION", "LOAD", "foo", libCode)
	h.Expect("-ERR Missing library metadata\r\n", "FUNCTION", "LOAD", "return 1")
	h.Expect("-ERR Function ECHO already exists\r\n", "FUNCTION", "LOAD",
		"#!lua name=other\nredis.register_function('ECHO', function() return 1 end)")

	h.Expect(libList, "FUNCTION", "LIST")
	h.Expect(libList, "FUNCTION", "LIST", "LIBRARYNAME", "MY*")
	h.Expect("*0\r\n", "FUNCTION", "LIST", "libraryname", "zz*")
	withCode := strings.TrimSuffix(strings.Replace(libList, "*1\r\n*6\r\n", "*1\r\n*8\r\n", 1), "") +
		bulk("library_code") + bulk(libCode)
	h.Expect(withCode, "FUNCTION", "LIST", "WITHCODE", "LIBRARYNAME", "mylib")
	h.Expect("-ERR library name argument was not given\r\n", "FUNCTION", "LIST", "LIBRARYNAME")
	h.Expect("-ERR Unknown argument foo\r\n", "FUNCTION", "LIST", "foo")
	h.Expect("-ERR Unknown argument WITHCODE\r\n", "FUNCTION", "LIST", "WITHCODE", "WITHCODE")

	// RESP3: maps, a null description, a set of flags.
	h.W.SetProto(3)
	got := h.Do("FUNCTION", "LIST", "LIBRARYNAME", "mylib")
	for _, want := range []string{"*1\r\n%3\r\n", "%3\r\n$4\r\nname\r\n$4\r\necho\r\n$11\r\ndescription\r\n_\r\n$5\r\nflags\r\n~0\r\n", "~1\r\n+no-writes\r\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("RESP3 FUNCTION LIST %q lacks %q", got, want)
		}
	}
	h.Expect("%2\r\n$14\r\nrunning_script\r\n_\r\n$7\r\nengines\r\n%1\r\n$3\r\nLUA\r\n%2\r\n$15\r\nlibraries_count\r\n:1\r\n$15\r\nfunctions_count\r\n:3\r\n",
		"FUNCTION", "STATS")
	h.W.SetProto(2)
	h.Expect("*4\r\n$14\r\nrunning_script\r\n$-1\r\n$7\r\nengines\r\n*2\r\n$3\r\nLUA\r\n*4\r\n$15\r\nlibraries_count\r\n:1\r\n$15\r\nfunctions_count\r\n:3\r\n",
		"FUNCTION", "STATS")
}

func TestFunctionDeleteFlushDumpRestore(t *testing.T) {
	h, f := newFunctionHarness(t)
	h.Expect(bulk("mylib"), "FUNCTION", "LOAD", libCode)
	dump := h.Do("FUNCTION", "DUMP")
	payload := string(f.Functions.Dump())
	if dump != bulk(payload) {
		t.Fatalf("FUNCTION DUMP %q", dump)
	}
	h.Expect("-ERR Library mylib already exists\r\n", "FUNCTION", "RESTORE", payload)
	h.Expect("+OK\r\n", "FUNCTION", "RESTORE", payload, "replace")
	h.Expect("-ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.\r\n", "FUNCTION", "RESTORE", payload, "foo")
	h.Expect("-ERR unknown subcommand or wrong number of arguments for 'RESTORE'. Try FUNCTION HELP.\r\n", "FUNCTION", "RESTORE", payload, "a", "b")
	h.Expect("-ERR DUMP payload version or checksum are wrong\r\n", "FUNCTION", "RESTORE", "xxx")

	h.Expect("-ERR Library not found\r\n", "FUNCTION", "DELETE", "nope")
	h.Expect("+OK\r\n", "FUNCTION", "DELETE", "mylib")
	h.Expect("*0\r\n", "FUNCTION", "LIST")
	h.Expect("+OK\r\n", "FUNCTION", "RESTORE", payload, "FLUSH")
	h.Expect(bulk("hi"), "FCALL", "echo", "0", "hi")
	h.Expect("-ERR FUNCTION FLUSH only supports SYNC|ASYNC option\r\n", "FUNCTION", "FLUSH", "x")
	h.Expect("-ERR unknown subcommand or wrong number of arguments for 'FLUSH'. Try FUNCTION HELP.\r\n", "FUNCTION", "FLUSH", "async", "x")
	h.Expect("+OK\r\n", "FUNCTION", "FLUSH", "ASYNC")
	h.Expect("-ERR Function not found\r\n", "FCALL", "echo", "0", "hi")
	h.Expect("+OK\r\n", "FUNCTION", "FLUSH")
	h.Expect("-NOTBUSY No scripts in execution right now.\r\n", "FUNCTION", "KILL")
	if got := h.Do("FUNCTION", "HELP"); !strings.HasPrefix(got, "*40\r\n+FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+LOAD [REPLACE] <FUNCTION CODE>\r\n") {
		t.Errorf("FUNCTION HELP %q", got)
	}
}

func TestFcall(t *testing.T) {
	h, _ := newFunctionHarness(t)
	h.Expect(bulk("mylib"), "FUNCTION", "LOAD", libCode)
	h.Expect(bulk("hello"), "FCALL", "echo", "0", "hello")
	h.Expect(bulk("hello"), "FCALL", "ECHO", "0", "hello")
	h.Expect(bulk("v1"), "FCALL", "setget", "1", "k", "v1")
	h.Expect(bulk("v1"), "GET", "k")
	h.Expect(bulk("v1"), "FCALL_RO", "ro", "1", "k")
	h.Expect("-ERR Can not execute a script with write flag using *_ro command.\r\n", "FCALL_RO", "setget", "1", "k", "v2")
	h.Expect("-ERR Function not found\r\n", "FCALL", "nope", "0")
	h.Expect("-ERR Bad number of keys provided\r\n", "FCALL", "echo", "x")
	h.Expect("-ERR Number of keys can't be greater than number of args\r\n", "FCALL", "echo", "2", "a")
	h.Expect("-ERR Number of keys can't be negative\r\n", "FCALL", "echo", "-1")
	// A function not found is answered before numkeys is read, as Redis.
	h.Expect("-ERR Function not found\r\n", "FCALL", "nope", "x")
}

// testConn is the connection of a command run beside the harness's.
type testConn struct{}

func (testConn) AuthRequired() bool { return false }
func (testConn) DebugAllowed() bool { return true }

// TestFunctionStatsKill: a busy function shows in FUNCTION STATS and FUNCTION KILL stops it;
// SCRIPT KILL does not.
func TestFunctionStatsKill(t *testing.T) {
	h, f := newFunctionHarness(t)
	h.Expect(bulk("spinlib"), "FUNCTION", "LOAD", "#!lua name=spinlib\nredis.register_function('spin', function() while true do end end)")
	f.Scripts.SetBusyThreshold(0)

	// FCALL spin runs on its own context and goroutine.
	var w2 resp.Writer
	ctx2 := &command.Ctx{W: &w2, KS: h.KS, Cfg: h.Ctx.Cfg, Stats: &command.KeyStats{}}
	parser := querybuf.NewParser(querybuf.DefaultLimits())
	data := familytest.AppendCommand(nil, "FCALL", "spin", "0")
	if n, err := parser.Parse(data); err != nil || n != len(data) {
		t.Fatal(n, err)
	}
	a := parser.Command(0)
	cmd, errText := h.Tab.Lookup(a)
	ctx2.Args, ctx2.Cmd = a, cmd
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.P.Run(ctx2, testConn{}, errText, false)
	}()
	for !f.Scripts.Busy() {
		time.Sleep(time.Millisecond)
	}
	got := h.Do("FUNCTION", "STATS")
	if want := "*4\r\n$14\r\nrunning_script\r\n*6\r\n$4\r\nname\r\n$4\r\nspin\r\n$7\r\ncommand\r\n*3\r\n$5\r\nFCALL\r\n$4\r\nspin\r\n$1\r\n0\r\n$11\r\nduration_ms\r\n:"; !strings.HasPrefix(got, want) {
		t.Errorf("FUNCTION STATS while busy: %q", got)
	}
	h.Expect("-BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.\r\n", "SCRIPT", "KILL")
	h.Expect("+OK\r\n", "FUNCTION", "KILL")
	<-done
	// Redis's words for a function too (script_lua.c).
	if got := string(w2.Bytes()); !strings.HasPrefix(got, "-ERR Script killed by user with SCRIPT KILL...") {
		t.Errorf("the killed FCALL answered %q", got)
	}
	h.Expect("*4\r\n$14\r\nrunning_script\r\n$-1\r\n$7\r\nengines\r\n*2\r\n$3\r\nLUA\r\n*4\r\n$15\r\nlibraries_count\r\n:1\r\n$15\r\nfunctions_count\r\n:1\r\n",
		"FUNCTION", "STATS")
	h.Expect("-NOTBUSY No scripts in execution right now.\r\n", "FUNCTION", "KILL")
}

// TestFcallWhileLibrariesChange: FCALLs on other connections go on while the library they call
// is replaced, deleted and loaded again (go test -race): each answers the function's result or
// "Function not found", nothing else.
func TestFcallWhileLibrariesChange(t *testing.T) {
	h, _ := newFunctionHarness(t)
	lib := func(v string) string {
		return "#!lua name=churn\nredis.register_function('get_v', function() return '" + v + "' end)"
	}
	h.Expect(bulk("churn"), "FUNCTION", "LOAD", lib("v0"))
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var w resp.Writer
			ctx := &command.Ctx{W: &w, KS: h.KS, Cfg: h.Ctx.Cfg, Stats: &command.KeyStats{}}
			parser := querybuf.NewParser(querybuf.DefaultLimits())
			data := familytest.AppendCommand(nil, "FCALL", "get_v", "0")
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				parser.ResetCommands()
				if n, err := parser.Parse(data); err != nil || n != len(data) {
					t.Error(n, err)
					return
				}
				a := parser.Command(0)
				cmd, errText := h.Tab.Lookup(a)
				ctx.Args, ctx.Cmd = a, cmd
				w.Reset()
				h.P.Run(ctx, testConn{}, errText, false)
				got := string(w.Bytes())
				if !strings.HasPrefix(got, "$2\r\nv") && got != "-ERR Function not found\r\n" {
					t.Errorf("goroutine %d, call %d: %q", g, i, got)
					return
				}
			}
		}()
	}
	for i := range 100 {
		v := "v" + itoa(i%10)
		switch i % 4 {
		case 0, 1:
			h.Expect(bulk("churn"), "FUNCTION", "LOAD", "REPLACE", lib(v))
		case 2:
			h.Expect("+OK\r\n", "FUNCTION", "DELETE", "churn")
			h.Expect(bulk("churn"), "FUNCTION", "LOAD", lib(v))
		case 3:
			h.Expect("+OK\r\n", "FUNCTION", "FLUSH")
			h.Expect(bulk("churn"), "FUNCTION", "LOAD", lib(v))
		}
	}
	close(stop)
	wg.Wait()
}

// TestFcallUndeclaredKeys: a function may touch keys it did not declare, as in non-cluster
// Redis; such a function is never vetted (by name, without case), so its calls lock every
// shard, while one that keeps to its declared keys is vetted by its first call, until the
// libraries change.
func TestFcallUndeclaredKeys(t *testing.T) {
	h, f := newFunctionHarness(t)
	h.Expect(bulk("jobs"), "FUNCTION", "LOAD", "#!lua name=jobs\n"+
		"redis.register_function('Push', function(keys, args) for i = 1, 20 do redis.call('SET', 'job:' .. i, args[1]) end return redis.call('GET', 'job:7') end)\n"+
		"redis.register_function('Bump', function(keys, args) return redis.call('INCR', keys[1]) end)")
	if f.vettedFunctions.has([]byte("push")) || f.vettedFunctions.has([]byte("bump")) {
		t.Fatal("vetted before any call")
	}
	h.Expect(bulk("x"), "FCALL", "push", "0", "x")
	if f.vettedFunctions.has([]byte("PUSH")) {
		t.Error("a function touching undeclared keys is vetted")
	}
	h.Expect(bulk("y"), "FCALL", "PUSH", "0", "y")
	h.Expect(bulk("y"), "GET", "job:20")
	h.Expect(":1\r\n", "FCALL", "bump", "1", "counter")
	if !f.vettedFunctions.has([]byte("BUMP")) {
		t.Error("a function keeping to its declared key is not vetted")
	}
	h.Expect("+OK\r\n", "FUNCTION", "FLUSH")
	if f.vettedFunctions.has([]byte("bump")) {
		t.Error("vetted after FUNCTION FLUSH")
	}
}
