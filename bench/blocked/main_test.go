package main

import (
	"bufio"
	"io"
	"net"
	"strconv"
	"testing"
	"time"
)

func TestPct(t *testing.T) {
	ds := make([]time.Duration, 1000)
	for i := range ds {
		ds[len(ds)-1-i] = time.Duration(i+1) * time.Microsecond // 1000 µs … 1 µs: pct sorts
	}
	for _, c := range []struct{ q, want float64 }{{50, 500}, {99, 990}, {99.9, 999}, {100, 1000}, {0, 1}} {
		if got := pct(ds, c.q); got != c.want {
			t.Errorf("pct(%v) = %v µs, want %v", c.q, got, c.want)
		}
	}
	if got := mean(ds); got != 500.5 {
		t.Errorf("mean = %v µs, want 500.5", got)
	}
}

func TestAppendCommand(t *testing.T) {
	if got, want := string(appendCommand(nil, "BLPOP", "key:7", "0")), "*3\r\n$5\r\nBLPOP\r\n$5\r\nkey:7\r\n$1\r\n0\r\n"; got != want {
		t.Fatalf("appendCommand: %q, want %q", got, want)
	}
}

// serve answers each command read on c with the next of replies, after checking it is want.
func serve(t *testing.T, c net.Conn, want string, replies ...string) {
	r := bufio.NewReader(c)
	for _, reply := range replies {
		got := make([]byte, len(want))
		if _, err := io.ReadFull(r, got); err != nil || string(got) != want {
			t.Errorf("server read %q, %v; want %q", got, err, want)
			return
		}
		c.Write([]byte(reply))
	}
}

func TestInfoField(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	body := "# Clients\r\nconnected_clients:3\r\nblocked_clients:10000\r\n"
	go serve(t, server, string(appendCommand(nil, "INFO", "clients")),
		"$"+strconv.Itoa(len(body))+"\r\n"+body+"\r\n", "$"+strconv.Itoa(len(body))+"\r\n"+body+"\r\n", "-ERR unknown\r\n")
	c := &conn{c: client, r: bufio.NewReader(client)}
	if v, err := c.infoField("clients", "blocked_clients"); err != nil || v != 10000 {
		t.Fatalf("infoField: %d, %v; want 10000", v, err)
	}
	if _, err := c.infoField("clients", "total_blocking_keys"); err == nil {
		t.Fatal("infoField of a missing field: no error")
	}
	if _, err := c.infoField("clients", "blocked_clients"); err == nil {
		t.Fatal("infoField of an error reply: no error")
	}
}

func TestReply(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	go server.Write([]byte("*2\r\n$5\r\nkey:1\r\n$1\r\nv\r\n*-1\r\n"))
	c := &conn{c: client, r: bufio.NewReader(client)}
	if err := c.reply("*2\r\n$5\r\nkey:1\r\n$1\r\nv\r\n", "BLPOP"); err != nil {
		t.Fatal(err)
	}
	if err := c.reply("*2\r\n", "BLPOP"); err == nil {
		t.Fatal("reply of a null array where an element was due: no error")
	}
}
