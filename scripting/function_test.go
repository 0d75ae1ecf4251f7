package scripting

import (
	"strings"
	"testing"

	"github.com/kvserver/kvserver/resp"
)

// fcall runs f with keys and args for a RESP2 client and returns the reply.
func fcall(e *Engine, f *Function, c Caller, keys, args []string) string {
	var w resp.Writer
	w.SetProto(2)
	e.CallFunction(f, c, RunOpts{Keys: toBytes(keys), Argv: toBytes(args), Proto: 2}, &w)
	return string(w.Bytes())
}

func TestLoadLibraryAndCall(t *testing.T) {
	var logs []string
	e := New(Options{Version: "7.2.4", VersionNum: 0x070204, Log: func(level int, msg string) { logs = append(logs, msg) }})
	code := "#!lua name=mylib\n" +
		"local function helper(x) return x .. '!' end\n" +
		"redis.register_function('echo', function(keys, args) return helper(args[1]) end)\n" +
		"redis.register_function{function_name='ro', callback=function(k, a) return {k[1], a[1], #k, #a} end, flags={'no-writes', 'ALLOW-STALE'}, description='reads'}\n" +
		"redis.register_function('get', function(keys) return redis.call('GET', keys[1]) end)\n" +
		"redis.log(redis.LOG_NOTICE, 'loaded', redis.REDIS_VERSION)\n"
	lib, err := e.LoadLibrary([]byte(code))
	if err != nil {
		t.Fatal(err)
	}
	if lib.Name != "mylib" || string(lib.Code) != code || len(lib.Functions) != 3 {
		t.Fatalf("library %+v", lib)
	}
	ro := lib.Functions[1]
	if lib.Functions[0].Name != "echo" || ro.Name != "ro" || ro.Description != "reads" ||
		ro.Flags != NoWrites|AllowStale || ro.Library != lib || lib.Functions[2].Name != "get" {
		t.Errorf("functions %+v %+v %+v", lib.Functions[0], ro, lib.Functions[2])
	}
	c := &fakeCaller{replies: replies}
	if got := fcall(e, lib.Functions[0], c, nil, []string{"hi"}); got != "$3\r\nhi!\r\n" {
		t.Errorf("echo: %q", got)
	}
	if got := fcall(e, ro, c, []string{"key"}, []string{"arg1", "arg2"}); got != "*4\r\n$3\r\nkey\r\n$4\r\narg1\r\n:1\r\n:2\r\n" {
		t.Errorf("ro: %q", got)
	}
	if got := fcall(e, lib.Functions[2], c, []string{"k"}, nil); got != "$3\r\nbar\r\n" || c.calls[0][1] != "k" {
		t.Errorf("get: %q %q", got, c.calls)
	}
	// Another state loading the library for its own use does not log again.
	st := e.funcPool.get()
	if got := fcall(e, lib.Functions[0], c, nil, []string{"again"}); got != "$6\r\nagain!\r\n" {
		t.Errorf("echo in a second state: %q", got)
	}
	e.funcPool.put(st)
	if len(logs) != 1 || logs[0] != "loaded 7.2.4" {
		t.Errorf("load logs %q", logs)
	}
}

// Errors of FUNCTION LOAD in Redis's words (redis-server 7.0.15's replies).
func TestLoadLibraryErrors(t *testing.T) {
	reg := "\nredis.register_function('f', function() return 1 end)"
	for _, tc := range []struct{ code, err string }{
		{"x", "ERR Missing library metadata"},
		{"#!lua", "ERR Invalid library metadata"},
		{"#!lua\n" + reg, "ERR Library name was not given"},
		{"#!lua name=a-b" + reg, "ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long"},
		{"#!lua name=" + reg, "ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long"},
		{"#!lua name=l foo=bar" + reg, "ERR Invalid metadata value given: foo=bar"},
		{"#!lua name=l name=m" + reg, "ERR Invalid metadata value, name argument was given multiple times"},
		{"#!py name=l" + reg, "ERR Engine 'py' not found"},
		{"#!lua name=l\n", "ERR No functions registered"},
		{"#!lua name=l\nreturn redis.log", "ERR No functions registered"},
		{"#!lua name=l\nlocal x = string.len('a')" + reg, "ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent global variable 'string'"},
		{"#!lua name=l\nredis.call('ping')", "ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent global variable 'call'"},
		{"#!lua name=l\nx=1", "ERR Error registering functions: ERR user_function:2: Attempt to modify a readonly table"},
		{"#!lua name=l\nerror('x')", "ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent global variable 'error'"},
		{"#!lua name=l\nreturn redis.setresp", "ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent global variable 'setresp'"},
		{"#!lua name=l" + reg + reg, "ERR Error registering functions: ERR Function already exists in the library"},
		{"#!lua name=l\nredis.register_function('f 1', function() end)", "ERR Error registering functions: ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long"},
		{"#!lua name=l\nredis.register_function{function_name='f', callback=function() end, flags={'no-writes','bogus'}}", "ERR Error registering functions: ERR unknown flag given"},
		{"#!lua name=l\nredis.register_function{function_name='f', callback=function() end, other=1}", "ERR Error registering functions: ERR unknown argument given to redis.register_function"},
		{"#!lua name=l\nredis.register_function{callback=function() end}", "ERR Error registering functions: ERR redis.register_function must get a function name argument"},
		{"#!lua name=l\nredis.register_function{function_name='f'}", "ERR Error registering functions: ERR redis.register_function must get a callback argument"},
		{"#!lua name=l\nredis.register_function{function_name='f', callback='x'}", "ERR Error registering functions: ERR callback argument given to redis.register_function must be a function"},
		{"#!lua name=l\nredis.register_function{function_name={}, callback=function() end}", "ERR Error registering functions: ERR function_name argument given to redis.register_function must be a string"},
		{"#!lua name=l\nredis.register_function{function_name='f', callback=function() end, flags='no-writes'}", "ERR Error registering functions: ERR flags argument to redis.register_function must be a table representing function flags"},
		{"#!lua name=l\nredis.register_function('f')", "ERR Error registering functions: ERR calling redis.register_function with a single argument is only applicable to Lua table (representing named arguments)."},
		{"#!lua name=l\nredis.register_function()", "ERR Error registering functions: ERR wrong number of arguments to redis.register_function"},
		{"#!lua name=l\nredis.register_function({}, function() end)", "ERR Error registering functions: ERR first argument to redis.register_function must be a string"},
		{"#!lua name=l\nredis.register_function('f', 'g')", "ERR Error registering functions: ERR second argument to redis.register_function must be a function"},
	} {
		_, err := newTestEngine().LoadLibrary([]byte(tc.code))
		if err == nil || err.Error() != tc.err {
			t.Errorf("%q:\n got %v\nwant %s", tc.code, err, tc.err)
		}
	}
}

// A compile error names the line as Redis (Lua's wording of the error itself may differ).
func TestLoadLibraryCompileError(t *testing.T) {
	_, err := newTestEngine().LoadLibrary([]byte("#!lua name=l\n\nreturn 1 +"))
	if err == nil || !strings.HasPrefix(err.Error(), "ERR Error compiling function: user_function:3: ") {
		t.Errorf("error %v", err)
	}
}

// A load that runs too long is stopped (Redis: 500 ms).
func TestLoadLibraryTimeout(t *testing.T) {
	_, err := newTestEngine().LoadLibrary([]byte("#!lua name=l\nwhile true do end"))
	if err == nil || err.Error() != "ERR Error registering functions: ERR FUNCTION LOAD timeout" {
		t.Errorf("error %v", err)
	}
}

// At run time the functions see the whole sandbox but not KEYS/ARGV nor register_function;
// errors name the function.
func TestFunctionRunTime(t *testing.T) {
	e := newTestEngine()
	lib, err := e.LoadLibrary([]byte("#!lua name=l9\n" +
		"redis.register_function('f9', function(k,a) return x end)\n" +
		"redis.register_function('f10', function(k,a) return redis.register_function('z', function() end) end)\n" +
		"redis.register_function('keys', function(k,a) return KEYS end)\n" +
		"redis.register_function('libs', function(k,a) return {string.upper('a'), bit.bor(1, 2), type(redis.call)} end)\n" +
		"redis.register_function('setg', function(k,a) y = 1 end)\n" +
		"redis.register_function('probe', function(k, a) return {type(redis.breakpoint), type(redis.debug), type(redis.replicate_commands), type(redis.setresp), type(redis.set_repl), type(redis.acl_check_cmd), type(redis.sha1hex), type(redis.error_reply), type(math.random), type(os), type(cjson), type(_G), type(redis.REDIS_VERSION), type(redis.call), type(redis.register_function)} end)\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := &fakeCaller{}
	for i, want := range []string{
		"-ERR user_function:2: Script attempted to access nonexistent global variable 'x' script: f9, on @user_function:2.\r\n",
		"-ERR user_function:3: attempt to call field 'register_function' (a nil value) script: f10, on @user_function:3.\r\n",
		"-ERR user_function:4: Script attempted to access nonexistent global variable 'KEYS' script: keys, on @user_function:4.\r\n",
		"*3\r\n$1\r\nA\r\n:3\r\n$8\r\nfunction\r\n",
		"-ERR user_function:6: Attempt to modify a readonly table script: setg, on @user_function:6.\r\n",
		// redis-server 7.0.15's answer, but for os (7.2 has os.clock).
		"*15\r\n$3\r\nnil\r\n$3\r\nnil\r\n$3\r\nnil\r\n$8\r\nfunction\r\n$8\r\nfunction\r\n$8\r\nfunction\r\n$8\r\nfunction\r\n$8\r\nfunction\r\n$8\r\nfunction\r\n$5\r\ntable\r\n$5\r\ntable\r\n$5\r\ntable\r\n$6\r\nstring\r\n$8\r\nfunction\r\n$3\r\nnil\r\n",
	} {
		if got := fcall(e, lib.Functions[i], c, nil, nil); got != want {
			t.Errorf("%s:\n got %q\nwant %q", lib.Functions[i].Name, got, want)
		}
	}
}

// Each state loads a library the first time one of its functions runs there; DropLibrary
// makes the states forget it.
func TestLibraryInSeveralStates(t *testing.T) {
	e := New(Options{Version: "7.2.4", VersionNum: 0x070204, MaxIdle: 4})
	lib, err := e.LoadLibrary([]byte("#!lua name=l\nlocal n = 0\nredis.register_function('count', function() n = n + 1 return n end)"))
	if err != nil {
		t.Fatal(err)
	}
	f := lib.Functions[0]
	// Take the loading state out of the pool so that a second state must load the library.
	st := e.funcPool.get()
	if _, ok := st.libs[lib]; !ok {
		t.Fatal("the loading state does not keep the library")
	}
	if got := fcall(e, f, &fakeCaller{}, nil, nil); got != ":1\r\n" {
		t.Errorf("first call in a new state: %q", got)
	}
	if got := fcall(e, f, &fakeCaller{}, nil, nil); got != ":2\r\n" {
		t.Errorf("second call: %q (the state's closure keeps its upvalue)", got)
	}
	e.funcPool.put(st)
	if e.funcPool.live.Load() != 2 {
		t.Errorf("%d states", e.funcPool.live.Load())
	}
	e.DropLibrary(lib)
	e.funcPool.each(func(st *state) {
		if len(st.libs) != 0 {
			t.Errorf("a state keeps a dropped library")
		}
	})
	// A function of a library loaded after the drop runs (the registry no longer offers the
	// dropped one).
	lib2, err := e.LoadLibrary([]byte("#!lua name=l\nredis.register_function('count', function() return 'new' end)"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fcall(e, lib2.Functions[0], &fakeCaller{}, nil, nil); got != "$3\r\nnew\r\n" {
		t.Errorf("after replace: %q", got)
	}
}

// Loading and calling from several goroutines at once (run with -race).
func TestConcurrentRuns(t *testing.T) {
	e := newTestEngine()
	lib, err := e.LoadLibrary([]byte("#!lua name=l\nredis.register_function('f', function(k, a) return redis.call('GET', k[1]) end)"))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string)
	for g := 0; g < 4; g++ {
		go func() {
			var out strings.Builder
			for i := 0; i < 50; i++ {
				c := &fakeCaller{replies: replies}
				if got := eval(t, e, c, 2, "return redis.call('GET', KEYS[1])", []string{"k"}, nil); got != "$3\r\nbar\r\n" {
					out.WriteString("eval " + got)
				}
				if got := fcall(e, lib.Functions[0], c, []string{"k"}, nil); got != "$3\r\nbar\r\n" {
					out.WriteString("fcall " + got)
				}
			}
			done <- out.String()
		}()
	}
	for g := 0; g < 4; g++ {
		if s := <-done; s != "" {
			t.Error(s)
		}
	}
}
