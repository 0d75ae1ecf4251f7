package server

import (
	"net"
)

// IsLocal reports whether the client is on this machine, as Redis's islocalClient: a Unix
// socket, or a loopback address.
func (c *client) IsLocal() bool {
	if c.conn == nil {
		return c.peer.isLoopback()
	}
	if _, ok := c.conn.RemoteAddr().(*net.UnixAddr); ok {
		return true
	}
	host, _, err := net.SplitHostPort(c.remoteAddr())
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
