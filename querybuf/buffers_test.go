package querybuf

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// TestBuffersAdopt: a big argument is read into a large object of the clients' arena, and a
// shard's arena adopts it as an sds string without a copy: the accounting moves with it, the
// bytes are the same memory. Anything else is refused, and what nobody took goes back.
func TestBuffersAdopt(t *testing.T) {
	b := newTestBuffers(t)
	shard := alloc.MustNewArena(0)
	defer shard.Close()
	p := NewParser(DefaultLimits())
	p.SetBigBuffers(&b)
	val := bytes.Repeat([]byte("0123456789"), 5000)
	cmd := fmt.Sprintf("*4\r\n$4\r\nMSET\r\n$1\r\nk\r\n$%d\r\n%s\r\n$1\r\nv\r\n", len(val), val)
	if _, err := p.Parse([]byte(cmd)); err != nil || p.NumCommands() != 1 {
		t.Fatalf("parse: %v, %d commands", err, p.NumCommands())
	}
	args := p.Command(0)
	if args.LenSum() != 4+1+len(val)+1 {
		t.Fatalf("LenSum %d", args.LenSum())
	}
	clientUsed := b.arena.Used()
	if clientUsed < int64(len(val)) {
		t.Fatalf("the big argument is not in the clients' arena: %d bytes used", clientUsed)
	}
	if _, ok := b.Adopt(p, shard, args.Arg(1)); ok {
		t.Fatal("a small argument was adopted")
	}
	s, ok := b.Adopt(p, shard, args.Arg(2))
	if !ok {
		t.Fatal("the big argument was not adopted")
	}
	if got := s.Bytes(shard); !bytes.Equal(got, val) || &got[0] != &args.Arg(2)[0] {
		t.Fatal("the adopted string is not the argument's own bytes")
	}
	if _, again := b.Adopt(p, shard, args.Arg(2)); again {
		t.Fatal("adopted twice")
	}
	if b.arena.Used() >= clientUsed/2 || shard.Used() < int64(len(val)) {
		t.Fatalf("accounting did not move: clients %d, shard %d", b.arena.Used(), shard.Used())
	}
	s.Free(shard)
	// One not adopted goes back when its command is dropped.
	if _, err := p.Parse([]byte(cmd)); err != nil {
		t.Fatal(err)
	}
	p.ResetCommands()
	if b.arena.Used() != 0 || shard.Used() != 0 {
		t.Fatalf("after ResetCommands: clients %d, shard %d bytes", b.arena.Used(), shard.Used())
	}
}

// TestRecycle: a parser given back after a command bigger than a read drops the arena it grew;
// one that served ordinary pipelined reads keeps its buffers for the next client.
func TestRecycle(t *testing.T) {
	p := NewParser(DefaultLimits())
	// 16 KiB of pipelined small commands, as one read brings them.
	var batch strings.Builder
	for batch.Len() < SharedBufferSize-64 {
		batch.WriteString("*3\r\n$3\r\nSET\r\n$4\r\nkey1\r\n$4\r\nval1\r\n")
	}
	if _, err := p.Parse([]byte(batch.String())); err != nil {
		t.Fatal(err)
	}
	p.ResetCommands()
	kept := p.ArgvMem()
	p.Recycle()
	if p.ArgvMem() != kept {
		t.Fatalf("after a read of small commands: %d bytes of arena, want the %d kept", p.ArgvMem(), kept)
	}
	// A 47 KB MSET: 47 values of 1,000 bytes, small arguments all.
	args := []string{"MSET"}
	for i := range 47 {
		args = append(args, fmt.Sprintf("k%d", i), strings.Repeat("v", 1000))
	}
	var cmd strings.Builder
	fmt.Fprintf(&cmd, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&cmd, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := p.Parse([]byte(cmd.String())); err != nil || p.NumCommands() != 1 {
		t.Fatalf("parse: %v", err)
	}
	if p.ArgvMem() < 47000 {
		t.Fatalf("the MSET's arena holds %d bytes", p.ArgvMem())
	}
	p.ResetCommands()
	p.Recycle()
	if m := p.ArgvMem(); m > 2*trimThreshold {
		t.Fatalf("after the MSET: %d bytes of arena kept", m)
	}
	if cap(p.buf) > trimThreshold {
		t.Fatalf("the MSET's flat buffer (%d bytes) was kept", cap(p.buf))
	}
}
