package scripting

import (
	"testing"

	"github.com/kvserver/kvserver/resp"
)

// The conversions both ways, RESP2 and RESP3; the expected replies are redis-server 7.0.15's
// (HELLO 2 / HELLO 3 clients), which 7.2 shares.

// replies are the canned replies of the fake server: a command's name → its RESP bytes.
var replies = map[string]string{
	"GET":      "$3\r\nbar\r\n",
	"NILGET":   "$-1\r\n",
	"NILARR":   "*-1\r\n",
	"NULL":     "_\r\n",
	"INCR":     ":42\r\n",
	"SET":      "+OK\r\n",
	"LPUSH":    "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
	"NOCODE":   "-nocode\r\n",
	"LRANGE":   "*3\r\n$1\r\na\r\n:2\r\n*1\r\n$1\r\nc\r\n",
	"HGETALL3": "%2\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nb\r\n:2\r\n",
	"HGETALL1": "%1\r\n$1\r\na\r\n$1\r\n1\r\n",
	"SMEMB3":   "~2\r\n$1\r\nx\r\n$1\r\ny\r\n",
	"DOUBLE":   ",3.5\r\n",
	"INF":      ",inf\r\n",
	"BIGNUM":   "(1234567890123456789012\r\n",
	"TRUE":     "#t\r\n",
	"FALSE":    "#f\r\n",
	"VERBATIM": "=8\r\ntxt:some\r\n",
	"ATTRIB":   "|1\r\n+key\r\n:1\r\n:7\r\n",
	"EMPTY":    "*0\r\n",
}

func TestConversions(t *testing.T) {
	for _, tc := range []struct {
		body         string
		resp2, resp3 string // the reply to a RESP2 and a RESP3 client
	}{
		// RESP → Lua, seen through type() and the values.
		{"return redis.call('GET', 'k')", "$3\r\nbar\r\n", "$3\r\nbar\r\n"},
		{"return type(redis.call('NILGET'))", "$7\r\nboolean\r\n", "$7\r\nboolean\r\n"},
		{"return redis.call('NILGET') == false", ":1\r\n", ":1\r\n"},
		{"return redis.call('NILARR') == false", ":1\r\n", ":1\r\n"},
		{"return type(redis.call('NULL'))", "$3\r\nnil\r\n", "$3\r\nnil\r\n"},
		{"return redis.call('INCR', 'n') + 1", ":43\r\n", ":43\r\n"},
		{"return type(redis.call('INCR', 'n'))", "$6\r\nnumber\r\n", "$6\r\nnumber\r\n"},
		{"return redis.call('SET', 'k', 'v')['ok']", "$2\r\nOK\r\n", "$2\r\nOK\r\n"},
		{"return redis.pcall('LPUSH', 'k', 'v')['err']", "$65\r\nWRONGTYPE Operation against a key holding the wrong kind of value\r\n", "$65\r\nWRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
		{"return redis.pcall('NOCODE')['err']", "$10\r\nERR nocode\r\n", "$10\r\nERR nocode\r\n"},
		{"return redis.pcall('LPUSH')['ignore_error_stats_update']", ":1\r\n", ":1\r\n"},
		{"local r = redis.call('LRANGE') return {#r, r[1], r[2], r[3][1]}", "*4\r\n:3\r\n$1\r\na\r\n:2\r\n$1\r\nc\r\n", "*4\r\n:3\r\n$1\r\na\r\n:2\r\n$1\r\nc\r\n"},
		{"local m = redis.call('HGETALL3')['map'] return {m.a, m.b}", "*2\r\n$1\r\n1\r\n:2\r\n", "*2\r\n$1\r\n1\r\n:2\r\n"},
		{"local s = redis.call('SMEMB3')['set'] return {s.x, s.y, s.z}", "*2\r\n:1\r\n:1\r\n", "*2\r\n:1\r\n:1\r\n"},
		{"redis.setresp(3) local s = redis.call('SMEMB3')['set'] return {s.x, s.y, s.z}", "*2\r\n:1\r\n:1\r\n", "*2\r\n#t\r\n#t\r\n"},
		{"return redis.call('DOUBLE')['double'] * 2", ":7\r\n", ":7\r\n"},
		{"return redis.call('INF')['double'] == 1/0", ":1\r\n", ":1\r\n"},
		{"return redis.call('BIGNUM')['big_number']", "$22\r\n1234567890123456789012\r\n", "$22\r\n1234567890123456789012\r\n"},
		{"return {redis.call('TRUE') == true, redis.call('FALSE') == false}", "*2\r\n:1\r\n:1\r\n", "*2\r\n:1\r\n:1\r\n"},
		{"local v = redis.call('VERBATIM')['verbatim_string'] return {v.format, v.string}", "*2\r\n$3\r\ntxt\r\n$4\r\nsome\r\n", "*2\r\n$3\r\ntxt\r\n$4\r\nsome\r\n"},
		{"return redis.call('ATTRIB')", ":7\r\n", ":7\r\n"},
		{"return #redis.call('EMPTY')", ":0\r\n", ":0\r\n"},

		// Lua → RESP.
		{"return 3.99", ":3\r\n", ":3\r\n"},
		{"return -3.99", ":-3\r\n", ":-3\r\n"},
		{"return 'x'", "$1\r\nx\r\n", "$1\r\nx\r\n"},
		{"return nil", "$-1\r\n", "_\r\n"},
		{"return true", ":1\r\n", ":1\r\n"},
		{"return false", "$-1\r\n", "_\r\n"},
		{"return {true, false}", "*2\r\n:1\r\n$-1\r\n", "*2\r\n:1\r\n_\r\n"},
		{"redis.setresp(3) return {true, false}", "*2\r\n:1\r\n:0\r\n", "*2\r\n#t\r\n#f\r\n"},
		{"return {1, 2, nil, 4}", "*2\r\n:1\r\n:2\r\n", "*2\r\n:1\r\n:2\r\n"},
		{"return {1, {2, {3}}, 'x'}", "*3\r\n:1\r\n*2\r\n:2\r\n*1\r\n:3\r\n$1\r\nx\r\n", "*3\r\n:1\r\n*2\r\n:2\r\n*1\r\n:3\r\n$1\r\nx\r\n"},
		{"return {}", "*0\r\n", "*0\r\n"},
		{"return {a=1}", "*0\r\n", "*0\r\n"},
		{"return {ok='fine'}", "+fine\r\n", "+fine\r\n"},
		{"return {ok='a\\r\\nb'}", "+a  b\r\n", "+a  b\r\n"},
		{"return {err='boom'}", "-boom\r\n", "-boom\r\n"},
		{"return {err='a\\r\\nb'}", "-a  b\r\n", "-a  b\r\n"},
		{"return {err='X y', ok='z'}", "-X y\r\n", "-X y\r\n"},
		{"return redis.status_reply('fine')", "+fine\r\n", "+fine\r\n"},
		{"return redis.error_reply('MY err')", "-MY err\r\n", "-MY err\r\n"},
		{"return redis.error_reply('-X y')", "-X y\r\n", "-X y\r\n"},
		{"return redis.error_reply('x')", "-ERR x\r\n", "-ERR x\r\n"},
		{"return redis.error_reply(1)", "-ERR wrong number or type of arguments\r\n", "-ERR wrong number or type of arguments\r\n"},
		{"return redis.status_reply()", "-ERR wrong number or type of arguments\r\n", "-ERR wrong number or type of arguments\r\n"},
		{"return {double=3.5}", "$3\r\n3.5\r\n", ",3.5\r\n"},
		{"return {double=1/0}", "$3\r\ninf\r\n", ",inf\r\n"},
		{"return {big_number='123'}", "$3\r\n123\r\n", "(123\r\n"},
		{"return {verbatim_string={format='txt', string='hi'}}", "$2\r\nhi\r\n", "=6\r\ntxt:hi\r\n"},
		{"return {map={a=1}}", "*2\r\n$1\r\na\r\n:1\r\n", "%1\r\n$1\r\na\r\n:1\r\n"},
		{"return {set={a=true}}", "*1\r\n$1\r\na\r\n", "~1\r\n$1\r\na\r\n"},
		{"redis.setresp(3) return redis.call('HGETALL1')", "*2\r\n$1\r\na\r\n$1\r\n1\r\n", "%1\r\n$1\r\na\r\n$1\r\n1\r\n"},
		{"return redis.call('DOUBLE')", "$3\r\n3.5\r\n", ",3.5\r\n"},
		{"return redis.call('NULL')", "$-1\r\n", "_\r\n"},
		{"return function() end", "$-1\r\n", "_\r\n"},
	} {
		for _, proto := range []int{2, 3} {
			want := tc.resp2
			if proto == 3 {
				want = tc.resp3
			}
			c := &fakeCaller{replies: replies}
			if got := eval(t, newTestEngine(), c, proto, tc.body, nil, nil); got != want {
				t.Errorf("RESP%d %q:\n got %q\nwant %q", proto, tc.body, got, want)
			}
		}
	}
}

// A map's pairs come out in gopher-lua's order — integer keys of the array part, then the others
// in insertion order (C Lua's would be its hash order: no client relies on it) — the same on
// every run.
func TestMapReplyOrder(t *testing.T) {
	e := newTestEngine()
	for i := 0; i < 20; i++ {
		got := eval(t, e, &fakeCaller{}, 3, "local m = {} m.b = 'x' m.a = 1 m[3] = true m.c = 2 return {map=m}", nil, nil)
		if want := "%4\r\n:3\r\n:1\r\n$1\r\nb\r\n$1\r\nx\r\n$1\r\na\r\n:1\r\n$1\r\nc\r\n:2\r\n"; got != want {
			t.Fatalf("reply %q, want %q", got, want)
		}
	}
	// A RESP3 map from a command comes back in its own order.
	c := &fakeCaller{replies: map[string]string{"HGETALL": "%3\r\n$1\r\nz\r\n:1\r\n$1\r\ny\r\n:2\r\n$1\r\nx\r\n:3\r\n"}}
	if got := eval(t, e, c, 3, "redis.setresp(3) return redis.call('HGETALL', 'h')", nil, nil); got != "%3\r\n$1\r\nz\r\n:1\r\n$1\r\ny\r\n:2\r\n$1\r\nx\r\n:3\r\n" {
		t.Errorf("map round trip %q", got)
	}
}

// Arguments to redis.call: strings as they are, integers without ".0", other numbers in
// Redis 7.2's shortest form (fpconv_dtoa; 7.0.15 wrote %.17g: 0.10000000000000001).
func TestCallArguments(t *testing.T) {
	c := &fakeCaller{replies: replies}
	eval(t, newTestEngine(), c, 2, "redis.call('SET', KEYS[1], 10, 0.1, -3, 1e20, 2^63, 1/0, -0.0, 'a\\0b') return redis.call('set', ARGV[1], 'x')", []string{"key"}, []string{"arg"})
	want := [][]string{
		{"SET", "key", "10", "0.1", "-3", "1e+20", "9223372036854776000", "inf", "0", "a\x00b"},
		{"set", "arg", "x"},
	}
	if len(c.calls) != len(want) {
		t.Fatalf("calls %q", c.calls)
	}
	for i := range want {
		if len(c.calls[i]) != len(want[i]) {
			t.Fatalf("call %d: %q, want %q", i, c.calls[i], want[i])
		}
		for j := range want[i] {
			if c.calls[i][j] != want[i][j] {
				t.Errorf("call %d arg %d: %q, want %q", i, j, c.calls[i][j], want[i][j])
			}
		}
	}
}

// redis.setresp chooses the protocol of the replies redis.call gets; a run starts at 2.
func TestSetRespProtocolOfCalls(t *testing.T) {
	e := newTestEngine()
	c := &fakeCaller{replies: replies}
	eval(t, e, c, 3, "redis.call('GET', 'a') redis.setresp(3) redis.call('GET', 'b') redis.setresp(2) return redis.call('GET', 'c')", nil, nil)
	eval(t, e, c, 3, "redis.setresp(3) return 1", nil, nil)
	eval(t, e, c, 3, "return redis.call('GET', 'd')", nil, nil)
	want := []int{2, 3, 2, 2}
	for i, p := range want {
		if c.protos[i] != p {
			t.Errorf("call %d: protocol %d, want %d", i, c.protos[i], p)
		}
	}
}

// RunOpts.Proto chooses the protocol the result is written in, whatever the writer's.
func TestRunOptsProto(t *testing.T) {
	e := newTestEngine()
	s, _ := e.Load([]byte("return {double=1.5}"))
	var w resp.Writer
	w.SetProto(2)
	e.Run(s, &fakeCaller{}, RunOpts{Proto: 3}, &w)
	if string(w.Bytes()) != ",1.5\r\n" || w.Proto() != 2 {
		t.Errorf("reply %q, writer left in RESP%d", w.Bytes(), w.Proto())
	}
}
