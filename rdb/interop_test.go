package rdb

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// respConn is a minimal RESP2 client for the interop tests.
type respConn struct {
	c net.Conn
	r *bufio.Reader
}

func (rc *respConn) do(t *testing.T, args ...[]byte) any {
	t.Helper()
	var b []byte
	b = fmt.Appendf(b, "*%d\r\n", len(args))
	for _, a := range args {
		b = fmt.Appendf(b, "$%d\r\n", len(a))
		b = append(append(b, a...), "\r\n"...)
	}
	if _, err := rc.c.Write(b); err != nil {
		t.Fatal(err)
	}
	v, err := rc.read()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (rc *respConn) cmd(t *testing.T, args ...string) any {
	t.Helper()
	bs := make([][]byte, len(args))
	for i, a := range args {
		bs[i] = []byte(a)
	}
	return rc.do(t, bs...)
}

func (rc *respConn) read() (any, error) {
	line, err := rc.r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	if len(line) < 3 {
		return nil, errors.New("short line")
	}
	body := line[1 : len(line)-2]
	switch line[0] {
	case '+':
		return body, nil
	case '-':
		return errors.New(body), nil
	case ':':
		return strconv.ParseInt(body, 10, 64)
	case '$':
		n, _ := strconv.Atoi(body)
		if n < 0 {
			return nil, nil
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(rc.r, buf); err != nil {
			return nil, err
		}
		return buf[:n], nil
	case '*':
		n, _ := strconv.Atoi(body)
		out := make([]any, 0, max(n, 0))
		for i := 0; i < n; i++ {
			v, err := rc.read()
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return nil, fmt.Errorf("bad reply %q", line)
}

// startRedis runs redis-server on a free port with dir as its directory,
// loading dir/dump.rdb if present. It is stopped at the end of the test.
func startRedis(t *testing.T, dir string) *respConn {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not on PATH")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(path, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", dir,
		"--dbfilename", "dump.rdb", "--save", "", "--appendonly", "no", "--daemonize", "no",
		"--logfile", filepath.Join(dir, "redis.log"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			rc := &respConn{c: c, r: bufio.NewReader(c)}
			t.Cleanup(func() { c.Close() })
			// Wait until the dataset is loaded.
			for time.Now().Before(deadline) {
				if _, loading := rc.cmd(t, "PING").(error); !loading {
					return rc
				}
				time.Sleep(50 * time.Millisecond)
			}
			log, _ := os.ReadFile(filepath.Join(dir, "redis.log"))
			t.Fatalf("redis-server still loading:\n%s", log)
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "redis.log"))
			t.Fatalf("redis-server did not start: %v\n%s", err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// interopDataset is testDataset without IDLE/FREQ, which redis-server only
// saves under an LRU/LFU maxmemory-policy.
func interopDataset() []Entry {
	ds := testDataset()
	for i := range ds {
		ds[i].Idle, ds[i].Freq = -1, -1
	}
	return ds
}

func TestInteropDecodeRedisSave(t *testing.T) {
	dir := t.TempDir()
	rc := startRedis(t, dir)
	ds := interopDataset()
	for _, e := range ds {
		rc.cmd(t, "SELECT", strconv.Itoa(e.DB))
		if r := rc.do(t, []byte("SET"), e.Key, e.Value); r != "OK" {
			t.Fatalf("SET: %v", r)
		}
		if e.ExpireMs >= 0 {
			rc.do(t, []byte("PEXPIREAT"), e.Key, []byte(strconv.FormatInt(e.ExpireMs, 10)))
		}
	}
	if r := rc.cmd(t, "SAVE"); r != "OK" {
		t.Fatalf("SAVE: %v", r)
	}
	data, err := os.ReadFile(filepath.Join(dir, "dump.rdb"))
	if err != nil {
		t.Fatal(err)
	}
	got, d, err := decodeAll(data)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	t.Logf("redis-server wrote RDB version %d, aux %v", d.Version(), d.Aux())
	sameEntries(t, got, ds)

	// DUMP payloads of redis-server decode; ours RESTORE into it.
	for _, e := range ds {
		rc.cmd(t, "SELECT", strconv.Itoa(e.DB))
		p, ok := rc.do(t, []byte("DUMP"), e.Key).([]byte)
		if !ok {
			t.Fatalf("DUMP %q failed", e.Key)
		}
		if len(e.Value) > 20 && bytes.Count(e.Value, e.Value[:2]) > 10 && p[1] != 0xc3 {
			t.Errorf("expected redis-server to LZF-compress %q", trunc(e.Value))
		}
		if p[1] != 0xc3 && !bytes.Equal(encodeDumpVersion(e.Value, 10), p) {
			t.Errorf("DUMP %q: ours % x, redis-server's % x", e.Key, trunc(encodeDumpVersion(e.Value, 10)), trunc(p))
		}
		v, err := DecodeDump(p)
		if err != nil || !bytes.Equal(v, e.Value) {
			t.Errorf("DecodeDump(%q): %q %v", e.Key, trunc(v), err)
		}
		ours := encodeDumpVersion(e.Value, 10)
		k2 := append([]byte("restored:"), e.Key...)
		if r := rc.do(t, []byte("RESTORE"), k2, []byte("0"), ours); r != "OK" {
			t.Errorf("RESTORE %q: %v", k2, r)
			continue
		}
		if v, _ := rc.do(t, []byte("GET"), k2).([]byte); !bytes.Equal(v, e.Value) {
			t.Errorf("GET %q after RESTORE: %q", k2, trunc(v))
		}
	}
	// A corrupted payload is refused by redis-server and by DecodeDump alike.
	bad := encodeDumpVersion([]byte("hello"), 10)
	bad[1] ^= 1
	if r, ok := rc.do(t, []byte("RESTORE"), []byte("bad"), []byte("0"), bad).(error); !ok || r.Error() != ErrDumpPayload.Error() {
		t.Errorf("redis RESTORE of corrupt payload: %v", r)
	}
	if _, err := DecodeDump(bad); err != ErrDumpPayload {
		t.Errorf("DecodeDump of corrupt payload: %v", err)
	}
	// A payload with a valid footer but a malformed value: "Bad data format".
	malformed := []byte{TypeString, 40, 'a', 10, 0}
	malformed = binary.LittleEndian.AppendUint64(malformed, CRC64(malformed))
	if r, ok := rc.do(t, []byte("RESTORE"), []byte("bad"), []byte("0"), malformed).(error); !ok || r.Error() != ErrDumpData.Error() {
		t.Errorf("redis RESTORE of malformed payload: %v", r)
	}
	if _, err := DecodeDump(malformed); err != ErrDumpData {
		t.Errorf("DecodeDump of corrupt payload: %v", err)
	}
}

func TestInteropRedisLoadsOurs(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not on PATH")
	}
	ds := interopDataset()
	for _, compress := range []bool{true, false} {
		t.Run(fmt.Sprintf("compress=%v", compress), func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "dump.rdb")
			if err := os.WriteFile(file, encodeDataset(t, ds, 10, compress, true), 0o644); err != nil {
				t.Fatal(err)
			}
			if check, err := exec.LookPath("redis-check-rdb"); err == nil {
				out, err := exec.Command(check, file).CombinedOutput()
				if err != nil {
					t.Fatalf("redis-check-rdb: %v\n%s", err, out)
				}
			}
			rc := startRedis(t, dir)
			count := map[int]int64{}
			for _, e := range ds {
				count[e.DB]++
				rc.cmd(t, "SELECT", strconv.Itoa(e.DB))
				if v, _ := rc.do(t, []byte("GET"), e.Key).([]byte); !bytes.Equal(v, e.Value) {
					t.Errorf("db %d GET %q: %q want %q", e.DB, e.Key, trunc(v), trunc(e.Value))
				}
				if pt := rc.do(t, []byte("PEXPIRETIME"), e.Key); pt != e.ExpireMs {
					t.Errorf("db %d PEXPIRETIME %q: %v want %d", e.DB, e.Key, pt, e.ExpireMs)
				}
			}
			for db, n := range count {
				rc.cmd(t, "SELECT", strconv.Itoa(db))
				if got := rc.cmd(t, "DBSIZE"); got != n {
					t.Errorf("db %d DBSIZE %v want %d", db, got, n)
				}
			}
		})
	}
	// A file without checksum (rdbchecksum no) also loads.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "dump.rdb"), encodeDataset(t, ds[:3], 10, true, false), 0o644)
	rc := startRedis(t, dir)
	if got := rc.cmd(t, "DBSIZE"); got != int64(1) {
		t.Errorf("no-checksum file: DBSIZE %v", got)
	}
}
