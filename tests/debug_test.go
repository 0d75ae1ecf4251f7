package tests

import (
	"regexp"
	"strings"
	"testing"
)

// End-to-end tests of DEBUG, run against kvserver and (KVSERVER_TARGET=redis) redis-server:
// the replies that tools and test suites rely on, byte for byte where Redis fixes them.

// TestDebugProtocol: DEBUG PROTOCOL's replies over a raw socket, exactly Redis's bytes, in
// RESP2 and RESP3; the connection is in step afterwards.
func TestDebugProtocol(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	cases := []struct{ name, resp2, resp3 string }{
		{"string", "$11\r\nHello World\r\n", "$11\r\nHello World\r\n"},
		{"integer", ":12345\r\n", ":12345\r\n"},
		{"double", "$5\r\n3.141\r\n", ",3.141\r\n"},
		{"bignum", "$37\r\n1234567999999999999999999999999999999\r\n", "(1234567999999999999999999999999999999\r\n"},
		{"null", "$-1\r\n", "_\r\n"},
		{"array", "*3\r\n:0\r\n:1\r\n:2\r\n", "*3\r\n:0\r\n:1\r\n:2\r\n"},
		{"set", "*3\r\n:0\r\n:1\r\n:2\r\n", "~3\r\n:0\r\n:1\r\n:2\r\n"},
		{"map", "*6\r\n:0\r\n:0\r\n:1\r\n:1\r\n:2\r\n:0\r\n", "%3\r\n:0\r\n#f\r\n:1\r\n#t\r\n:2\r\n#f\r\n"},
		{"attrib", "$39\r\nSome real reply following the attribute\r\n",
			"|1\r\n$14\r\nkey-popularity\r\n*2\r\n$7\r\nkey:123\r\n:90\r\n$39\r\nSome real reply following the attribute\r\n"},
		{"push", "-ERR RESP2 is not supported by this command\r\n",
			">2\r\n$16\r\nserver-cpu-usage\r\n:42\r\n$40\r\nSome real reply following the push reply\r\n"},
		{"verbatim", "$25\r\nThis is a verbatim\nstring\r\n", "=29\r\ntxt:This is a verbatim\nstring\r\n"},
		{"true", ":1\r\n", "#t\r\n"},
		{"false", ":0\r\n", "#f\r\n"},
		{"Map", "*6\r\n:0\r\n:0\r\n:1\r\n:1\r\n:2\r\n:0\r\n", "%3\r\n:0\r\n#f\r\n:1\r\n#t\r\n:2\r\n#f\r\n"},
		{"nosuch", "-ERR Wrong protocol type name. Please use one of the following: string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false\r\n",
			"-ERR Wrong protocol type name. Please use one of the following: string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false\r\n"},
	}
	for _, proto := range []string{"2", "3"} {
		c := srv.RawConn(t)
		if r := c.Do("HELLO", proto); r.Kind == '-' {
			t.Fatalf("HELLO %s: %s", proto, r.Str)
		}
		for _, tc := range cases {
			want := tc.resp2
			if proto == "3" {
				want = tc.resp3
			}
			c.Send(encodeCommand("DEBUG", "PROTOCOL", tc.name))
			if got := string(c.ReadN(len(want))); got != want {
				t.Fatalf("RESP%s DEBUG PROTOCOL %s: %q, want %q", proto, tc.name, got, want)
			}
		}
		if r := c.Do("PING"); r.Str != "PONG" {
			t.Fatalf("RESP%s: PING after the replies: %s", proto, formatReply(r, false))
		}
	}
}

// TestDebugDigest: DIGEST and DIGEST-VALUE are Redis's, bit for bit, for datasets without
// TTLs (the values redis-server printed), and do not depend on the order of the writes.
func TestDebugDigest(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	zero := strings.Repeat("0", 40)
	steps := []struct {
		cmd  []string
		want string
	}{
		{[]string{"DEBUG", "DIGEST"}, zero + "\n"},
		{[]string{"DEBUG", "POPULATE", "3"}, "OK\n"},
		{[]string{"DEBUG", "DIGEST"}, "f25db52166a7d712fb7362fd197165342e2b7442\n"},
		{[]string{"DEBUG", "DIGEST-VALUE", "key:0", "key:1", "nokey"},
			"1) c15f34c747bf411833c10208c03e1da1bb7da7cf\n2) ec4b7bec343ec862c8bd5dd8feab05ec1e9e6703\n3) " + zero + "\n"},
		{[]string{"DEBUG", "DIGEST-VALUE"}, "(empty array)\n"},
		{[]string{"SET", "n", "12345"}, "OK\n"},
		{[]string{"SELECT", "3"}, "OK\n"},
		{[]string{"SET", "y", "hello"}, "OK\n"},
		{[]string{"SET", "x", "1"}, "OK\n"},
		{[]string{"DEBUG", "DIGEST"}, "04971759acbfa56c8fcda136265155666ec678a6\n"},
		{[]string{"DEBUG", "DIGEST-VALUE", "n", "x", "y"},
			"1) " + zero + "\n2) b4fc66738120fba0b5aa500ab5c2bf89cea1c5da\n3) 36b23a1456b2dce2c3ed252c456761301dba8060\n"},
		{[]string{"DEBUG", "DIGEST", "x"}, "(error) ERR unknown subcommand or wrong number of arguments for 'DIGEST'. Try DEBUG HELP.\n"},
	}
	for _, s := range steps {
		if got := formatReply(c.Do(s.cmd...), false); got != s.want {
			t.Errorf("%q: %q, want %q", s.cmd, got, s.want)
		}
	}
	// The same dataset written in another order on a second server.
	c2 := startServer(t).RawConn(t)
	for _, cmd := range [][]string{{"SELECT", "3"}, {"SET", "x", "1"}, {"SET", "y", "hello"}, {"SELECT", "0"},
		{"SET", "n", "12345"}, {"SET", "key:2", "value:2"}, {"SET", "key:0", "value:0"}, {"SET", "key:1", "value:1"}} {
		c2.Do(cmd...)
	}
	if got := c2.Do("DEBUG", "DIGEST").Str; got != "04971759acbfa56c8fcda136265155666ec678a6" {
		t.Errorf("the dataset written in another order: %s", got)
	}
}

// TestDebugDigestTTL: a TTL, and a change of it, changes the digest. Redis mixes in only
// whether a key has a TTL (tests/differences_test.go).
func TestDebugDigestTTL(t *testing.T) {
	t.Parallel()
	c := startServer(t).RawConn(t)
	c.Do("SET", "k", "v")
	plain := c.Do("DEBUG", "DIGEST").Str
	c.Do("EXPIRE", "k", "1000")
	withTTL := c.Do("DEBUG", "DIGEST").Str
	c.Do("EXPIRE", "k", "2000")
	otherTTL := c.Do("DEBUG", "DIGEST").Str
	c.Do("PERSIST", "k")
	if plain == withTTL {
		t.Errorf("a TTL does not change the digest: %s", plain)
	}
	if got := c.Do("DEBUG", "DIGEST").Str; got != plain {
		t.Errorf("after PERSIST: %s, before the TTL %s", got, plain)
	}
	if digestMixesTTLValue() == (withTTL == otherTTL) {
		t.Errorf("another TTL: digest %s, with the first TTL %s", otherTTL, withTTL)
	}
}

// TestDebugPopulate: Redis's keys and values, sizes, errors; existing keys left alone.
func TestDebugPopulate(t *testing.T) {
	t.Parallel()
	c := startServer(t).RawConn(t)
	for _, s := range []struct {
		cmd  []string
		want string
	}{
		{[]string{"SET", "key:1", "mine"}, "OK\n"},
		{[]string{"DEBUG", "POPULATE", "3"}, "OK\n"},
		{[]string{"MGET", "key:0", "key:1", "key:2", "key:3"}, "1) \"value:0\"\n2) \"mine\"\n3) \"value:2\"\n4) (nil)\n"},
		{[]string{"DEBUG", "POPULATE", "2", "foo", "10"}, "OK\n"},
		{[]string{"GET", "foo:1"}, "\"value:1\\x00\\x00\\x00\"\n"},
		{[]string{"DEBUG", "POPULATE", "2", "bar", "3"}, "OK\n"},
		{[]string{"GET", "bar:1"}, "\"val\"\n"},
		{[]string{"DBSIZE"}, "(integer) 7\n"},
		{[]string{"DEBUG", "POPULATE", "0"}, "OK\n"},
		{[]string{"DEBUG", "POPULATE", "-1"}, "(error) ERR value is out of range, must be positive\n"},
		{[]string{"DEBUG", "POPULATE", "x"}, "(error) ERR value is out of range, must be positive\n"},
		{[]string{"DEBUG", "POPULATE", "1", "p", "-1"}, "(error) ERR value is out of range, must be positive\n"},
		{[]string{"DEBUG", "POPULATE"}, "(error) ERR unknown subcommand or wrong number of arguments for 'POPULATE'. Try DEBUG HELP.\n"},
		{[]string{"DEBUG", "POPULATE", "1", "p", "1", "1"}, "(error) ERR unknown subcommand or wrong number of arguments for 'POPULATE'. Try DEBUG HELP.\n"},
		{[]string{"DEBUG", "POPULATE", "10000"}, "OK\n"},
		{[]string{"DBSIZE"}, "(integer) 10004\n"},
		{[]string{"GET", "key:9999"}, "\"value:9999\"\n"},
	} {
		if got := formatReply(c.Do(s.cmd...), false); got != s.want {
			t.Errorf("%q: %q, want %q", s.cmd, got, s.want)
		}
	}
}

// TestDebugObject: Redis's status line, and its encodings and lengths for a few strings.
func TestDebugObject(t *testing.T) {
	t.Parallel()
	c := startServer(t).RawConn(t)
	line := regexp.MustCompile(`^Value at:0x[0-9a-f]+ refcount:(\d+) encoding:(\w+) serializedlength:(\d+) lru:\d+ lru_seconds_idle:\d+$`)
	c.Do("SET", "s", "hello")
	c.Do("SET", "i", "123")
	c.Do("SET", "big", strings.Repeat("a", 200))
	for key, want := range map[string][3]string{
		"s":   {"1", "embstr", "6"},
		"i":   {"2147483647", "int", "2"},
		"big": {"1", "raw", "13"},
	} {
		r := c.Do("DEBUG", "OBJECT", key)
		m := line.FindStringSubmatch(r.Str)
		if r.Kind != '+' || m == nil || [3]string{m[1], m[2], m[3]} != want {
			t.Errorf("DEBUG OBJECT %s: %s, want refcount, encoding, length %v", key, formatReply(r, false), want)
		}
	}
	if got := formatReply(c.Do("DEBUG", "OBJECT", "nokey"), false); got != "(error) ERR no such key\n" {
		t.Errorf("DEBUG OBJECT nokey: %s", got)
	}
}

// TestDebugHelp: every subcommand kvserver has is in the help with Redis's lines, in Redis's
// order.
func TestDebugHelp(t *testing.T) {
	t.Parallel()
	r := startServer(t).RawConn(t).Do("DEBUG", "HELP")
	var lines []string
	for _, e := range r.Elems {
		lines = append(lines, e.Str)
	}
	help := strings.Join(lines, "\n")
	pos := 0
	for _, want := range []string{
		"DEBUG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
		"CHANGE-REPL-ID\n    Change the replication IDs of the instance.",
		"DIGEST\n    Output a hex signature representing the current DB content.",
		"DIGEST-VALUE <key> [<key> ...]\n    Output a hex signature of the values of all the specified keys.",
		"LOG <message>\n    Write <message> to the server log.",
		"OBJECT <key>\n    Show low level info about `key` and associated value.",
		"POPULATE <count> [<prefix>] [<size>]\n    Create <count> string keys named key:<num>.",
		"PROTOCOL <type>\n    Reply with a test value of the specified type.",
		"SET-ACTIVE-EXPIRE <0|1>\n",
		"SLEEP <seconds>\n    Stop the server for <seconds>. Decimals allowed.",
		"PAUSE-CRON <0|1>\n    Stop periodic cron job processing.",
		"HELP\n    Prints this help.",
	} {
		i := strings.Index(help[pos:], want)
		if i < 0 {
			t.Fatalf("DEBUG HELP lacks %q after position %d:\n%s", want, pos, help)
		}
		pos += i + len(want)
	}
}

// TestDebugSubcommands: the other subcommands' replies and argument counts.
func TestDebugSubcommands(t *testing.T) {
	t.Parallel()
	c := startServer(t).RawConn(t)
	for _, s := range []struct {
		cmd  []string
		want string
	}{
		{[]string{"DEBUG", "CHANGE-REPL-ID"}, "OK\n"},
		{[]string{"DEBUG", "CHANGE-REPL-ID", "x"}, "(error) ERR unknown subcommand or wrong number of arguments for 'CHANGE-REPL-ID'. Try DEBUG HELP.\n"},
		{[]string{"DEBUG", "SLEEP", "0"}, "OK\n"},
		{[]string{"DEBUG", "SLEEP", "0.01"}, "OK\n"},
		{[]string{"DEBUG", "SLEEP", "abc"}, "OK\n"},
		{[]string{"DEBUG", "SET-ACTIVE-EXPIRE", "0"}, "OK\n"},
		{[]string{"DEBUG", "SET-ACTIVE-EXPIRE", "1"}, "OK\n"},
		{[]string{"DEBUG", "LOG", "from the end-to-end tests"}, "OK\n"},
		{[]string{"DEBUG", "PROTOCOL"}, "(error) ERR unknown subcommand or wrong number of arguments for 'PROTOCOL'. Try DEBUG HELP.\n"},
		{[]string{"DEBUG", "NOSUCH"}, "(error) ERR unknown subcommand or wrong number of arguments for 'NOSUCH'. Try DEBUG HELP.\n"},
		{[]string{"DEBUG"}, "(error) ERR wrong number of arguments for 'debug' command\n"},
	} {
		if got := formatReply(c.Do(s.cmd...), false); got != s.want {
			t.Errorf("%q: %q, want %q", s.cmd, got, s.want)
		}
	}
}
