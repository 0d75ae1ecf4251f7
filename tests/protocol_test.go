package tests

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// partialWait is how long a test waits to see that a partial command gets no reply. It also
// lets the server read the first piece on its own before the rest arrives.
const partialWait = 2 * time.Millisecond

// TestSplitAtEveryByte sends commands in two writes split at every byte position, and one
// byte per write, on one connection: each reply must come only when its command is whole.
func TestSplitAtEveryByte(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	kinds := []struct {
		name  string
		build func(key, val string) string
	}{
		{"multibulk", func(k, v string) string { return string(encodeCommand("SET", k, v)) }},
		{"inline", func(k, v string) string { return fmt.Sprintf("SET %s %q\r\n", k, v) }},
	}
	want := map[string]string{}
	for _, kind := range kinds {
		probe := kind.build("split:x:000", "v:000\r\n")
		for pos := 1; pos < len(probe); pos++ {
			key := fmt.Sprintf("split:%c:%03d", kind.name[0], pos)
			// The value holds CRLF: a multibulk parser must go by the length, not the bytes.
			val := fmt.Sprintf("v:%03d\r\n", pos)
			cmd := kind.build(key, val)
			c.SendString(cmd[:pos])
			c.ExpectNothing(partialWait)
			c.SendString(cmd[pos:])
			if r := c.ReadReply(); r.Kind != '+' || r.Str != "OK" {
				t.Fatalf("%s split at %d of %q: got %q", kind.name, pos, cmd, formatReply(r, false))
			}
			want[key] = val
		}
	}
	for key, val := range want {
		if r := c.Do("GET", key); r.Kind != '$' || r.Str != val {
			t.Errorf("GET %s: got %q, want %q", key, formatReply(r, false), val)
		}
	}

	// A pipeline of three commands, one byte per write.
	pipeline := string(encodeCommand("SET", "split:bytes", "a\r\nb")) + "GET split:bytes\r\n" + string(encodeCommand("ECHO", ""))
	for i := 0; i < len(pipeline); i++ {
		c.SendString(pipeline[i : i+1])
	}
	wantBytes := "+OK\r\n$4\r\na\r\nb\r\n$0\r\n\r\n"
	if got := string(c.ReadN(len(wantBytes))); got != wantBytes {
		t.Errorf("byte-by-byte pipeline: got %q, want %q", got, wantBytes)
	}
	c.ExpectNothing(partialWait)
}

// protocolErrorCases are inputs that Redis answers with a protocol error and a close; want is
// every byte the server must send before closing.
var protocolErrorCases = []struct {
	name, input, want string
}{
	{"too big inline request", strings.Repeat("a", 64<<10+1),
		"-ERR Protocol error: too big inline request\r\n"},
	{"too big inline request with spaces", strings.Repeat("SET k v ", 8<<10) + "x",
		"-ERR Protocol error: too big inline request\r\n"},
	{"too big mbulk count string", "*" + strings.Repeat("1", 64<<10),
		"-ERR Protocol error: too big mbulk count string\r\n"},
	{"invalid multibulk length: letters", "*abc\r\n",
		"-ERR Protocol error: invalid multibulk length\r\n"},
	{"invalid multibulk length: 3000000000", "*3000000000\r\n",
		"-ERR Protocol error: invalid multibulk length\r\n"},
	{"invalid multibulk length: 2^31", "*2147483648\r\n",
		"-ERR Protocol error: invalid multibulk length\r\n"},
	{"invalid multibulk length: trailing byte", "*1x\r\n",
		"-ERR Protocol error: invalid multibulk length\r\n"},
	{"invalid multibulk length: plus sign", "*+1\r\n",
		"-ERR Protocol error: invalid multibulk length\r\n"},
	{"too big bulk count string", "*1\r\n$" + strings.Repeat("1", 64<<10),
		"-ERR Protocol error: too big bulk count string\r\n"},
	{"expected $, got x", "*1\r\nx\r\n",
		"-ERR Protocol error: expected '$', got 'x'\r\n"},
	{"expected $, got :", "*2\r\n$4\r\nECHO\r\n:5\r\n",
		"-ERR Protocol error: expected '$', got ':'\r\n"},
	{"invalid bulk length: -5", "*1\r\n$-5\r\n",
		"-ERR Protocol error: invalid bulk length\r\n"},
	{"invalid bulk length: -1", "*1\r\n$-1\r\n",
		"-ERR Protocol error: invalid bulk length\r\n"},
	{"invalid bulk length: letters", "*1\r\n$abc\r\n",
		"-ERR Protocol error: invalid bulk length\r\n"},
	{"invalid bulk length: space", "*1\r\n$ 1\r\n",
		"-ERR Protocol error: invalid bulk length\r\n"},
	{"unbalanced quotes: double", "SET \"a\r\n",
		"-ERR Protocol error: unbalanced quotes in request\r\n"},
	{"unbalanced quotes: single", "ECHO 'a\r\n",
		"-ERR Protocol error: unbalanced quotes in request\r\n"},
	{"unbalanced quotes: text after the closing quote", "SET \"a\"b c\r\n",
		"-ERR Protocol error: unbalanced quotes in request\r\n"},
	{"replies before the error are sent", "PING\r\n*1\r\n$4\r\nPING\r\n*1\r\nx\r\n",
		"+PONG\r\n+PONG\r\n-ERR Protocol error: expected '$', got 'x'\r\n"},
	{"nothing after the error runs", "*1\r\nx\r\nPING\r\n*1\r\n$4\r\nPING\r\n",
		"-ERR Protocol error: expected '$', got 'x'\r\n"},
}

// TestProtocolErrors checks each protocol error's exact bytes and that the server then
// closes the connection.
func TestProtocolErrors(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	for _, tc := range protocolErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := srv.RawConn(t)
			// The server may close before reading everything: a failed write is no failure.
			c.SetWriteDeadline(time.Now().Add(ioTimeout))
			c.Write([]byte(tc.input))
			if got := string(c.ReadUntilClose()); got != tc.want {
				t.Errorf("input %.40q (%d bytes):\ngot  %q\nwant %q", tc.input, len(tc.input), got, tc.want)
			}
		})
	}
	// The server is still fine.
	if r := srv.RawConn(t).Do("PING"); r.Kind != '+' || r.Str != "PONG" {
		t.Errorf("PING after the protocol errors: %q", formatReply(r, false))
	}
}

// TestProtoMaxBulkLen: a bulk longer than proto-max-bulk-len is a protocol error; one of
// exactly that length is served.
func TestProtoMaxBulkLen(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--proto-max-bulk-len", "1mb")
	c := srv.RawConn(t)
	c.SendString("*2\r\n$4\r\nECHO\r\n$1048577\r\n")
	if got, want := string(c.ReadUntilClose()), "-ERR Protocol error: invalid bulk length\r\n"; got != want {
		t.Errorf("bulk of 1mb+1: got %q, want %q", got, want)
	}
	big := strings.Repeat("x", 1<<20)
	if r := srv.RawConn(t).Do("ECHO", big); r.Kind != '$' || r.Str != big {
		t.Errorf("ECHO of exactly 1mb: got %.60q", formatReply(r, false))
	}
}

// TestProtocolTolerated: input Redis accepts without an error — empty lines, empty and
// negative multibulk counts, LF-only and padded inline commands, inline quoting, and a
// line starting with '$' (an inline command, not a bulk).
func TestProtocolTolerated(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	c.SendString("\r\n\n*0\r\n*-1\r\n*-5\r\n  PING  \r\nPING\n" +
		`ECHO "a\x41\n" 'it\'s'` + "\r\n" + `ECHO "\x4"` + "\r\n" +
		"$4\r\n" + "PING\r\n")
	want := "+PONG\r\n+PONG\r\n" +
		"-ERR wrong number of arguments for 'echo' command\r\n" +
		"$2\r\nx4\r\n" + // "\x4" is not a hex escape: backslash-x is x
		"-ERR unknown command '$4', with args beginning with: \r\n" +
		"+PONG\r\n"
	if got := string(c.ReadN(len(want))); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	c.ExpectNothing(partialWait)
	if r := c.Do("ECHO", `a\x41`); r.Str != `a\x41` {
		t.Errorf("multibulk arguments are not unescaped: got %q", r.Str)
	}
	c.SendString(`ECHO "a\x41\n"` + "\r\n")
	if r := c.ReadReply(); r.Kind != '$' || r.Str != "aA\n" {
		t.Errorf(`inline ECHO "a\x41\n": got %q`, formatReply(r, false))
	}
	// An inline command just under the 64 KiB limit arrives in several reads and is served.
	long := strings.Repeat("b", 60000)
	c.SendString("ECHO " + long + "\r\n")
	if r := c.ReadReply(); r.Str != long {
		t.Errorf("inline ECHO of %d bytes: got %d bytes", len(long), len(r.Str))
	}
}

// TestQuit: QUIT answers OK and closes the connection; commands after it do not run.
func TestQuit(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	c.SendString("PING\r\nQUIT\r\nSET quit:k v\r\nPING\r\n")
	if got, want := string(c.ReadUntilClose()), "+PONG\r\n+OK\r\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if r := srv.RawConn(t).Do("EXISTS", "quit:k"); r.Kind != ':' || r.Int != 0 {
		t.Errorf("a SET pipelined after QUIT ran: EXISTS says %s", formatReply(r, false))
	}
}

// TestGarbageIsolation: a client sending garbage is closed without disturbing the others —
// not the half-sent command of a client interleaved with it, nor a busy concurrent client.
func TestGarbageIsolation(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	good := srv.RawConn(t)
	for i, tc := range protocolErrorCases {
		key, val := fmt.Sprintf("iso:%d", i), fmt.Sprintf("value %d\r\n", i)
		cmd := string(encodeCommand("SET", key, val))
		good.SendString(cmd[:len(cmd)/2])
		bad := srv.RawConn(t)
		bad.Write([]byte(tc.input))
		if got := string(bad.ReadUntilClose()); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
		good.SendString(cmd[len(cmd)/2:])
		if r := good.ReadReply(); r.Kind != '+' || r.Str != "OK" {
			t.Fatalf("%s: the interleaved SET got %q", tc.name, formatReply(r, false))
		}
		if r := good.Do("GET", key); r.Str != val {
			t.Fatalf("%s: GET %s got %q, want %q", tc.name, key, formatReply(r, false), val)
		}
	}

	// A go-redis client works through pipelines while garbage arrives on other connections.
	ctx := context.Background()
	rc := srv.Client(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	garbageConns, garbageErr := 0, error(nil)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			tc := protocolErrorCases[i%len(protocolErrorCases)]
			if got, err := sendGarbage(srv.Addr, tc.input); err != nil || got != tc.want {
				garbageErr = fmt.Errorf("%s: got %q, %v; want %q", tc.name, got, err, tc.want)
				return
			}
			garbageConns++
		}
	}()
	for round := 0; round < 20; round++ {
		pipe := rc.Pipeline()
		for i := 0; i < 100; i++ {
			pipe.Set(ctx, fmt.Sprintf("iso:go:%d:%d", round, i), fmt.Sprintf("v%d-%d", round, i), 0)
		}
		gets := make([]interface{ Val() string }, 100)
		for i := 0; i < 100; i++ {
			gets[i] = pipe.Get(ctx, fmt.Sprintf("iso:go:%d:%d", round, i))
		}
		if _, err := pipe.Exec(ctx); err != nil {
			t.Fatalf("round %d: pipeline: %v", round, err)
		}
		for i, g := range gets {
			if want := fmt.Sprintf("v%d-%d", round, i); g.Val() != want {
				t.Fatalf("round %d: GET %d = %q, want %q", round, i, g.Val(), want)
			}
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d garbage connections during the pipelines", garbageConns)
	if garbageErr != nil {
		t.Errorf("garbage connection: %v", garbageErr)
	}
	if garbageConns == 0 {
		t.Errorf("no garbage connection ran alongside the pipelines")
	}
}

// sendGarbage sends input on a new connection and returns what the server answers before
// closing it. It may run outside the test's goroutine.
func sendGarbage(addr, input string) (string, error) {
	c, err := net.DialTimeout("tcp", addr, ioTimeout)
	if err != nil {
		return "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(ioTimeout))
	c.Write([]byte(input))
	b, err := io.ReadAll(c)
	if errors.Is(err, syscall.ECONNRESET) {
		err = nil
	}
	return string(b), err
}

// TestLargePipeline writes 200,000 commands (SET and inline GET alternating) without reading,
// from another goroutine, while the test reads and checks every reply: the server must keep
// reading requests while its replies wait for the client.
func TestLargePipeline(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	const n = 100_000
	var req, want []byte
	for i := 0; i < n; i++ {
		k := fmt.Sprintf("lp:%d", i)
		req = append(req, encodeCommand("SET", k, k)...)
		req = fmt.Appendf(req, "GET %s\r\n", k)
		want = fmt.Appendf(want, "+OK\r\n$%d\r\n%s\r\n", len(k), k)
	}
	writeErr := make(chan error, 1)
	go func() {
		c.SetWriteDeadline(time.Now().Add(time.Minute))
		_, err := c.Write(req)
		writeErr <- err
	}()
	c.SetReadDeadline(time.Now().Add(time.Minute))
	got := make([]byte, len(want))
	if _, err := io.ReadFull(c.r, got); err != nil {
		t.Fatalf("reading %d bytes of replies: %v", len(want), err)
	}
	if err := <-writeErr; err != nil {
		t.Fatalf("writing the pipeline: %v", err)
	}
	if string(got) != string(want) {
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("replies differ at byte %d: got %q, want %q", i, got[i:min(i+40, len(got))], want[i:min(i+40, len(want))])
			}
		}
	}
	c.ExpectNothing(partialWait)
}

// TestBigValue stores and reads back a 10 MiB value, sent in one write and in 1 KiB pieces.
func TestBigValue(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	big := []byte(strings.Repeat("0123456789abcdef", 10<<20/16))
	big[len(big)/2] = '\r' // bytes of the protocol inside a value
	big[len(big)/2+1] = '\n'
	c := srv.RawConn(t)
	for _, step := range []int{0, 1 << 10} { // 0: the whole command in one write
		key := fmt.Sprintf("big:%d", step)
		cmd := encodeCommand("SET", key, string(big))
		if step == 0 {
			step = len(cmd)
		}
		for off := 0; off < len(cmd); off += step {
			c.Send(cmd[off:min(off+step, len(cmd))])
		}
		if r := c.ReadReply(); r.Kind != '+' || r.Str != "OK" {
			t.Fatalf("SET of %d bytes: %s", len(big), formatReply(r, false))
		}
		if r := c.Do("GET", key); r.Kind != '$' || r.Str != string(big) {
			t.Fatalf("GET %s: got %d bytes (%c), want %d", key, len(r.Str), r.Kind, len(big))
		}
	}
	if r := c.Do("OBJECT", "ENCODING", "big:0"); r.Str != "raw" {
		t.Errorf("OBJECT ENCODING of a 10 MiB value: %s", formatReply(r, false))
	}
}

// TestQueryBufferLimit: kvserver counts the arguments already parsed for an unfinished
// command against client-query-buffer-limit (Redis counts only the unparsed bytes), so
// 10,000,000 one-byte arguments sent in 64 KiB pieces close the client — without a reply —
// and INFO counts the disconnection.
func TestQueryBufferLimit(t *testing.T) {
	requireKvserver(t, "Redis does not count parsed arguments against client-query-buffer-limit")
	t.Parallel()
	srv := startServer(t, "--client-query-buffer-limit", "1mb")
	c := srv.RawConn(t)
	const args = 10_000_000
	piece := []byte(strings.Repeat("$1\r\na\r\n", 64<<10/7))
	sent := make(chan int, 1)
	go func() {
		total := 0
		c.SetWriteDeadline(time.Now().Add(time.Minute))
		_, err := c.Write([]byte(fmt.Sprintf("*%d\r\n", args)))
		for n := 0; err == nil && n < args; n += 64 << 10 / 7 {
			_, err = c.Write(piece)
			total += len(piece)
		}
		sent <- total
	}()
	if got := c.ReadUntilClose(); len(got) != 0 {
		t.Errorf("the server answered %.80q before closing; want no reply", got)
	}
	total := <-sent
	t.Logf("closed after about %d bytes sent", total)
	if total >= args*7 {
		t.Errorf("all %d arguments were sent before the close", args)
	}
	if got := srv.Info(t, "stats")["client_query_buffer_limit_disconnections"]; got != "1" {
		t.Errorf("client_query_buffer_limit_disconnections = %q, want 1", got)
	}
}
