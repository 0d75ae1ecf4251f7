package server

import (
	"net"
	"net/netip"
	"syscall"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"

	"github.com/kvserver/kvserver/replyerr"
)

// Sockets are accepted with accept4 on the listener's fd, not with Listener.Accept: a client
// socket is a bare non-blocking fd served by a readiness loop, and never carries the netpoller
// registration, net.TCPConn and address objects that Accept would make (about 600 bytes per
// connection that an idle client would keep).

// acceptLoop accepts sockets on ln until it is closed (a rebind, or Shutdown).
func (s *Server) acceptLoop(ln *listener) {
	defer s.wg.Done()
	raw, err := ln.file.SyscallConn()
	if err != nil {
		if !ln.closed.Load() {
			s.log.Warn("listener failed", zap.String("addr", ln.addr), zap.Error(err))
		}
		return
	}
	var (
		nfd       int
		sa        unix.Sockaddr
		acceptErr error
	)
	acceptFn := func(fd uintptr) bool {
		nfd, sa, acceptErr = unix.Accept4(int(fd), unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
		return acceptErr != unix.EAGAIN
	}
	var backoff time.Duration
	for {
		if err := raw.Read(acceptFn); err != nil {
			if !ln.closed.Load() && !s.closing.Load() {
				s.log.Warn("listener failed", zap.String("addr", ln.addr), zap.Error(err))
			}
			return
		}
		switch acceptErr {
		case nil:
			backoff = 0
			s.acceptSocket(nfd, sa)
		case unix.EINTR, unix.ECONNABORTED:
		default:
			s.acceptBackoff(&backoff, acceptErr)
		}
		if s.closing.Load() || ln.closed.Load() {
			return
		}
	}
}

// acceptBackoff waits after a failed accept (out of file descriptors and the like) instead of
// spinning: twice as long as the last time, from 5 ms to a second.
func (s *Server) acceptBackoff(backoff *time.Duration, err error) {
	*backoff = min(max(2**backoff, 5*time.Millisecond), time.Second)
	s.logLimited(logKindAccept, zap.WarnLevel, "accept failed", nil, zap.Error(err), zap.Duration("backoff", *backoff))
	time.Sleep(*backoff)
}

// acceptSocket sets up an accepted socket and registers its client, parked in its loop, or
// refuses it (maxclients, protected mode) with Redis's error.
func (s *Server) acceptSocket(fd int, sa unix.Sockaddr) {
	s.stats.connectionsReceived.Add(1)
	peer := peerFromSockaddr(sa)
	if peer.family != peerUnix {
		_ = unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
		if ka := s.cfg.TCPKeepAlive(); ka > 0 {
			setKeepAlive(fd, ka)
		}
	}
	refuse := func(msg string) {
		s.stats.rejectedConnections.Add(1)
		_, _ = unix.Write(fd, []byte(msg))
		_ = unix.Close(fd)
	}
	if s.connected.Load() >= int64(s.cfg.MaxClients()) || fd >= len(s.byFD) {
		refuse("-" + replyerr.MaxClients.Error() + "\r\n")
		return
	}
	if protectedModeDenies(s.cfg.ProtectedMode(), s.defaultNoPass(), peer.netAddr()) {
		refuse(errProtectedMode)
		return
	}
	c := newSocketClient(s, fd, peer, s.nextClientID.Add(1))
	if !s.addClient(c) {
		_ = unix.Close(fd)
		return
	}
	s.byFD[fd].Store(c)
	if err := s.register(c); err != nil {
		s.log.Warn("cannot register client socket", zap.Error(err))
		c.close()
	}
}

// accept registers a connection without an fd (an in-memory pipe in tests, TLS later), served
// by a goroutine of its own, or refuses it past maxclients.
func (s *Server) accept(conn net.Conn) {
	s.stats.connectionsReceived.Add(1)
	if s.connected.Load() >= int64(s.cfg.MaxClients()) {
		s.stats.rejectedConnections.Add(1)
		_, _ = conn.Write([]byte("-" + replyerr.MaxClients.Error() + "\r\n"))
		_ = conn.Close()
		return
	}
	c := newClient(s, conn, s.nextClientID.Add(1))
	if !s.addClient(c) {
		_ = conn.Close()
		return
	}
	go c.serve()
}

// addClient enters c in the client list; false once the server is closing.
func (s *Server) addClient(c *client) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing.Load() {
		return false
	}
	s.mu.clients[c.id] = c
	s.connected.Add(1)
	s.wg.Add(1)
	s.clientsLeft.Add(1)
	return true
}

// setKeepAlive enables TCP keepalive probes after secs of silence, as Redis's anetKeepAlive:
// then every secs/3, three times.
func setKeepAlive(fd int, ka time.Duration) {
	secs := max(int(ka/time.Second), 1)
	_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_KEEPALIVE, 1)
	_ = unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_KEEPIDLE, secs)
	_ = unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_KEEPINTVL, max(secs/3, 1))
	_ = unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_KEEPCNT, 3)
}

// fdTableSize bounds the fd-indexed client table: the fd limit, which maxclients stays under,
// at most 4M entries (32 MiB of address space; only the pages of fds in use are touched).
func fdTableSize() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 1 << 16
	}
	return int(min(lim.Cur, 1<<22))
}

// clientByFD is the client whose socket is fd, or nil.
func (s *Server) clientByFD(fd int32) *client {
	if fd < 0 || int(fd) >= len(s.byFD) {
		return nil
	}
	return s.byFD[fd].Load()
}

// forgetFD removes c from the fd table before its fd is closed (and may be reused).
func (s *Server) forgetFD(c *client) {
	if int(c.fd) < len(s.byFD) {
		s.byFD[c.fd].CompareAndSwap(c, nil)
	}
}

// peerAddr is a socket's remote address, compact (a netip.AddrPort is 32 bytes with a
// pointer). A Unix-socket peer has no address: its family says so, and CLIENT LIST names it by
// the server's socket path.
type peerAddr struct {
	ip     [16]byte
	port   uint16
	family peerFamily
}

// peerFamily is a peer's address family.
type peerFamily uint8

const (
	peerIPv4 peerFamily = iota
	peerIPv6
	peerUnix
)

func peerFromSockaddr(sa unix.Sockaddr) peerAddr {
	switch a := sa.(type) {
	case *unix.SockaddrInet4:
		var p peerAddr
		copy(p.ip[:], a.Addr[:])
		p.port = uint16(a.Port)
		return p
	case *unix.SockaddrInet6:
		return peerAddr{ip: a.Addr, port: uint16(a.Port), family: peerIPv6}
	case *unix.SockaddrUnix:
		return peerAddr{family: peerUnix}
	}
	return peerAddr{}
}

func (p peerAddr) addrPort() netip.AddrPort {
	if p.family == peerIPv6 {
		return netip.AddrPortFrom(netip.AddrFrom16(p.ip).Unmap(), p.port)
	}
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte(p.ip[:4])), p.port)
}

// String is "ip:port", "[ip6]:port" for IPv6, as Redis prints addresses (a Unix-socket peer's
// name is the server's business: see (*client).remoteAddr).
func (p peerAddr) String() string { return p.addrPort().String() }

// netAddr is the peer as a net.Addr: a *net.UnixAddr for a Unix-socket peer, which protected
// mode lets in as Redis does.
func (p peerAddr) netAddr() net.Addr {
	if p.family == peerUnix {
		return &net.UnixAddr{Net: "unix"}
	}
	return net.TCPAddrFromAddrPort(p.addrPort())
}

// isLoopback reports whether the peer is on this machine: a Unix socket, 127.0.0.0/8 or ::1
// (Redis's islocalClient).
func (p peerAddr) isLoopback() bool {
	return p.family == peerUnix || p.addrPort().Addr().IsLoopback()
}

// localSocketAddr is the local address of socket fd, as CLIENT LIST prints it.
func localSocketAddr(fd int) string {
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return ""
	}
	return peerFromSockaddr(sa).String()
}
