package server

import (
	"net"
	"testing"
)

func TestProtectedModeDenies(t *testing.T) {
	tcp := func(ip string) net.Addr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: 5000} }
	for _, tc := range []struct {
		protected bool
		pass      string
		addr      net.Addr
		want      bool
	}{
		{true, "", tcp("192.0.2.7"), true},
		{true, "", tcp("10.1.2.3"), true},
		{true, "", tcp("fd00::2"), true},
		{true, "", tcp("127.0.0.1"), false},
		{true, "", tcp("127.9.9.9"), false},
		{true, "", tcp("::1"), false},
		{true, "", tcp("::ffff:127.0.0.1"), false},
		{true, "pw", tcp("192.0.2.7"), false},
		{false, "", tcp("192.0.2.7"), false},
		{true, "", &net.UnixAddr{Name: "/tmp/s", Net: "unix"}, false},
	} {
		if got := protectedModeDenies(tc.protected, tc.pass == "", tc.addr); got != tc.want {
			t.Errorf("protected %v, password %q, %v: %v, want %v", tc.protected, tc.pass, tc.addr, got, tc.want)
		}
	}
}
