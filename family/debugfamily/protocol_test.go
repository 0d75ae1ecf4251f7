package debugfamily

import "testing"

// TestProtocol: DEBUG PROTOCOL's replies in RESP2 and RESP3, byte for byte as redis-server
// 7.0.15 sent them.
func TestProtocol(t *testing.T) {
	c := newWorld(t).conn(t)
	for _, tc := range []struct{ name, resp2, resp3 string }{
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
		{"TRUE", ":1\r\n", "#t\r\n"},
		{"nosuch", "-" + errProtocolType + "\r\n", "-" + errProtocolType + "\r\n"},
	} {
		for proto, want := range map[int]string{2: tc.resp2, 3: tc.resp3} {
			c.w.SetProto(proto)
			if got := string(c.raw("DEBUG", "PROTOCOL", tc.name)); got != want {
				t.Errorf("RESP%d DEBUG PROTOCOL %s: %q, want %q", proto, tc.name, got, want)
			}
		}
	}
}
