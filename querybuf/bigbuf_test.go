package querybuf

import (
	"bytes"
	"fmt"
	"testing"
)

// fakeBigBuffers hands out numbered Go buffers and records what comes back.
type fakeBigBuffers struct {
	next int
	out  map[uint32]int
}

func (f *fakeBigBuffers) Get(n int) ([]byte, uint32, bool) {
	f.next++
	f.out[uint32(f.next)] = n
	return make([]byte, n), uint32(f.next), true
}

func (f *fakeBigBuffers) Put(token uint32, n int) {
	if f.out[token] != n {
		panic(fmt.Sprintf("Put(%d, %d) of a buffer that is not out with that size", token, n))
	}
	delete(f.out, token)
}

func TestBigBuffersTakeAndRelease(t *testing.T) {
	f := &fakeBigBuffers{out: map[uint32]int{}}
	p := NewParser(DefaultLimits())
	p.SetBigBuffers(f)
	big := bytes.Repeat([]byte("v"), BigArgThreshold+5)
	cmd := fmt.Sprintf("*4\r\n$4\r\nMSET\r\n$1\r\na\r\n$%d\r\n%s\r\n$1\r\nb\r\n", len(big), big)
	cmd2 := fmt.Sprintf("*2\r\n$3\r\nSET\r\n$%d\r\n%s\r\n", len(big), big)
	if _, err := p.Parse([]byte(cmd + cmd2)); err != nil || p.NumCommands() != 2 {
		t.Fatalf("parse: %v, %d commands", err, p.NumCommands())
	}
	if len(f.out) != 2 {
		t.Fatalf("%d big buffers out, want 2", len(f.out))
	}
	arg := p.Command(0).Arg(2)
	if _, ok := p.TakeBig(arg[:len(arg)-1]); ok {
		t.Fatal("TakeBig of a shorter view succeeded")
	}
	if _, ok := p.TakeBig(p.Command(0).Arg(1)); ok {
		t.Fatal("TakeBig of a small argument succeeded")
	}
	token, ok := p.TakeBig(arg)
	if !ok || f.out[token] != len(big)+2 || !bytes.Equal(arg, big) {
		t.Fatalf("TakeBig: token %d ok %v", token, ok)
	}
	if _, again := p.TakeBig(arg); again {
		t.Fatal("a big argument was taken twice")
	}
	p.ResetCommands()
	if len(f.out) != 1 || f.out[token] == 0 {
		t.Fatalf("after ResetCommands: out %v; only the taken buffer should be out", f.out)
	}
	// A big argument in progress is given back by Reset.
	p.Parse([]byte(fmt.Sprintf("*2\r\n$3\r\nGET\r\n$%d\r\nxx", BigArgThreshold)))
	if len(f.out) != 2 {
		t.Fatalf("in progress: %d out", len(f.out))
	}
	p.Reset()
	if len(f.out) != 1 {
		t.Fatalf("after Reset: %v", f.out)
	}
}

// TestBigArgStaging: the first bytes of a big argument from BigBuffers stay with the caller
// until BigArgStage of them are there, then go into the buffer, where the rest is read.
func TestBigArgStaging(t *testing.T) {
	f := &fakeBigBuffers{out: map[uint32]int{}}
	p := NewParser(DefaultLimits())
	p.SetBigBuffers(f)
	const size = 100000
	header := fmt.Sprintf("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$%d\r\n", size)
	first := bytes.Repeat([]byte("a"), 5000)
	consumed, err := p.Parse(append([]byte(header), first...))
	if err != nil || consumed != len(header) {
		t.Fatalf("Parse consumed %d of %d header bytes, err %v: the 5,000 bytes should be staged", consumed, len(header), err)
	}
	if p.BigArgSize() != size+2 || p.BigArgTail() != nil || p.BigArgGot() != 0 {
		t.Fatalf("while staging: size %d, tail %d, got %d", p.BigArgSize(), len(p.BigArgTail()), p.BigArgGot())
	}
	// Staged bytes presented again with more: still under the stage, still the caller's.
	more := append(first, bytes.Repeat([]byte("b"), 1000)...)
	if consumed, _ := p.Parse(more); consumed != 0 {
		t.Fatalf("consumed %d bytes below the stage", consumed)
	}
	more = append(more, bytes.Repeat([]byte("c"), BigArgStage)...)
	if consumed, _ := p.Parse(more); consumed != len(more) {
		t.Fatalf("consumed %d of %d bytes past the stage", consumed, len(more))
	}
	if p.BigArgGot() != len(more) || len(p.BigArgTail()) != size+2-len(more) {
		t.Fatalf("after the stage: got %d, tail %d", p.BigArgGot(), len(p.BigArgTail()))
	}
	rest := append(bytes.Repeat([]byte("d"), size-len(more)), "\r\n"...)
	copy(p.BigArgTail(), rest)
	if err := p.BigArgAdvance(len(rest)); err != nil || p.NumCommands() != 1 {
		t.Fatalf("advance: %v, %d commands", err, p.NumCommands())
	}
	want := string(more) + string(rest[:len(rest)-2])
	if got := string(p.Command(0).Arg(2)); got != want {
		t.Fatalf("value of %d bytes differs from the %d sent", len(got), len(want))
	}
	// Without BigBuffers (the Go heap) nothing is staged: the bytes go straight in.
	q := NewParser(DefaultLimits())
	if consumed, _ := q.Parse(append([]byte(header), first...)); consumed != len(header)+len(first) || q.BigArgGot() != len(first) {
		t.Fatalf("Go-heap big argument: consumed %d, got %d", consumed, q.BigArgGot())
	}
}
