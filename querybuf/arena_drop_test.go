package querybuf

import (
	"strings"
	"testing"
)

// TestDropBigArena: after a command bigger than the trim threshold has run, the arena's big
// buffers go; a small command's stay; a half-parsed command keeps everything.
func TestDropBigArena(t *testing.T) {
	p := NewParser(DefaultLimits())
	var cmd strings.Builder
	cmd.WriteString("*41\r\n$4\r\nMSET\r\n")
	for range 20 {
		cmd.WriteString("$1\r\nk\r\n$2000\r\n" + strings.Repeat("v", 2000) + "\r\n")
	}
	if _, err := p.Parse([]byte(cmd.String())); err != nil || p.NumCommands() != 1 {
		t.Fatalf("parse: %v, %d commands", err, p.NumCommands())
	}
	if cap(p.buf) <= trimThreshold {
		t.Fatalf("arena %d bytes: the test needs one above %d", cap(p.buf), trimThreshold)
	}
	// Half of a next command arrives with the big one: nothing may be dropped.
	if _, err := p.Parse([]byte("*2\r\n$3\r\nGET\r\n$1\r\n")); err != nil {
		t.Fatal(err)
	}
	p.ResetCommands()
	p.DropBigArena()
	if !p.MidCommand() || cap(p.buf) <= trimThreshold {
		t.Fatal("dropped the arena under a half-parsed command")
	}
	p.Reset()
	if _, err := p.Parse([]byte(cmd.String())); err != nil || p.NumCommands() != 1 {
		t.Fatalf("parse: %v", err)
	}
	p.ResetCommands()
	p.DropBigArena()
	if cap(p.buf) > trimThreshold {
		t.Errorf("arena of %d bytes kept after the big command ran", cap(p.buf))
	}
	small := "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n"
	if _, err := p.Parse([]byte(small)); err != nil {
		t.Fatal(err)
	}
	c := cap(p.buf)
	p.ResetCommands()
	p.DropBigArena()
	if cap(p.buf) != c {
		t.Errorf("a small arena went: %d → %d", c, cap(p.buf))
	}
	if n := testing.AllocsPerRun(100, p.DropBigArena); n != 0 {
		t.Errorf("DropBigArena allocates %v", n)
	}
}
