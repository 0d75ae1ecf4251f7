package server

import (
	"net"
	"net/netip"
	"os"
	"syscall"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// Sockets are accepted with accept4 on the listener's fd, not with Listener.Accept: a client
// socket is a bare non-blocking fd served by a readiness loop, and never carries the netpoller
// registration, net.TCPConn and address objects that Accept would make (about 600 bytes per
// connection that an idle client would keep).

// acceptLoop accepts sockets on ln until the listener closes.
func (s *Server) acceptLoop(ln net.Listener) {
	defer s.wg.Done()
	sc, ok := ln.(syscall.Conn)
	if !ok {
		s.acceptConns(ln)
		return
	}
	// A listener's RawConn cannot wait for readability (its Read is EINVAL): wait on a
	// pollable duplicate of its fd instead, closed with the listener.
	file, err := dupPollable(sc)
	if err != nil {
		s.log.Warn("accepting through net.Listener", zap.Error(err))
		s.acceptConns(ln)
		return
	}
	s.mu.Lock()
	s.listenFiles = append(s.listenFiles, file)
	closing := s.closing.Load()
	s.mu.Unlock()
	if closing {
		file.Close()
		return
	}
	raw, err := file.SyscallConn()
	if err != nil {
		s.acceptConns(ln)
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
			if !s.closing.Load() {
				s.log.Warn("listener failed", zap.Error(err))
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
		if s.closing.Load() {
			return
		}
	}
}

// dupPollable returns a non-blocking duplicate of sc's fd as a pollable os.File.
func dupPollable(sc syscall.Conn) (*os.File, error) {
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil, err
	}
	dup, dupErr := -1, error(nil)
	if err := raw.Control(func(fd uintptr) { dup, dupErr = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		return nil, err
	}
	if dupErr != nil {
		return nil, dupErr
	}
	if err := unix.SetNonblock(dup, true); err != nil {
		unix.Close(dup)
		return nil, err
	}
	return os.NewFile(uintptr(dup), "listener"), nil
}

// acceptBackoff waits after a failed accept (out of file descriptors and the like) instead of
// spinning: twice as long as the last time, from 5 ms to a second.
func (s *Server) acceptBackoff(backoff *time.Duration, err error) {
	*backoff = min(max(2**backoff, 5*time.Millisecond), time.Second)
	s.logLimited(logKindAccept, zap.WarnLevel, "accept failed", nil, zap.Error(err), zap.Duration("backoff", *backoff))
	time.Sleep(*backoff)
}

// acceptConns accepts with Listener.Accept, for a listener without an fd.
func (s *Server) acceptConns(ln net.Listener) {
	var backoff time.Duration
	for {
		conn, err := ln.Accept()
		if err != nil {
			if s.closing.Load() {
				return
			}
			s.acceptBackoff(&backoff, err)
			continue
		}
		backoff = 0
		s.accept(conn)
	}
}

// acceptSocket sets up an accepted socket and registers its client, parked in its loop, or
// refuses it (maxclients, protected mode) with Redis's error.
func (s *Server) acceptSocket(fd int, sa unix.Sockaddr) {
	s.stats.connectionsReceived.Add(1)
	peer := peerFromSockaddr(sa)
	_ = unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
	if ka := s.cfg.TCPKeepAlive(); ka > 0 {
		setKeepAlive(fd, ka)
	}
	refuse := func(msg string) {
		s.stats.rejectedConnections.Add(1)
		_, _ = unix.Write(fd, []byte(msg))
		_ = unix.Close(fd)
	}
	if s.connected.Load() >= int64(s.cfg.MaxClients()) || fd >= len(s.byFD) {
		refuse("-" + errMaxClients + "\r\n")
		return
	}
	if protectedModeDenies(s.cfg.ProtectedMode(), s.cfg.RequirePass(), peer.netAddr()) {
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
		_, _ = conn.Write([]byte("-" + errMaxClients + "\r\n"))
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

// peerAddr is a socket's remote address, compact (a netip.AddrPort is 32 bytes with a pointer).
type peerAddr struct {
	ip   [16]byte
	port uint16
	v6   bool
}

func peerFromSockaddr(sa unix.Sockaddr) peerAddr {
	switch a := sa.(type) {
	case *unix.SockaddrInet4:
		var p peerAddr
		copy(p.ip[:], a.Addr[:])
		p.port = uint16(a.Port)
		return p
	case *unix.SockaddrInet6:
		return peerAddr{ip: a.Addr, port: uint16(a.Port), v6: true}
	}
	return peerAddr{}
}

func (p peerAddr) addrPort() netip.AddrPort {
	if p.v6 {
		return netip.AddrPortFrom(netip.AddrFrom16(p.ip).Unmap(), p.port)
	}
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte(p.ip[:4])), p.port)
}

// String is "ip:port", "[ip6]:port" for IPv6, as Redis prints addresses.
func (p peerAddr) String() string { return p.addrPort().String() }

func (p peerAddr) netAddr() net.Addr { return net.TCPAddrFromAddrPort(p.addrPort()) }

// localSocketAddr is the local address of socket fd, as CLIENT LIST prints it.
func localSocketAddr(fd int) string {
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return ""
	}
	return peerFromSockaddr(sa).String()
}
