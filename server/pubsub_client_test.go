package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/kvserver/kvserver/config"
)

// pipeClient is a connection without an fd to s (net.Pipe).
func pipeClient(t *testing.T, s *Server) (net.Conn, *bufio.Reader) {
	srv, cli := net.Pipe()
	s.accept(srv)
	t.Cleanup(func() { cli.Close() })
	_ = cli.SetDeadline(time.Now().Add(20 * time.Second))
	return cli, bufio.NewReader(cli)
}

func expectBytes(t *testing.T, r *bufio.Reader, want string) {
	t.Helper()
	got := make([]byte, len(want))
	if _, err := io.ReadFull(r, got); err != nil || string(got) != want {
		t.Fatalf("got %q (%v), want %q", got, err, want)
	}
}

// TestPubSubWithoutFD: a connection without an fd gets its messages through its push writer,
// each after the reply of the command before it, never inside one.
func TestPubSubWithoutFD(t *testing.T) {
	s, err := New(Options{Config: config.New()})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		s.Shutdown()
		s.Wait()
		s.Close()
	}()
	sub, sr := pipeClient(t, s)
	pub, pr := pipeClient(t, s)
	go func() {
		_, _ = sub.Write([]byte("HELLO 3\r\nSUBSCRIBE ch\r\n"))
	}()
	if line, _ := sr.ReadString('\n'); line != "%7\r\n" {
		t.Fatalf("HELLO: %q", line)
	}
	for line := ""; line != "*0\r\n"; { // HELLO's last value: the modules' empty array
		if line, err = sr.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	expectBytes(t, sr, ">3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n")
	const n = 200
	go func() {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "PUBLISH ch m%d\r\n", i)
		}
		_, _ = pub.Write([]byte(b.String()))
	}()
	go func() {
		for range n {
			_, _ = sub.Write([]byte("PING\r\n"))
		}
	}()
	msgs, pongs := 0, 0
	for msgs < n || pongs < n {
		line, err := sr.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		switch line {
		case "+PONG\r\n":
			pongs++
		case ">3\r\n":
			want := fmt.Sprintf("$7\r\nmessage\r\n$2\r\nch\r\n$%d\r\nm%d\r\n", len(fmt.Sprint(msgs))+1, msgs)
			expectBytes(t, sr, want)
			msgs++
		default:
			t.Fatalf("after %d messages and %d pongs: %q", msgs, pongs, line)
		}
	}
	for range n {
		if l, err := pr.ReadString('\n'); err != nil || l != ":1\r\n" {
			t.Fatalf("PUBLISH: %q %v", l, err)
		}
	}
}
