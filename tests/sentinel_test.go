package tests

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Debian's redis-sentinel (installed by scripts/deps.sh) monitoring the server as a master.
// Sentinel opens two links to a master: a command link (CLIENT SETNAME sentinel-<id>-cmd, then
// PING every second, INFO every ten, PUBLISH of its hello on __sentinel__:hello every two) and
// a pub/sub link (CLIENT SETNAME sentinel-<id>-pubsub, SUBSCRIBE __sentinel__:hello). Sentinels
// discover one another only through those hellos, relayed by the master's pub/sub. Without
// SUBSCRIBE, sentinel drops the pub/sub link and reconnects it every second, and reports the
// master as "master,disconnected".

// sentinelBin is Debian's redis-sentinel.
const sentinelBin = "/usr/bin/redis-sentinel"

// sentinelWait bounds each wait for a sentinel state; hellos go out every 2 s.
const sentinelWait = 60 * time.Second

// TestSentinelMonitorsServer: two sentinels monitoring the server reach flags "master", find
// each other through their hellos on the server's pub/sub (num-other-sentinels 1), and then
// keep their four links: over several hello rounds total_connections_received stays flat and
// CLIENT LIST shows the same sentinel connections with the same ids.
func TestSentinelMonitorsServer(t *testing.T) {
	if _, err := os.Stat(sentinelBin); err != nil {
		t.Skipf("%s: %v (install redis-sentinel: scripts/deps.sh)", sentinelBin, err)
	}
	t.Parallel()
	s := startServer(t)
	skipWithoutCommand(t, s, "SUBSCRIBE", "probe")

	// Our own subscriber sees every sentinel's hello as the sentinels' pub/sub links do.
	sub := s.RawConn(t)
	if r := sub.Do("SUBSCRIBE", "__sentinel__:hello"); r.Kind != '*' || len(r.Elems) != 3 || r.Elems[0].Str != "subscribe" {
		t.Fatalf("SUBSCRIBE __sentinel__:hello: %s", formatReply(r, false))
	}
	hellos := readMessages(sub)

	sentinels := []*sentinelProc{startSentinel(t, s.Port), startSentinel(t, s.Port)}
	heard := map[int]int{} // hellos received, by the sentinel port they announce
	drain := func() {
		for {
			select {
			case m, ok := <-hellos:
				if !ok {
					t.Fatal("subscriber connection closed")
				}
				heard[checkHello(t, m, s.Port)]++
			default:
				return
			}
		}
	}
	// Steady: each sentinel sees the master with flags exactly "master", has sent a hello, and
	// knows the other from its hellos alone, linked to it (flags "sentinel", not
	// "sentinel,disconnected").
	steady := func() bool {
		drain()
		for i, sen := range sentinels {
			m := sen.master(t)
			if m["flags"] != "master" || m["num-other-sentinels"] != "1" || heard[sen.Port] == 0 {
				return false
			}
			if peer := sen.peer(t); peer["runid"] != sentinels[1-i].id || peer["flags"] != "sentinel" {
				return false
			}
		}
		return true
	}
	waitSentinels(t, sentinels, "sentinels reach flags master and find each other", steady)
	for _, sen := range sentinels {
		m := sen.master(t)
		if m["ip"] != "127.0.0.1" || m["port"] != strconv.Itoa(s.Port) || m["role-reported"] != "master" {
			t.Errorf("sentinel %d: SENTINEL MASTER mymaster: %v", sen.Port, m)
		}
		if want := s.Info(t, "server")["run_id"]; m["runid"] != want {
			t.Errorf("sentinel %d: runid %q, want the server's run_id %q", sen.Port, m["runid"], want)
		}
	}

	// Together they can authorize a failover.
	for i, sen := range sentinels {
		if peer := sen.peer(t); peer["port"] != strconv.Itoa(sentinels[1-i].Port) {
			t.Errorf("sentinel %d: SENTINEL SENTINELS mymaster: %v, want the sentinel on port %d", sen.Port, peer, sentinels[1-i].Port)
		}
		if r := sen.conn.Do("SENTINEL", "CKQUORUM", "mymaster"); !strings.HasPrefix(r.Str, "OK 2 usable Sentinels") {
			t.Errorf("sentinel %d: SENTINEL CKQUORUM mymaster: %s", sen.Port, formatReply(r, false))
		}
	}

	// From here on no connection may come or go.
	admin := s.RawConn(t)
	before := statField(t, admin, "total_connections_received")
	links := sentinelLinks(t, admin, sentinels)

	// Three more hellos from each sentinel: at least four seconds of PINGs, PUBLISHes and
	// hellos relayed to the other sentinel.
	seen := map[int]int{}
	for port, n := range heard {
		seen[port] = n
	}
	waitSentinels(t, sentinels, "three more hello rounds", func() bool {
		drain()
		for _, sen := range sentinels {
			if heard[sen.Port] < seen[sen.Port]+3 {
				return false
			}
		}
		return true
	})

	if after := statField(t, admin, "total_connections_received"); after != before {
		t.Errorf("total_connections_received went from %d to %d over three hello rounds: sentinel reconnected", before, after)
	}
	if again := sentinelLinks(t, admin, sentinels); fmt.Sprint(again) != fmt.Sprint(links) {
		t.Errorf("sentinel connections changed:\nbefore %v\nafter  %v", links, again)
	}
	t.Logf("hellos heard by sentinel port %v; total_connections_received %d; %v", heard, before, links)
	for _, sen := range sentinels {
		m := sen.master(t)
		if m["flags"] != "master" || m["num-other-sentinels"] != "1" {
			t.Errorf("sentinel %d after three hello rounds: flags %q, num-other-sentinels %q", sen.Port, m["flags"], m["num-other-sentinels"])
		}
	}
}

// sentinelProc is a redis-sentinel process monitoring one master as "mymaster"; server's
// readiness check (PING, then INFO's process_id) applies to it unchanged.
type sentinelProc struct {
	*server
	conn *rawConn // the test's connection to the sentinel
	id   string   // SENTINEL MYID
}

// startSentinel starts redis-sentinel on a free loopback port with a config in t.TempDir()
// monitoring 127.0.0.1:masterPort with quorum 1, and waits until it answers PING.
func startSentinel(t *testing.T, masterPort int) *sentinelProc {
	t.Helper()
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		s, err := tryStartSentinel(t, masterPort)
		if err == nil {
			sen := &sentinelProc{server: s, conn: s.RawConn(t)}
			sen.id = sen.conn.Do("SENTINEL", "MYID").Str
			if len(sen.id) != 40 {
				t.Fatalf("SENTINEL MYID: %q", sen.id)
			}
			return sen
		}
		lastErr = err
		if !strings.Contains(strings.ToLower(err.Error()), "address already in use") {
			break
		}
	}
	t.Fatalf("starting %s: %v", sentinelBin, lastErr)
	return nil
}

func tryStartSentinel(t *testing.T, masterPort int) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "sentinel.conf")
	// Sentinel rewrites its config file (its id, the other sentinels), so it lives in dir. It
	// PINGs every second whatever down-after-milliseconds is, but drops a link that has not
	// answered for half of it: 10 s keeps a loaded machine's stall from looking like churn.
	text := fmt.Sprintf("port %d\nbind 127.0.0.1\ndaemonize no\nlogfile \"\"\ndir %s\n"+
		"sentinel monitor mymaster 127.0.0.1 %d 1\nsentinel down-after-milliseconds mymaster 10000\n",
		port, dir, masterPort)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		return nil, err
	}
	s := &server{
		Port: port,
		Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		t:    t,
		out:  &syncBuffer{},
		done: make(chan struct{}),
	}
	s.cmd = exec.Command(sentinelBin, conf)
	s.cmd.Stdout = s.out
	s.cmd.Stderr = s.out
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		s.exitErr = s.cmd.Wait()
		close(s.done)
	}()
	if err := s.waitReady(); err != nil {
		s.kill()
		return nil, fmt.Errorf("%v\nsentinel output:\n%s", err, s.out.Tail(8<<10))
	}
	t.Cleanup(func() { stopSentinel(t, s) })
	return s, nil
}

// stopSentinel stops a sentinel (SIGTERM, then SIGKILL) and prints its output if the test
// failed.
func stopSentinel(t *testing.T, s *server) {
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(stopTimeout):
		t.Errorf("sentinel %d still running %v after SIGTERM; killed", s.Port, stopTimeout)
		s.kill()
	}
	if t.Failed() {
		t.Logf("sentinel output (port %d):\n%s", s.Port, s.out.Tail(16<<10))
	}
}

// master returns the fields of SENTINEL MASTER mymaster.
func (sen *sentinelProc) master(t *testing.T) map[string]string {
	t.Helper()
	return pairs(t, sen.conn.Do("SENTINEL", "MASTER", "mymaster"))
}

// peer returns the fields of the other sentinel SENTINEL SENTINELS mymaster lists, or nil
// while it lists none.
func (sen *sentinelProc) peer(t *testing.T) map[string]string {
	t.Helper()
	r := sen.conn.Do("SENTINEL", "SENTINELS", "mymaster")
	if r.Kind != '*' || len(r.Elems) > 1 {
		t.Fatalf("sentinel %d: SENTINEL SENTINELS mymaster: %s", sen.Port, formatReply(r, false))
	}
	if len(r.Elems) == 0 {
		return nil
	}
	return pairs(t, r.Elems[0])
}

// pairs returns the fields of a sentinel's description of an instance: a flat array (RESP2)
// or a map (RESP3) of names and values.
func pairs(t *testing.T, r *Reply) map[string]string {
	t.Helper()
	if r.Kind != '*' && r.Kind != '%' || len(r.Elems)%2 != 0 {
		t.Fatalf("want an array of names and values: %s", formatReply(r, false))
	}
	fields := map[string]string{}
	for i := 0; i < len(r.Elems); i += 2 {
		fields[r.Elems[i].Str] = r.Elems[i+1].Str
	}
	return fields
}

// waitSentinels polls cond every 50 ms until it holds, failing the test with every sentinel's
// view of the master after sentinelWait.
func waitSentinels(t *testing.T, sentinels []*sentinelProc, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(sentinelWait)
	for !cond() {
		if time.Now().After(deadline) {
			for _, sen := range sentinels {
				t.Logf("sentinel %d: %v\noutput:\n%s", sen.Port, sen.master(t), sen.out.Tail(4<<10))
			}
			t.Fatalf("after %v: %s", sentinelWait, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// readMessages reads the replies arriving on a subscribed connection into a channel, closed
// when the connection fails or is closed.
func readMessages(c *rawConn) <-chan *Reply {
	ch := make(chan *Reply, 64)
	go func() {
		defer close(ch)
		c.SetReadDeadline(time.Time{})
		for {
			r, err := readReply(c.r)
			if err != nil {
				return
			}
			ch <- r
		}
	}()
	return ch
}

// checkHello checks a message on __sentinel__:hello is a sentinel's hello about the master on
// masterPort — "ip,port,runid,current_epoch,master_name,master_ip,master_port,master_config_epoch"
// — and returns the sentinel port it announces.
func checkHello(t *testing.T, m *Reply, masterPort int) int {
	t.Helper()
	if m.Kind != '*' && m.Kind != '>' || len(m.Elems) != 3 || m.Elems[0].Str != "message" || m.Elems[1].Str != "__sentinel__:hello" {
		t.Fatalf("on __sentinel__:hello: %s", formatReply(m, false))
	}
	f := strings.Split(m.Elems[2].Str, ",")
	if len(f) != 8 || f[0] != "127.0.0.1" || len(f[2]) != 40 || f[4] != "mymaster" || f[5] != "127.0.0.1" || f[6] != strconv.Itoa(masterPort) {
		t.Fatalf("hello %q: want ip,port,runid,epoch,mymaster,127.0.0.1,%d,epoch", m.Elems[2].Str, masterPort)
	}
	port, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatalf("hello %q: port: %v", m.Elems[2].Str, err)
	}
	return port
}

// statField returns an integer field of INFO stats, read on c.
func statField(t *testing.T, c *rawConn, name string) int64 {
	t.Helper()
	r := c.Do("INFO", "stats")
	for _, line := range strings.Split(r.Str, "\r\n") {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("INFO stats %s: %q", name, v)
			}
			return n
		}
	}
	t.Fatalf("INFO stats has no %s:\n%s", name, r.Str)
	return 0
}

// sentinelLinks returns "name=… id=…" of every sentinel connection in CLIENT LIST, read on c,
// after checking each sentinel has exactly its command link and its pub/sub link, the latter
// subscribed to one channel.
func sentinelLinks(t *testing.T, c *rawConn, sentinels []*sentinelProc) []string {
	t.Helper()
	list := c.Do("CLIENT", "LIST").Str
	byName := map[string][]map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(list))
	for sc.Scan() {
		fields := map[string]string{}
		for _, kv := range strings.Fields(sc.Text()) {
			k, v, _ := strings.Cut(kv, "=")
			fields[k] = v
		}
		if strings.HasPrefix(fields["name"], "sentinel-") {
			byName[fields["name"]] = append(byName[fields["name"]], fields)
		}
	}
	var links []string
	for _, sen := range sentinels {
		for _, link := range []string{"cmd", "pubsub"} {
			name := "sentinel-" + sen.id[:8] + "-" + link
			got := byName[name]
			if len(got) != 1 {
				t.Fatalf("%d connections named %s in CLIENT LIST, want 1:\n%s", len(got), name, list)
			}
			if link == "pubsub" && (got[0]["sub"] != "1" || got[0]["psub"] != "0") {
				t.Errorf("%s: sub=%s psub=%s, want sub=1 psub=0", name, got[0]["sub"], got[0]["psub"])
			}
			links = append(links, "name="+name+" id="+got[0]["id"])
		}
	}
	if len(byName) != 2*len(sentinels) {
		t.Errorf("sentinel connections %v, want %d", byName, 2*len(sentinels))
	}
	return links
}
