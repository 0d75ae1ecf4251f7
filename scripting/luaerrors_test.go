package scripting

import "testing"

// Lua's runtime errors in Lua 5.1's words, naming the variable as Lua does; the texts are
// redis-server 7.0.15's (os.time: Redis 7.2 has an os table with clock only).
func TestLuaRuntimeErrorWords(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"return redis.error_reply('E1') .. 'x'", "ERR user_script:1: attempt to concatenate a table value script: ae00fdcdc2c6b167fc552c75d334cfe5d83b24aa, on @user_script:1."},
		{"local t = nil; return t.x", "ERR user_script:1: attempt to index local 't' (a nil value) script: e62b17c4a64e9b74a6f9be57909ea9e2d0e66784, on @user_script:1."},
		{"return nil .. 'x'", "ERR user_script:1: attempt to concatenate a nil value script: c1e665fd995974aa8a06dc6f5ddbac7aa6d0c7d6, on @user_script:1."},
		{"local a = nil; return a.b", "ERR user_script:1: attempt to index local 'a' (a nil value) script: a4f98b90454ae717765b45eb6f71312d37f994c6, on @user_script:1."},
		{"return os.time()", "ERR user_script:1: attempt to call field 'time' (a nil value) script: 13dea82ee9da896aebcd10f5e36f4a1eeb839b48, on @user_script:1."},
		{"return redis.nosuch()", "ERR user_script:1: attempt to call field 'nosuch' (a nil value) script: 064c0d38ec6d45fb37cd950fd37e609359986738, on @user_script:1."},
		{"local t = {} return t.a.b", "ERR user_script:1: attempt to index field 'a' (a nil value) script: 42326c67aad50f3282f524d2107872e4a105501a, on @user_script:1."},
		{"local n = nil return n + 1", "ERR user_script:1: attempt to perform arithmetic on local 'n' (a nil value) script: e3bf84332bc248f42be4d1e9a3d65f621d931945, on @user_script:1."},
		{"return 1 + {}", "ERR user_script:1: attempt to perform arithmetic on a table value script: 8ab7d53c27e34dc602fbe3688d99968c695c98e4, on @user_script:1."},
		{"local s = 'a' return s:nosuch()", "ERR user_script:1: attempt to call method 'nosuch' (a nil value) script: 4f8eb86a2cf599e0bf183587909d6ea418fa4e47, on @user_script:1."},
		{"local t = {} t.x.y = 1", "ERR user_script:1: attempt to index field 'x' (a nil value) script: a3e688812e3164b24d5a4a070bf45fd27d50fc57, on @user_script:1."},
		{"return ('x'):bad()", "ERR user_script:1: attempt to call method 'bad' (a nil value) script: 60af801ca8aafcf91936a9a510ab2ceb6df30acc, on @user_script:1."},
		{"local f = 5 f()", "ERR user_script:1: attempt to call local 'f' (a number value) script: 78858b42145e65c28dcc16cb8ea78857011caf25, on @user_script:1."},
		{"local t = {} return #t.x", "ERR user_script:1: attempt to get length of field 'x' (a nil value) script: c29ce8508978c5bbbca49b5a60fc9b756557c48f, on @user_script:1."},
		{"return -{}", "ERR user_script:1: attempt to perform arithmetic on a table value script: 95c805f07fef0f190a24e3197cab48b4e80c185b, on @user_script:1."},
		{"return {} < {}", "ERR user_script:1: attempt to compare two table values script: fe12717409b91d7c0c64c39528a098f1c423fefe, on @user_script:1."},
		{"return 1 < 'x'", "ERR user_script:1: attempt to compare number with string script: 6eb39b93a508ef218c3d802c1e5162ad876dfecf, on @user_script:1."},
		{"local up = nil local function g() return up.x end return g()", "ERR user_script:1: attempt to index upvalue 'up' (a nil value) script: b2a2384b0c46bc18a50197bbd7c765fd66bdfb64, on @user_script:1."},
		{"return 'a' .. {} .. 'b'", "ERR user_script:1: attempt to concatenate a table value script: b4165f9c12fc4da42f954830f2d9796999bb7ca3, on @user_script:1."},
		{"local t = {} local x = t.y * 2", "ERR user_script:1: attempt to perform arithmetic on field 'y' (a nil value) script: 428abbde4700ca387094167fa7477512a311cb79, on @user_script:1."},
		{"return 'a' + 1", "ERR user_script:1: attempt to perform arithmetic on a string value script: 8fd50257d5115d9d5cb9d0c337531222d8d17ec1, on @user_script:1."},
		{"local t = {}\nt.x.y = 1", "ERR user_script:2: attempt to index field 'x' (a nil value) script: 306a696328c140bf5a3451c161ece35b82410fd2, on @user_script:2."},
		{"for i = 1, nil do end", "ERR user_script:1: 'for' limit must be a number script: " + SHA1Hex([]byte("for i = 1, nil do end")) + ", on @user_script:1."},
		{"for k in pairs(5) do end", "ERR user_script:1: bad argument #1 to 'pairs' (table expected, got number) script: " + SHA1Hex([]byte("for k in pairs(5) do end")) + ", on @user_script:1."},
		{"return string.rep({}, 1)", "ERR user_script:1: bad argument #1 to 'rep' (string expected, got table) script: " + SHA1Hex([]byte("return string.rep({}, 1)")) + ", on @user_script:1."},
		{"local t = 5\nfor i = 1, #t, 2 do end", "ERR user_script:2: attempt to get length of local 't' (a number value) script: " + SHA1Hex([]byte("local t = 5\nfor i = 1, #t, 2 do end")) + ", on @user_script:2."},
	} {
		if got := eval(t, newTestEngine(), &fakeCaller{}, 2, tc.body, nil, nil); got != "-"+tc.want+"\r\n" {
			t.Errorf("%q:\n got %q\nwant %q", tc.body, got, "-"+tc.want+"\r\n")
		}
	}
}

// Compile errors in Lua 5.1's words (redis-server 7.0.15's replies).
func TestCompileErrorWords(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"return 1 +", "ERR Error compiling script (new function): user_script:1: unexpected symbol near '<eof>'"},
		{"x(", "ERR Error compiling script (new function): user_script:1: unexpected symbol near '<eof>'"},
		{"return 'unfinished", "ERR Error compiling script (new function): user_script:1: unfinished string near '<eof>'"},
		{"local x = = 1", "ERR Error compiling script (new function): user_script:1: unexpected symbol near '='"},
		{"[[abc", "ERR Error compiling script (new function): user_script:1: unfinished long string near '<eof>'"},
		{"return \"a", "ERR Error compiling script (new function): user_script:1: unfinished string near '<eof>'"},
		{"x = ", "ERR Error compiling script (new function): user_script:1: unexpected symbol near '<eof>'"},
	} {
		_, err := newTestEngine().Load([]byte(tc.body))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.body, err, tc.want)
		}
	}
}
