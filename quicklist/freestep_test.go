package quicklist

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// TestFreeStep: a list freed a few nodes at a time shrinks from the head, stays well formed, and
// gives back every byte once the last step reports done.
func TestFreeStep(t *testing.T) {
	a := alloc.MustNewArena(1 << 30)
	defer a.Close()
	before := a.Used()
	l, err := New(a, 4) // 4 entries a node: 1,000 elements make 250 nodes
	if err != nil {
		t.Fatal(err)
	}
	for i := range 1000 {
		if err := l.PushTail(a, []byte(fmt.Sprintf("element:%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	steps := 0
	for !l.FreeStep(a, 64) {
		steps++
		if err := l.Check(a); err != nil {
			t.Fatalf("after step %d: %v", steps, err)
		}
		if want := 1000 - 4*64*steps; l.Len(a) != want {
			t.Fatalf("after step %d: %d elements, want %d", steps, l.Len(a), want)
		}
		if s, _, _, _ := l.Index(a, 0); string(s) != fmt.Sprintf("element:%d", 4*64*steps) {
			t.Fatalf("after step %d: head %q", steps, s)
		}
	}
	if steps != 3 {
		t.Fatalf("%d steps before done, want 3 (250 nodes, 64 a step)", steps)
	}
	if a.Used() != before {
		t.Fatalf("arena holds %d bytes after the last step, want %d", a.Used(), before)
	}
}
