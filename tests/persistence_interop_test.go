package tests

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kvserver/kvserver/rdb"
)

// Dumps exchanged with Debian's redis-server 7.0.15 in both directions (issue 18). 7.0.15 reads
// and writes RDB version 10; for strings version 11 differs only in its header, so a kvserver
// dump with its header set to 0010 (and its CRC-64 footer recomputed) is a valid version-10 file.

// startRedisOn starts redis-server 7.0.15 on a free port with dir as its directory (loading
// dir/dump.rdb if there is one) and waits until it answers PING. It is stopped when the test
// ends. A test needing it is skipped when redis-server is not installed (scripts/deps.sh
// installs it).
func startRedisOn(t testing.TB, dir string) *server {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not on the PATH (scripts/deps.sh installs it)")
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{Port: port, Addr: "127.0.0.1:" + strconv.Itoa(port), t: t, out: &syncBuffer{}, done: make(chan struct{})}
	s.cmd = exec.Command(path, "--save", "", "--appendonly", "no", "--port", strconv.Itoa(port),
		"--bind", "127.0.0.1", "--dir", dir)
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s.exitErr = s.cmd.Wait()
		close(s.done)
	}()
	if err := s.waitReady(); err != nil {
		s.kill()
		t.Fatalf("redis-server: %v\n%s", err, s.out.String())
	}
	t.Cleanup(s.cleanup)
	return s
}

// writeRedisDump has redis-server write dir/dump.rdb after running cmds (one command a string,
// split on spaces) and stops it.
func writeRedisDump(t testing.TB, dir string, cmds ...string) {
	t.Helper()
	r := startRedisOn(t, dir)
	c := r.RawConn(t)
	for _, cmd := range cmds {
		if rep := c.Do(strings.Fields(cmd)...); rep.Kind == '-' {
			t.Fatalf("redis-server: %s: %s", cmd, formatReply(rep, false))
		}
	}
	expectStatus(t, "redis-server SAVE", c.Do("SAVE"), "+OK")
	shutdown(t, r, "NOSAVE")
}

// probeGet connects to addr, sends GET key:0000 and returns the first reply line, or "" when the
// connection is refused, closed or silent for 200 ms.
func probeGet(addr string) string {
	conn, err := net.DialTimeout("tcp", addr, 50*time.Millisecond)
	if err != nil {
		return ""
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(200 * time.Millisecond))
	if _, err := conn.Write([]byte("GET key:0000\r\n")); err != nil {
		return ""
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return ""
	}
	return strings.TrimRight(line, "\r\n")
}

// TestPersistInteropFromRedis: a dump written by redis-server 7.0.15 (several databases,
// expires, integer-encoded, LZF-compressed, 200 KB and binary values) loads in kvserver with
// identical keys, values and expire times.
func TestPersistInteropFromRedis(t *testing.T) {
	t.Parallel()
	rdir := t.TempDir()
	r := startRedisOn(t, rdir)
	want := roundTripData()
	writeData(t, r.RawConn(t), want)
	expectStatus(t, "redis-server SAVE", r.RawConn(t).Do("SAVE"), "+OK")
	shutdown(t, r, "NOSAVE")
	file, version := decodeFile(t, filepath.Join(rdir, "dump.rdb"))
	if version != 10 {
		t.Errorf("redis-server wrote RDB version %d, want 10", version)
	}
	diffData(t, "redis-server's dump (decoded)", file, want)

	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(rdir, "dump.rdb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dump.rdb"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := restart(t, dir)
	diffData(t, "kvserver on redis-server's dump", readData(t, srv), want)
	if got := srv.Info(t, "persistence")["rdb_last_load_keys_loaded"]; got != strconv.Itoa(len(want)) {
		t.Errorf("rdb_last_load_keys_loaded:%s, want %d", got, len(want))
	}
}

// setVersion10 rewrites an RDB file's header to version 10 and recomputes its CRC-64 footer.
func setVersion10(t testing.TB, b []byte) []byte {
	t.Helper()
	if len(b) < 18 || string(b[:5]) != "REDIS" {
		t.Fatalf("not an RDB file: %q", b[:min(len(b), 9)])
	}
	copy(b[5:9], "0010")
	binary.LittleEndian.PutUint64(b[len(b)-8:], rdb.CRC64(b[:len(b)-8]))
	return b
}

// TestPersistInteropToRedis: kvserver's dump, with its header set to version 10, passes
// redis-check-rdb and loads in redis-server 7.0.15 with identical contents.
func TestPersistInteropToRedis(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := restart(t, dir)
	want := roundTripData()
	writeData(t, srv.RawConn(t), want)
	expectStatus(t, "SAVE", srv.RawConn(t).Do("SAVE"), "+OK")
	path := filepath.Join(dir, "dump.rdb")
	file, version := decodeFile(t, path)
	if version != craftVersion() {
		t.Errorf("RDB version %d written, want %d", version, craftVersion())
	}
	diffData(t, "kvserver's dump (decoded)", file, want)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rdir := t.TempDir()
	rpath := filepath.Join(rdir, "dump.rdb")
	if err := os.WriteFile(rpath, setVersion10(t, b), 0o644); err != nil {
		t.Fatal(err)
	}
	check, err := exec.Command("redis-check-rdb", rpath).CombinedOutput()
	if err != nil || !bytes.Contains(check, []byte("RDB looks OK")) {
		t.Errorf("redis-check-rdb %s: %v\n%s", rpath, err, check)
	}
	r := startRedisOn(t, rdir)
	diffData(t, "redis-server on kvserver's dump", readData(t, r), want)
	if !strings.Contains(r.Output(), "Done loading RDB, keys loaded: "+strconv.Itoa(len(want))+", keys expired: 0") {
		t.Errorf("redis-server's log has no load line for %d keys:\n%s", len(want), r.Output())
	}
}
