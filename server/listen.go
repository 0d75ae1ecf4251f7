package server

import (
	"context"
	"errors"
	"fmt"
	"github.com/kvserver/kvserver/logging"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// The listening sockets, as Redis 7.2 makes them (listenToPort, anetTcpServer,
// anetUnixServer):
//   - every bind address is bound exactly as written: one with a ':' is IPv6 and its socket is
//     IPV6_V6ONLY (so "0.0.0.0 ::" binds both, and 0.0.0.0 is not also [::]); "*" is every
//     IPv4 address and "::*" every IPv6 one; a name is resolved in the address's family;
//   - a leading '-' marks an address that is skipped when it does not exist on this machine
//     (EADDRNOTAVAIL); any address is skipped when the system has no such protocol (no IPv6);
//     any other failure fails the whole set;
//   - port 0 means no TCP listener; unixsocket adds a Unix socket, whose stale file is removed
//     first, chmod'ed to unixsocketperm when non-zero, and removed again at shutdown;
//   - a server listening nowhere does not start.
// CONFIG SET port and bind listen again at run time (watchListeners); clients stay connected.

// Errors of CONFIG SET port and bind, Redis's texts (config.c updatePort, updateBindAddr).
const (
	errListenPort = "Unable to listen on this port. Check server logs."
	errListenBind = "Failed to bind to specified addresses."
)

// errListenNowhere is initServer's refusal to run without a listener.
var errListenNowhere = errors.New("Configured to not listen anywhere, exiting.")

// listener is one listening socket: a TCP bind address at a port, or the Unix socket.
type listener struct {
	file *os.File // the non-blocking listening fd, registered with the netpoller
	bind string   // the bind address as written, without '-' ("" for the Unix socket)
	port int      // 0 for the Unix socket
	addr string   // what it is bound to, "127.0.0.1:6379", "[::1]:6379", or the socket's path
	// closed is set before the file is closed, so that its accept loop ends without a warning.
	closed atomic.Bool
}

// listenState is the set of listeners, changed by Start, CONFIG SET port/bind and Shutdown.
type listenState struct {
	mu struct {
		sync.Mutex
		tcp      []*listener // in bind order
		unixSock *listener   // nil without unixsocket
		shutdown bool        // Shutdown closed them all: nothing listens again
	}
	unixPath string // unixsocket as the server started (immutable), for CLIENT LIST
}

// close ends the listener: its accept loop returns.
func (ln *listener) close() {
	ln.closed.Store(true)
	_ = ln.file.Close()
}

// listenBacklog is the listen(2) backlog: the kernel truncates it to net.core.somaxconn, so
// the listeners use the system's backlog, as the support table says of tcp-backlog (inert).
const listenBacklog = 1<<16 - 1

// listenToPort binds every address of bind at port, by Redis's rules (above), and returns the
// listeners in bind's order. An address and port that one of old already listens on keeps that
// listener (CONFIG SET bind keeps the addresses that stay); unused is the rest of old. On
// failure it closes what it opened, and unused is still the listeners old has beyond bind.
func (s *Server) listenToPort(port int, bind []string, old []*listener) (lns, unused []*listener, err error) {
	taken := make([]bool, len(old))
	reuse := make([]*listener, len(bind))
	for i, addr := range bind {
		addr = strings.TrimPrefix(addr, "-")
		for j, ln := range old {
			if !taken[j] && ln.bind == addr && ln.port == port {
				taken[j], reuse[i] = true, ln
				break
			}
		}
	}
	for j, ln := range old {
		if !taken[j] {
			unused = append(unused, ln)
		}
	}
	var opened []*listener
	for i, addr := range bind {
		if reuse[i] != nil {
			lns = append(lns, reuse[i])
			continue
		}
		optional := strings.HasPrefix(addr, "-")
		addr = strings.TrimPrefix(addr, "-")
		ln, err := listenTCP(addr, port, listenBacklog)
		if err == nil {
			lns = append(lns, ln)
			opened = append(opened, ln)
			continue
		}
		s.log.Warn(fmt.Sprintf("Warning: Could not create server TCP listening socket %s:%d: %s", addr, port, logging.Strerror(err)))
		var errno unix.Errno
		errors.As(err, &errno)
		if errno == unix.EADDRNOTAVAIL && optional {
			continue
		}
		switch errno {
		case unix.ENOPROTOOPT, unix.EPROTONOSUPPORT, unix.ESOCKTNOSUPPORT, unix.EPFNOSUPPORT, unix.EAFNOSUPPORT:
			continue // the system has no such protocol (an IPv6 address without IPv6)
		}
		for _, ln := range opened {
			ln.close()
		}
		return nil, unused, fmt.Errorf("%s:%d: %w", addr, port, err)
	}
	return lns, unused, nil
}

func containsListener(list []*listener, ln *listener) bool {
	for _, l := range list {
		if l == ln {
			return true
		}
	}
	return false
}

// listenTCP binds one address as Redis's anetTcpServer / anetTcp6Server: IPv6 when it has a
// ':', with IPV6_V6ONLY; "*" and "::*" the family's any address; SO_REUSEADDR.
func listenTCP(addr string, port, backlog int) (*listener, error) {
	family := unix.AF_INET
	if strings.Contains(addr, ":") {
		family = unix.AF_INET6
	}
	ip, err := resolveBind(addr, family)
	if err != nil {
		return nil, err
	}
	fd, err := unix.Socket(family, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("socket: %w", err)
	}
	var sa unix.Sockaddr
	if family == unix.AF_INET6 {
		if err := unix.SetsockoptInt(fd, unix.IPPROTO_IPV6, unix.IPV6_V6ONLY, 1); err != nil {
			unix.Close(fd)
			return nil, fmt.Errorf("setsockopt IPV6_V6ONLY: %w", err)
		}
		sa6 := &unix.SockaddrInet6{Port: port, Addr: ip.As16()}
		if z := ip.Zone(); z != "" {
			if ifi, err := net.InterfaceByName(z); err == nil {
				sa6.ZoneId = uint32(ifi.Index)
			} else if n, err := strconv.Atoi(z); err == nil {
				sa6.ZoneId = uint32(n)
			}
		}
		sa = sa6
	} else {
		sa = &unix.SockaddrInet4{Port: port, Addr: ip.As4()}
	}
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("setsockopt SO_REUSEADDR: %w", err)
	}
	if err := unix.Bind(fd, sa); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("bind: %w", err)
	}
	if err := unix.Listen(fd, backlog); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("listen: %w", err)
	}
	bound := netip.AddrPortFrom(ip, uint16(port)).String()
	if got, err := unix.Getsockname(fd); err == nil {
		bound = peerFromSockaddr(got).String() // the port too, when port is the kernel's choice
	}
	return &listener{file: os.NewFile(uintptr(fd), "listener "+bound), bind: addr, port: port, addr: bound}, nil
}

// resolveBind is the address bind names in family: "*" (IPv4) and "::*" (IPv6) are any
// address, an IP is itself, and a name is looked up (getaddrinfo's first answer).
func resolveBind(addr string, family int) (netip.Addr, error) {
	switch {
	case addr == "*" && family == unix.AF_INET:
		return netip.IPv4Unspecified(), nil
	case addr == "::*" || (addr == "*" && family == unix.AF_INET6):
		return netip.IPv6Unspecified(), nil
	}
	if ip, err := netip.ParseAddr(addr); err == nil {
		if family == unix.AF_INET6 {
			if ip.Is4() {
				return netip.Addr{}, fmt.Errorf("%s: %w", addr, unix.EAFNOSUPPORT)
			}
			return ip, nil
		}
		if !ip.Is4() {
			return netip.Addr{}, fmt.Errorf("%s: %w", addr, unix.EAFNOSUPPORT)
		}
		return ip, nil
	}
	network := "ip4"
	if family == unix.AF_INET6 {
		network = "ip6"
	}
	ips, err := net.DefaultResolver.LookupNetIP(context.Background(), network, addr)
	if err != nil || len(ips) == 0 {
		return netip.Addr{}, fmt.Errorf("cannot resolve %q: %v", addr, err)
	}
	if family == unix.AF_INET {
		return ips[0].Unmap(), nil
	}
	return ips[0], nil
}

// listenUnix makes the Unix socket as Redis's anetUnixServer: a stale socket file at path is
// removed first, and the socket is chmod'ed to perm when perm is not 0.
func listenUnix(path string, perm uint32, backlog int) (*listener, error) {
	var sa unix.RawSockaddrUnix
	if len(path) > len(sa.Path)-1 {
		return nil, fmt.Errorf("unix socket path too long (%d), must be under %d", len(path), len(sa.Path))
	}
	// Redis unlinks whatever is at the path; only a socket is removed here, so that a
	// mistyped path cannot delete a file (bind then fails: address already in use).
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSocket != 0 {
		_ = os.Remove(path)
	}
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("socket: %w", err)
	}
	if err := unix.Bind(fd, &unix.SockaddrUnix{Name: path}); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("bind: %w", err)
	}
	if perm != 0 {
		if err := unix.Chmod(path, perm); err != nil {
			unix.Close(fd)
			return nil, fmt.Errorf("chmod: %w", err)
		}
	}
	if err := unix.Listen(fd, backlog); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("listen: %w", err)
	}
	return &listener{file: os.NewFile(uintptr(fd), "listener "+path), addr: path}, nil
}

// unixSocketConfig is unixsocket and unixsocketperm.
func (s *Server) unixSocketConfig() (path string, perm uint32) {
	path, _ = s.cfg.Value("unixsocket")
	v, _ := s.cfg.Value("unixsocketperm")
	p, _ := strconv.ParseUint(v, 8, 32)
	return path, uint32(p)
}

// openListeners makes the listeners of the configuration at start-up (initListeners), or
// fails as Redis's initServer does, with its log lines' texts.
func (s *Server) openListeners() error {
	st := &s.listen
	st.mu.Lock()
	defer st.mu.Unlock()
	if port := s.cfg.Port(); port != 0 {
		tcp, _, err := s.listenToPort(port, s.cfg.Bind(), nil)
		if err != nil {
			return fmt.Errorf("Failed listening on port %d (TCP), aborting: %w", port, err)
		}
		st.mu.tcp = tcp
	}
	path, perm := s.unixSocketConfig()
	if path != "" {
		ln, err := listenUnix(path, perm, listenBacklog)
		if err != nil {
			s.closeListenersLocked()
			return fmt.Errorf("Opening Unix socket: %w", err)
		}
		st.mu.unixSock = ln
		st.unixPath = path
	}
	if len(st.mu.tcp) == 0 && st.mu.unixSock == nil {
		return errListenNowhere
	}
	return nil
}

// startAcceptLoopsLocked starts an accept loop on each of lns. listen.mu is held.
func (s *Server) startAcceptLoopsLocked(lns []*listener) {
	for _, ln := range lns {
		s.wg.Add(1)
		go s.acceptLoop(ln)
	}
}

// watchListeners makes CONFIG SET port and bind listen again. Each applier reads both values
// (both are visible when either runs), so a CONFIG SET of the two listens once; an error puts
// the old values back and the rollback calls the appliers again with them.
func (s *Server) watchListeners() {
	s.cfg.OnApply("port", func(string) error {
		if err := s.changeListenPort(); err != nil {
			return errors.New(errListenPort)
		}
		return nil
	})
	s.cfg.OnApply("bind", func(string) error {
		if err := s.changeListenPort(); err != nil {
			s.log.Warn("Failed to bind")
			return errors.New(errListenBind)
		}
		return nil
	})
}

// changeListenPort makes the TCP listeners those of the current port and bind: it listens on
// the new addresses first and only then closes the old ones (an address in both keeps its
// listener), so that a failure leaves the server as it was. When a new address is taken by
// one of our own listeners at the same port (127.0.0.1:p to 0.0.0.0:p), it does as Redis:
// closes the old ones, then listens. Connected clients are never touched.
func (s *Server) changeListenPort() error {
	st := &s.listen
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.mu.shutdown {
		return nil
	}
	old := st.mu.tcp
	var bind []string
	port := s.cfg.Port()
	if port != 0 {
		bind = s.cfg.Bind()
	}
	lns, unused, err := s.listenToPort(port, bind, old)
	if err != nil && errors.Is(err, unix.EADDRINUSE) && samePort(unused, port) {
		for _, ln := range unused {
			ln.close()
		}
		var left []*listener
		for _, ln := range old {
			if !containsListener(unused, ln) {
				left = append(left, ln)
			}
		}
		st.mu.tcp = left // if this fails too, the rollback listens on the old addresses again
		lns, unused, err = s.listenToPort(port, bind, left)
	}
	if err != nil {
		return err
	}
	for _, ln := range unused {
		ln.close()
	}
	var fresh []*listener
	for _, ln := range lns {
		if !containsListener(old, ln) {
			fresh = append(fresh, ln)
		}
	}
	st.mu.tcp = lns
	s.startAcceptLoopsLocked(fresh)
	if len(fresh) > 0 || len(unused) > 0 {
		s.log.Info("listening", zap.Strings("addresses", s.addrsLocked()))
	}
	return nil
}

// samePort reports whether one of lns is at port.
func samePort(lns []*listener, port int) bool {
	for _, ln := range lns {
		if ln.port == port {
			return true
		}
	}
	return false
}

// closeListeners closes every listener at this moment and removes the Unix socket's file;
// nothing listens again (Shutdown).
func (s *Server) closeListeners() {
	s.listen.mu.Lock()
	defer s.listen.mu.Unlock()
	s.listen.mu.shutdown = true
	s.closeListenersLocked()
}

func (s *Server) closeListenersLocked() {
	st := &s.listen
	for _, ln := range st.mu.tcp {
		ln.close()
	}
	st.mu.tcp = nil
	if ln := st.mu.unixSock; ln != nil {
		ln.close()
		s.log.Info("Removing the unix socket file.")
		if err := os.Remove(ln.addr); err != nil {
			s.log.Warn("Error removing the unix socket file: " + logging.Strerror(err))
		}
		st.mu.unixSock = nil
	}
}

// Addrs returns the addresses listened on now: TCP ones as "ip:port", then the Unix socket's
// path.
func (s *Server) Addrs() []string {
	s.listen.mu.Lock()
	defer s.listen.mu.Unlock()
	return s.addrsLocked()
}

func (s *Server) addrsLocked() []string {
	var out []string
	for _, ln := range s.listen.mu.tcp {
		out = append(out, ln.addr)
	}
	if ln := s.listen.mu.unixSock; ln != nil {
		out = append(out, ln.addr)
	}
	return out
}
