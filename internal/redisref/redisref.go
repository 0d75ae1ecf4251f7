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

	"github.com/kvserver/kvserver/internal/lzf"
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
// decompressed: for a small hash or set, the listpack or intset blob itself. (It reads the
// string itself rather than through package rdb, which imports listpack and intset, whose
// tests use this package.)
func (rc *Conn) DumpBlob(key string) (typ byte, blob []byte) {
	rc.t.Helper()
	p, ok := rc.Do("DUMP", key).([]byte)
	if !ok || len(p) < 11 {
		rc.t.Fatalf("DUMP %s: %v", key, p)
	}
	blob, err := rdbString(p[1 : len(p)-10])
	if err != nil {
		rc.t.Fatalf("DUMP %s: %v", key, err)
	}
	return p[0], blob
}

// rdbString reads the RDB string at the start of b: raw or LZF-compressed (integer encodings
// are never used for a blob).
func rdbString(b []byte) ([]byte, error) {
	n, b, enc, err := rdbLen(b)
	if err != nil {
		return nil, err
	}
	if !enc {
		if uint64(len(b)) < n {
			return nil, errors.New("short string")
		}
		return b[:n], nil
	}
	if n != 3 { // RDB_ENC_LZF
		return nil, fmt.Errorf("string encoding %d", n)
	}
	clen, b, _, err := rdbLen(b)
	if err != nil {
		return nil, err
	}
	ulen, b, _, err := rdbLen(b)
	if err != nil || uint64(len(b)) < clen || ulen > 1<<32 {
		return nil, errors.New("bad LZF string")
	}
	out, ok := lzf.Decompress(make([]byte, 0, ulen), b[:clen], int(ulen))
	if !ok {
		return nil, errors.New("bad LZF data")
	}
	return out, nil
}

// rdbLen reads an RDB length at the start of b; enc reports the special-encoding form.
func rdbLen(b []byte) (n uint64, rest []byte, enc bool, err error) {
	if len(b) == 0 {
		return 0, nil, false, errors.New("short length")
	}
	switch c := b[0]; {
	case c>>6 == 0:
		return uint64(c & 0x3f), b[1:], false, nil
	case c>>6 == 1 && len(b) >= 2:
		return uint64(c&0x3f)<<8 | uint64(b[1]), b[2:], false, nil
	case c>>6 == 3:
		return uint64(c & 0x3f), b[1:], true, nil
	case c == 0x80 && len(b) >= 5:
		return uint64(binary.BigEndian.Uint32(b[1:])), b[5:], false, nil
	case c == 0x81 && len(b) >= 9:
		return binary.BigEndian.Uint64(b[1:]), b[9:], false, nil
	}
	return 0, nil, false, errors.New("bad length")
}
