package main

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// reader is a subscriber reading s.
func reader(s string) *subscriber {
	return &subscriber{r: bufio.NewReader(strings.NewReader(s))}
}

func TestReadPush(t *testing.T) {
	s := reader("*3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n" + // RESP2 confirmation
		"*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$4\r\nab\r\n\r\n" + // data holding CRLF
		">3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$0\r\n\r\n") // RESP3 push, empty data
	for _, want := range []string{"subscribe", "message", "message"} {
		kind, err := s.readPush("ch")
		if err != nil || kind != want {
			t.Fatalf("readPush: %q, %v; want %q", kind, err, want)
		}
	}
	if _, err := s.readPush("ch"); err == nil {
		t.Fatal("readPush at the end: no error")
	}
}

func TestReadPushRefuses(t *testing.T) {
	for _, in := range []string{
		"-ERR unknown command 'SUBSCRIBE'\r\n",
		"*3\r\n$7\r\nmessage\r\n$5\r\nother\r\n$1\r\nx\r\n", // another channel
		"*2\r\n$7\r\nmessage\r\n$2\r\nch\r\n",
		"*3\r\n$x\r\n",
	} {
		if kind, err := reader(in).readPush("ch"); err == nil {
			t.Errorf("readPush(%q) = %q, want an error", in, kind)
		}
	}
}

func TestReceiveCounts(t *testing.T) {
	msg := "*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$1\r\nx\r\n"
	s := reader(strings.Repeat(msg, 5))
	if err := s.receive(5, "ch"); err != nil || s.count != 5 {
		t.Fatalf("receive: count %d, %v", s.count, err)
	}
}

func TestCommand(t *testing.T) {
	if got, want := string(command("PUBLISH", "ch", "")), "*3\r\n$7\r\nPUBLISH\r\n$2\r\nch\r\n$0\r\n\r\n"; got != want {
		t.Fatalf("command: %q, want %q", got, want)
	}
}

func TestCPUTicks(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	if n, err := cpuTicks(os.Getpid()); err != nil || n < 0 {
		t.Fatalf("cpuTicks: %d, %v", n, err)
	}
}
