package main

import (
	"bytes"
	"testing"
)

func TestCommands(t *testing.T) {
	for _, c := range []struct {
		cmd   string
		start int
		n     int
		want  string
	}{
		{"zadd", 7, 2, "*4\r\n$4\r\nZADD\r\n$1\r\nz\r\n$1\r\n7\r\n$6\r\nm:0007\r\n" +
			"*4\r\n$4\r\nZADD\r\n$1\r\nz\r\n$1\r\n8\r\n$6\r\nm:0008\r\n"},
		{"zaddn", 3, 1, "*8\r\n$4\r\nZADD\r\n$6\r\nm:0003\r\n$1\r\n0\r\n$2\r\nm0\r\n$1\r\n1\r\n$2\r\nm1\r\n$1\r\n2\r\n$2\r\nm2\r\n"},
	} {
		gen, err := generator(c.cmd, "z", "m:", 4, 3)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := write(&buf, gen, c.start, c.n); err != nil || buf.String() != c.want {
			t.Errorf("%s: %q, want %q (%v)", c.cmd, buf.String(), c.want, err)
		}
	}
	if _, err := generator("zadd", "", "m:", 4, 3); err == nil {
		t.Error("zadd without a key")
	}
	if _, err := generator("nope", "z", "m:", 4, 3); err == nil {
		t.Error("unknown command")
	}
}
