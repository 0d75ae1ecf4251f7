package scripting

import (
	"strconv"
	"strings"
	"testing"
)

// Error replies in Redis's words; the texts (with their SHAs) are redis-server 7.0.15's.
func TestErrorTexts(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"x = 1", "-ERR user_script:1: Attempt to modify a readonly table script: 34bce5f775de97f557a34088509c8bfe1ea17e52, on @user_script:1.\r\n"},
		{"return y", "-ERR user_script:1: Script attempted to access nonexistent global variable 'y' script: e278681ed961e2fb52881313e5c90fdd93749940, on @user_script:1.\r\n"},
		{"return redis.call()", "-ERR Please specify at least one argument for this redis lib call script: 0a907e1429221a4d85516cab7fd219a82a9439d8, on @user_script:1.\r\n"},
		{"return redis.call({})", "-ERR Lua redis lib command arguments must be strings or integers script: 80747816df1f4411f7c442b928fce6a814214839, on @user_script:1.\r\n"},
		{"return redis.pcall('GET', {})", "-ERR Lua redis lib command arguments must be strings or integers\r\n"},
		{"return redis.call('nosuch')", "-ERR Unknown Redis command called from script script: 206396248e12c6e742fd7296250433c8d7343b74, on @user_script:1.\r\n"},
		{"return redis.call('lpush','s','a')", "-WRONGTYPE Operation against a key holding the wrong kind of value script: 9a3e09c1ea8ae5a07defe6161592b5ae121a4da7, on @user_script:1.\r\n"},
		{"return redis.pcall('lpush','s','a')", "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
		{"error('boom')", "-ERR user_script:1: boom script: 82903a0434f1503e152f89c03c9acd881a0e8150, on @user_script:1.\r\n"},
		{"error({err='XX boom'})", "-XX boom script: 35378cc52dd1142d0e2fa87c9c1e16cf1c502171, on @user_script:1.\r\n"},
		{"string.x = 1", "-ERR user_script:1: Attempt to modify a readonly table script: c3eb0a2a15b3d4790b323c4104029c1ae425a769, on @user_script:1.\r\n"},
		{"redis.call = nil", "-ERR user_script:1: Attempt to modify a readonly table script: 2786c35ed73d3860851cf52e0b5dfbbc0bdb4803, on @user_script:1.\r\n"},
		{"print(1)", "-ERR user_script:1: Script attempted to access nonexistent global variable 'print' script: f36c28972be9cd625bfda7a61a114cb2ed6a0436, on @user_script:1.\r\n"},
		{"return loadfile", "-ERR user_script:1: Script attempted to access nonexistent global variable 'loadfile' script: a08fbe72c95f67027cc9b6349f5d335b598397b7, on @user_script:1.\r\n"},
		{"return redis.sha1hex()", "-ERR wrong number of arguments script: 3c7ce947ae74a835cc575b6ee87fb27503cb7ba4, on @user_script:1.\r\n"},
		{"return redis.setresp(4)", "-ERR RESP version must be 2 or 3. script: 921c0a48021d97dfd5884aeea41875972c7804d9, on @user_script:1.\r\n"},
		{"return redis.setresp()", "-ERR redis.setresp() requires one argument. script: 76da64e28014e7c9ad76db33c3918c53d81a3d7e, on @user_script:1.\r\n"},
		{"return redis.log(1)", "-ERR redis.log() requires two arguments or more. script: f5438245431406aa19fc387d93c6d03a0d5bcb0f, on @user_script:1.\r\n"},
		{"return redis.log('x','y')", "-ERR First argument must be a number (log level). script: 7eb2c51797b5ba4486062c3780fcd2ba1dfab7c7, on @user_script:1.\r\n"},
		{"return redis.log(9,'y')", "-ERR Invalid debug level. script: e194bc592416374d3163019b086b4cbc01c0129b, on @user_script:1.\r\n"},
		{"return redis.set_repl(99)", "-ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE. script: fae934173b6296d6836d5d5f52e192640f8897d9, on @user_script:1.\r\n"},
		{"return redis.set_repl()", "-ERR redis.set_repl() requires two arguments. script: 9504533b41060c143a92eb2f8878e77d33b6dc33, on @user_script:1.\r\n"},
		{"return redis.acl_check_cmd('nosuch')", "-ERR Invalid command passed to redis.acl_check_cmd() script: d2491587bab5149c93be0dce4426f7a06ba9e1a1, on @user_script:1.\r\n"},
		{"return redis.acl_check_cmd()", "-ERR Please specify at least one argument for this redis lib call script: 1124f33ad66e7866b4e0c1499a4c20fb5eb9c180, on @user_script:1.\r\n"},
		// The line is the one that raised, also inside a function called from another line.
		{"local function f()\n  return redis.call('nosuch')\nend\nreturn f()", "-ERR Unknown Redis command called from script script: " + SHA1Hex([]byte("local function f()\n  return redis.call('nosuch')\nend\nreturn f()")) + ", on @user_script:2.\r\n"},
		// A shebang line keeps the line numbers.
		{"#!lua\nreturn y", "-ERR user_script:2: Script attempted to access nonexistent global variable 'y' script: " + SHA1Hex([]byte("#!lua\nreturn y")) + ", on @user_script:2.\r\n"},
	} {
		c := &fakeCaller{replies: map[string]string{"LPUSH": "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"}}
		if got := eval(t, newTestEngine(), c, 2, tc.body, nil, nil); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.body, got, tc.want)
		}
	}
}

func TestCompileError(t *testing.T) {
	_, err := newTestEngine().Load([]byte("return 1 +"))
	if err == nil || !strings.HasPrefix(err.Error(), "ERR Error compiling script (new function): user_script:1: ") {
		t.Fatalf("error %v", err)
	}
	_, err = newTestEngine().Load([]byte("\n\nlocal x = = 1"))
	if err == nil || !strings.HasPrefix(err.Error(), "ERR Error compiling script (new function): user_script:3: ") {
		t.Fatalf("error %v", err)
	}
}

// pcall of redis.call returns the error's text, as Redis 7's pcall (a table before).
func TestPcallReturnsErrorText(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"local ok, e = pcall(redis.call, 'nosuch'); return {tostring(ok), type(e), e}", "*3\r\n$5\r\nfalse\r\n$6\r\nstring\r\n$44\r\nERR Unknown Redis command called from script\r\n"},
		{"local ok, e = pcall(error, {err='X y'}); return {type(e), e}", "*2\r\n$6\r\nstring\r\n$3\r\nX y\r\n"},
		{"local ok, e = pcall(error, {1}); return {type(e), e[1]}", "*2\r\n$5\r\ntable\r\n:1\r\n"},
		{"return {pcall(function() return 1, 2 end)}", "*3\r\n:1\r\n:1\r\n:2\r\n"},
		{"local ok, e = pcall(function() x = 1 end) return e", "$49\r\nuser_script:1: Attempt to modify a readonly table\r\n"},
		{"local t = redis.pcall('nosuch') local n = 0 for k in pairs(t) do n = n + 1 end return {n, t.err, tostring(t.ignore_error_stats_update)}", "*3\r\n:2\r\n$44\r\nERR Unknown Redis command called from script\r\n$4\r\ntrue\r\n"},
	} {
		if got := eval(t, newTestEngine(), &fakeCaller{}, 2, tc.body, nil, nil); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.body, got, tc.want)
		}
	}
}

// The globals of Redis 7.2's allow list are there, and nothing else.
func TestSandboxGlobals(t *testing.T) {
	e := newTestEngine()
	for _, name := range []string{"string", "table", "math", "os", "coroutine", "bit", "redis",
		"xpcall", "tostring", "setmetatable", "next", "assert", "tonumber", "rawequal",
		"collectgarbage", "getmetatable", "rawset", "pcall", "type", "_G", "select", "unpack",
		"pairs", "rawget", "loadstring", "ipairs", "_VERSION", "load", "error", "KEYS", "ARGV",
		"gcinfo"} {
		if got := eval(t, e, &fakeCaller{}, 2, "return type("+name+") ~= 'nil'", nil, nil); got != ":1\r\n" {
			t.Errorf("%s: %q", name, got)
		}
	}
	for _, name := range []string{"print", "dofile", "loadfile", "io", "debug", "require", "module", "package",
		"_printregs", "_GOPHER_LUA_VERSION", "channel", "server",
		"getfenv", "setfenv", "newproxy"} {
		want := "Script attempted to access nonexistent global variable '" + name + "'"
		if got := eval(t, e, &fakeCaller{}, 2, "return "+name, nil, nil); !strings.Contains(got, want) {
			t.Errorf("%s: %q", name, got)
		}
	}
	for _, tc := range []struct{ body, want string }{
		{"return type(os.clock())", "$6\r\nnumber\r\n"},
		{"return {type(os.time), type(os.execute), type(os.getenv), type(os.exit)}", "*4\r\n$3\r\nnil\r\n$3\r\nnil\r\n$3\r\nnil\r\n$3\r\nnil\r\n"},
		{"return _VERSION", "$7\r\nLua 5.1\r\n"},
		{"return {redis.REDIS_VERSION, redis.REDIS_VERSION_NUM}", "*2\r\n$5\r\n7.2.4\r\n:459268\r\n"},
		{"return {redis.breakpoint(), redis.debug('x'), redis.replicate_commands()}", "*1\r\n$-1\r\n"},
		{"return redis.replicate_commands()", ":1\r\n"},
		{"return {redis.REPL_ALL, redis.REPL_AOF, redis.REPL_REPLICA, redis.REPL_SLAVE, redis.REPL_NONE, redis.LOG_DEBUG, redis.LOG_VERBOSE, redis.LOG_NOTICE, redis.LOG_WARNING}", "*9\r\n:3\r\n:1\r\n:2\r\n:2\r\n:0\r\n:0\r\n:1\r\n:2\r\n:3\r\n"},
		{"return redis.sha1hex(12)", "$40\r\n7b52009b64fd0a2a49e6d8a939753077792b0554\r\n"},
		{"return redis.sha1hex('')", "$40\r\nda39a3ee5e6b4b0d3255bfef95601890afd80709\r\n"},
		{"return ('x'):upper()", "$1\r\nX\r\n"},
		{"return string.format('%d-%s', 5, 'a')", "$3\r\n5-a\r\n"},
		{"return redis.nosuch == nil", ":1\r\n"},
		{"return loadstring('return 1 + 1')()", ":2\r\n"},
		{"redis.set_repl(redis.REPL_ALL) return 1", ":1\r\n"},
		{"return redis.acl_check_cmd('get', 'k')", ":1\r\n"},
		{"return {math.random(10) >= 1, math.random() < 1}", "*2\r\n:1\r\n:1\r\n"},
	} {
		c := &fakeCaller{replies: map[string]string{"GET": "$1\r\nv\r\n"}}
		if got := eval(t, e, c, 2, tc.body, nil, nil); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.body, got, tc.want)
		}
	}
}

// Every way of writing a global or a library table is refused.
func TestSandboxReadonly(t *testing.T) {
	e := newTestEngine()
	// The texts are redis-server's: the C API's refusals have no position.
	for _, tc := range []struct{ body, want string }{
		{"rawset(_G, 'x', 1)", "-ERR Attempt to modify a readonly table script: e2c706419da183d6229a1230c3be09cc32cdeee0, on @user_script:1.\r\n"},
		{"table.insert(_G, 1)", "-ERR Attempt to modify a readonly table script: 54d6bceaddd07a2d36f3e595e5cbbdedaa9fcb10, on @user_script:1.\r\n"},
		{"setmetatable(_G, nil)", "-ERR Attempt to modify a readonly table script: 22fdd3b51da2d4bc6703d71d651cd782d8e5a35f, on @user_script:1.\r\n"},
		{"table.remove(redis)", "$-1\r\n"},
		{"table.sort(math)", "$-1\r\n"},
		{"setmetatable(string, {})", "-ERR Attempt to modify a readonly table script: f77b14463e19b108fd21de6f1ba202c4266299ca, on @user_script:1.\r\n"},
	} {
		if got := eval(t, e, &fakeCaller{}, 2, tc.body, nil, nil); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.body, got, tc.want)
		}
	}
	for _, body := range []string{
		"x = 1",
		"KEYS = {}",
		"_G.x = 1",
		"rawset(_G, 'x', 1)",
		"string.x = 1",
		"rawset(string, 'x', 1)",
		"math.random = nil",
		"redis.call = nil",
		"rawset(redis, 'call', nil)",
		"bit.band = nil",
		"os.x = 1",
		"table.insert(_G, 1)",
		"table.insert(string, 1)",
		"setmetatable(_G, nil)",
		"setmetatable(string, {})",
		"loadstring('x = 1')()",
	} {
		if got := eval(t, e, &fakeCaller{}, 2, body, nil, nil); !strings.Contains(got, "Attempt to modify a readonly table") {
			t.Errorf("%q: %q", body, got)
		}
	}
	// The string metatable is there, read-only, as in redis-server.
	for _, tc := range []struct{ body, want string }{
		{"return type(getmetatable(''))", "$5\r\ntable\r\n"},
		{"return getmetatable('').__index == string", ":1\r\n"},
		{"return getmetatable('').__index.upper('a')", "$1\r\nA\r\n"},
	} {
		if got := eval(t, e, &fakeCaller{}, 2, tc.body, nil, nil); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.body, got, tc.want)
		}
	}
	for _, body := range []string{"getmetatable('').x = 1", "getmetatable('').__index.upper = nil", "rawset(getmetatable(''), 'x', 1)"} {
		if got := eval(t, e, &fakeCaller{}, 2, body, nil, nil); !strings.Contains(got, "Attempt to modify a readonly table") {
			t.Errorf("%q: %q", body, got)
		}
	}
	for _, body := range []string{
		"return getmetatable(_G)",
		"return getmetatable(string)",
	} {
		if got := eval(t, e, &fakeCaller{}, 2, body, nil, nil); got != "$-1\r\n" {
			t.Errorf("%q: %q (a metatable is reachable)", body, got)
		}
	}
	if got := eval(t, e, &fakeCaller{}, 2, "return ('').__index", nil, nil); got != "$-1\r\n" {
		t.Errorf("the string table is reachable from a string: %q", got)
	}
}

// A state is reused: nothing a script does is seen by the next run on it.
func TestPoolReuseLeavesNothingBehind(t *testing.T) {
	e := New(Options{Version: "7.2.4", VersionNum: 0x070204, MaxIdle: 1})
	c := &fakeCaller{}
	for _, body := range []string{
		"pcall(function() x = 1 end) return 1",
		"KEYS[5] = 'extra' KEYS.name = 'n' ARGV[3] = 'z' rawset(KEYS, 'r', 1) return 1",
		"table.insert(ARGV, 'more') return 1",
		"loadstring('return 1')() return 1",
		"math.randomseed(7) return 1",
		"redis.setresp(3) return 1",
	} {
		eval(t, e, c, 2, body, []string{"k1", "k2"}, []string{"a1"})
	}
	for _, tc := range []struct{ body, want string }{
		{"return type(rawget(_G, 'x'))", "$3\r\nnil\r\n"},
		{"return {#KEYS, #ARGV, KEYS[1], KEYS[2], ARGV[1], tostring(KEYS.name), tostring(rawget(KEYS, 'r'))}", "*7\r\n:2\r\n:1\r\n$2\r\nk1\r\n$2\r\nk2\r\n$2\r\na1\r\n$3\r\nnil\r\n$3\r\nnil\r\n"},
		{"return type(redis)", "$5\r\ntable\r\n"},
	} {
		if got := eval(t, e, c, 2, tc.body, []string{"k1", "k2"}, []string{"a1"}); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.body, got, tc.want)
		}
	}
	// A run that leaves a hole, then a run with fewer keys: nothing of the old ones remains.
	eval(t, e, c, 2, "KEYS[2] = nil return 1", []string{"a", "b", "c", "d"}, nil)
	if got := eval(t, e, c, 2, "return {#KEYS, tostring(KEYS[3]), tostring(KEYS[4])}", []string{"x"}, nil); got != "*3\r\n:1\r\n$3\r\nnil\r\n$3\r\nnil\r\n" {
		t.Errorf("KEYS after a run that left a hole: %q", got)
	}
	// Fewer keys than the run before: the table is cut.
	if got := eval(t, e, c, 2, "return {#KEYS, #ARGV}", []string{"only"}, nil); got != "*2\r\n:1\r\n:0\r\n" {
		t.Errorf("KEYS/ARGV after a shorter run: %q", got)
	}
	// The protocol of redis.call starts at 2 again.
	c.protos = nil
	eval(t, e, &fakeCaller{replies: replies}, 2, "return 1", nil, nil)
	cc := &fakeCaller{replies: replies}
	eval(t, e, cc, 2, "return redis.call('GET', 'k')", nil, nil)
	if cc.protos[0] != 2 {
		t.Errorf("protocol %d after a run that chose 3", cc.protos[0])
	}
	if n := e.evalPool.live.Load(); n != 1 {
		t.Errorf("%d states built for runs one after the other, want 1", n)
	}
}

// redis.log goes to the Caller with the level and the arguments joined by spaces.
func TestLog(t *testing.T) {
	c := &fakeCaller{}
	eval(t, newTestEngine(), c, 2, "redis.log(redis.LOG_WARNING, 'a', 1, 'b') redis.log(redis.LOG_DEBUG, 'x', {}, 'y') return 1", nil, nil)
	if len(c.logs) != 2 || c.logs[0] != "3 a 1 b" || c.logs[1] != "0 x y" {
		t.Errorf("logs %q", c.logs)
	}
}

// Redis's libraries are there, read-only like the others.
func TestLibraries(t *testing.T) {
	e := newTestEngine()
	for _, tc := range []struct{ body, want string }{
		{"return cjson.encode({1, 'a'})", "$7\r\n[1,\"a\"]\r\n"},
		{"return cjson.decode('[1,2,3]')[3]", ":3\r\n"},
		{"return cmsgpack.unpack(cmsgpack.pack({1, 2}))[2]", ":2\r\n"},
		{"return struct.unpack('>H', struct.pack('>H', 300))", ":300\r\n"},
		{"return bit.tohex(255)", "$8\r\n000000ff\r\n"},
	} {
		if got := eval(t, e, &fakeCaller{}, 2, tc.body, nil, nil); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.body, got, tc.want)
		}
	}
	for _, body := range []string{"cjson.encode = nil", "struct.x = 1", "cmsgpack.pack = nil", "bit.band = nil"} {
		if got := eval(t, e, &fakeCaller{}, 2, body, nil, nil); !strings.Contains(got, readonlyMsg) {
			t.Errorf("%q: %q", body, got)
		}
	}
}

// tostring writes numbers as Lua 5.1 ("%.14g").
func TestTostringNumbers(t *testing.T) {
	e := newTestEngine()
	for _, tc := range []struct{ body, want string }{
		{"return tostring(1/3)", "0.33333333333333"},
		{"return tostring(10)", "10"},
		{"return tostring(0.1)", "0.1"},
		{"return tostring(1e15)", "1e+15"},
		{"return tostring(123456789012)", "123456789012"},
		{"return tostring(1/0)", "inf"},
		{"return tostring(-1/0)", "-inf"},
		{"return tostring(nil)", "nil"},
		{"return tostring('s')", "s"},
	} {
		want := "$" + strconv.Itoa(len(tc.want)) + "\r\n" + tc.want + "\r\n"
		if got := eval(t, e, &fakeCaller{}, 2, tc.body, nil, nil); got != want {
			t.Errorf("%q: %q, want %q", tc.body, got, want)
		}
	}
}

// A stack overflow is an error in Redis's words, with the script's position.
func TestStackOverflow(t *testing.T) {
	body := "local function f() f() end f()"
	want := "-ERR user_script:1: stack overflow script: ef5b65872cb582371ecea142590f46b7afc00f55, on @user_script:1.\r\n"
	if got := eval(t, newTestEngine(), &fakeCaller{}, 2, body, nil, nil); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// string.rep refuses a result the server could not allocate, instead of ending the process.
func TestStringRepBound(t *testing.T) {
	got := eval(t, newTestEngine(), &fakeCaller{}, 2, "return string.rep('x', 1e12)", nil, nil)
	if !strings.Contains(got, "not enough memory") {
		t.Errorf("reply %q", got)
	}
	if got := eval(t, newTestEngine(), &fakeCaller{}, 2, "return ('ab'):rep(3)", nil, nil); got != "$6\r\nababab\r\n" {
		t.Errorf("reply %q", got)
	}
}

// error() as Lua 5.1 (redis-server 7.0.15's replies).
func TestErrorFunction(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"error()", "-ERR nil script: aca90d914519fdb9825352bdc0befb59f7c8510f, on @user_script:1.\r\n"},
		{"error(12)", "-ERR user_script:1: 12 script: 531d78cb0a3022f46aa8fcca247caa61d303b321, on @user_script:1.\r\n"},
		{"error('x', 0)", "-ERR x script: a8325ab498c94f38b1b3e86862697a313b6dbe35, on @user_script:1.\r\n"},
		{"local t = setmetatable({}, {__index=function() error('in meta') end}) return t.x", "-ERR user_script:1: in meta script: bcc41d687f3886b198b508c82e69e38a8fb08321, on @user_script:1.\r\n"},
		{"return cjson.decode('{')", "-ERR user_script:1: Expected object key string but found T_END at character 2 script: 6c60bbb22c4b71b0415e4e539d6dc66cc27df21d, on @user_script:1.\r\n"},
	} {
		if got := eval(t, newTestEngine(), &fakeCaller{}, 2, tc.body, nil, nil); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.body, got, tc.want)
		}
	}
}

// math.random is Redis's lrand48: one sequence for all runs from startup, the values
// redis-server 7.0.15 answers after a restart; math.randomseed restarts it.
func TestMathRandom(t *testing.T) {
	e := newTestEngine()
	if got := eval(t, e, &fakeCaller{}, 2, "local r = math.random() return {r >= 0 and r < 1, math.random(100), math.random(5, 10)}", nil, nil); got != "*3\r\n:1\r\n:85\r\n:7\r\n" {
		t.Errorf("first values %q", got)
	}
	if got := eval(t, e, &fakeCaller{}, 2, "math.randomseed(42) return {math.random(1000), math.random(1000)}", nil, nil); got != "*2\r\n:745\r\n:343\r\n" {
		t.Errorf("after randomseed(42): %q", got)
	}
}

// pairs, next and rawget see the libraries through their read-only proxies: the names are
// redis-server's (7.2's os added to the globals).
func TestLibraryListings(t *testing.T) {
	e := newTestEngine()
	for _, tc := range []struct{ lib, want string }{
		{"string", "byte char dump find format gfind gmatch gsub len lower match rep reverse sub upper"},
		{"table", "concat foreach foreachi getn insert maxn remove setn sort"},
		{"math", "abs acos asin atan atan2 ceil cos cosh deg exp floor fmod frexp huge ldexp log log10 max min mod modf pi pow rad random randomseed sin sinh sqrt tan tanh"},
		{"os", "clock"},
		{"coroutine", "create resume running status wrap yield"},
		{"redis", "LOG_DEBUG LOG_NOTICE LOG_VERBOSE LOG_WARNING REDIS_VERSION REDIS_VERSION_NUM REPL_ALL REPL_AOF REPL_NONE REPL_REPLICA REPL_SLAVE acl_check_cmd breakpoint call debug error_reply log pcall replicate_commands set_repl setresp sha1hex status_reply"},
		{"bit", "arshift band bnot bor bswap bxor lshift rol ror rshift tobit tohex"},
		{"_G", "ARGV KEYS _G _VERSION assert bit cjson cmsgpack collectgarbage coroutine error gcinfo getmetatable ipairs load loadstring math next os pairs pcall rawequal rawget rawset redis select setmetatable string struct table tonumber tostring type unpack xpcall"},
	} {
		body := "local out = {} for k in pairs(" + tc.lib + ") do out[#out+1] = k end table.sort(out) return table.concat(out, ' ')"
		want := "$" + strconv.Itoa(len(tc.want)) + "\r\n" + tc.want + "\r\n"
		if got := eval(t, e, &fakeCaller{}, 2, body, nil, nil); got != want {
			t.Errorf("%s:\n got %q\nwant %q", tc.lib, got, want)
		}
	}
	if got := eval(t, e, &fakeCaller{}, 2, "return {type(rawget(string, 'format')), type(next(redis))}", nil, nil); got != "*2\r\n$8\r\nfunction\r\n$6\r\nstring\r\n" {
		t.Errorf("rawget/next through a proxy: %q", got)
	}
}
