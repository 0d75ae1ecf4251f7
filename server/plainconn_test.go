package server

import (
	"bufio"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/kvserver/kvserver/config"
)

// TestConnectionWithoutFD: a connection that has no file descriptor (net.Pipe here, a TLS
// connection later) is served through a private read buffer, with commands split anywhere.
func TestConnectionWithoutFD(t *testing.T) {
	s, err := New(Options{Config: config.New()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	server, client := net.Pipe()
	s.accept(server)
	defer client.Close()
	r := bufio.NewReader(client)
	big := strings.Repeat("z", 40000) // a big argument, read into its own Go-heap buffer
	req := "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$40000\r\n" + big + "\r\nGET k\r\n*2\r\n$6\r\nSTRLEN\r\n$1\r\nk\r\n"
	go func() {
		for i := 0; i < len(req); i += 7 { // 7-byte pieces: every kind of split
			if _, err := client.Write([]byte(req[i:min(i+7, len(req))])); err != nil {
				return
			}
		}
	}()
	_ = client.SetReadDeadline(time.Now().Add(10 * time.Second))
	want := "+OK\r\n$40000\r\n" + big + "\r\n:40000\r\n"
	got := make([]byte, len(want))
	if _, err := io.ReadFull(r, got); err != nil || string(got) != want {
		t.Fatalf("replies: %v, got %d bytes (%q…)", err, len(got), got[:min(40, len(got))])
	}
	if n := s.stats.bigArgAdoptions.Load(); n != 0 {
		t.Fatalf("a Go-heap big argument was adopted (%d): it must be copied", n)
	}
	client.Close()
	s.Shutdown()
	s.Wait()
}
