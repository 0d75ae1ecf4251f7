// Package redisref starts the reference redis-server for tests that compare bytes with it
// (listpack, intset): a process on a free loopback port, a minimal RESP2 client, and the blob
// inside a DUMP payload. Tests skip when redis-server is not installed.
package redisref

import (
	"bufio"
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

	"github.com/kvserver/kvserver/rdb"
)

// Conn is a connection to a reference redis-server started by Start.
type Conn struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

// Start runs redis-server (from PATH) on a free loopback port, with no persistence, for the
// rest of the test; it skips the test when redis-server is missing.
func Start(t *testing.T) *Conn {
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
	dir := t.TempDir()
	cmd := exec.Command(path, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no",
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
			t.Cleanup(func() { c.Close() })
			return &Conn{t: t, c: c, r: bufio.NewReader(c)}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "redis.log"))
			t.Fatalf("redis-server did not start: %v\n%s", err, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Do sends a command and returns its reply: string (simple), error, int64, []byte (bulk, nil
// for a null) or []any.
func (rc *Conn) Do(args ...string) any {
	rc.t.Helper()
	var b []byte
	b = fmt.Appendf(b, "*%d\r\n", len(args))
	for _, a := range args {
		b = fmt.Appendf(b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := rc.c.Write(b); err != nil {
		rc.t.Fatal(err)
	}
	v, err := rc.read()
	if err != nil {
		rc.t.Fatal(err)
	}
	return v
}

func (rc *Conn) read() (any, error) {
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
			return []byte(nil), nil
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

// DumpBlob DUMPs key and returns the payload's RDB type byte and the string after it,
// decompressed: for a small hash or set, the listpack or intset blob itself.
func (rc *Conn) DumpBlob(key string) (typ byte, blob []byte) {
	rc.t.Helper()
	p, ok := rc.Do("DUMP", key).([]byte)
	if !ok || len(p) < 11 {
		rc.t.Fatalf("DUMP %s: %v", key, p)
	}
	// The value is an RDB string after the type byte: read it as a string value's payload,
	// with the type byte made a string's and the CRC recomputed.
	q := append([]byte{rdb.TypeString}, p[1:len(p)-8]...)
	q = binary.LittleEndian.AppendUint64(q, rdb.CRC64(q))
	blob, err := rdb.DecodeDump(q)
	if err != nil {
		rc.t.Fatalf("DUMP %s: %v", key, err)
	}
	return p[0], blob
}
