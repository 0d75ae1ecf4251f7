package server

import (
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listval"
)

// TestListConfig: CONFIG SET of list-max-listpack-size (and its list-max-ziplist-size alias)
// moves the point where pushes make a quicklist. Not parallel: the fill is the process's.
func TestListConfig(t *testing.T) {
	s := newFakeClockServer(t, newFakeClock())
	t.Cleanup(func() { listval.SetLimits(listval.DefaultFill) })
	encodingAfter := func(n int) string {
		a := alloc.MustNewArena(1 << 30)
		defer a.Close()
		rec, err := listval.New(a, []byte("l"), 0)
		if err != nil {
			t.Fatal(err)
		}
		for range n {
			if err := listval.PushTail(a, rec, []byte("elem")); err != nil {
				t.Fatal(err)
			}
		}
		return listval.Encoding(a, rec).Name()
	}
	if got := encodingAfter(100); got != "listpack" {
		t.Fatalf("default fill, 100 elements: %s", got)
	}
	for _, name := range []string{"list-max-listpack-size", "list-max-ziplist-size"} {
		if err := s.cfg.Set([2]string{name, "4"}); err != nil {
			t.Fatal(err)
		}
		if a, b := encodingAfter(4), encodingAfter(5); a != "listpack" || b != "quicklist" {
			t.Fatalf("%s 4: 4 elements %s, 5 elements %s", name, a, b)
		}
		if err := s.cfg.Set([2]string{name, "-2"}); err != nil {
			t.Fatal(err)
		}
		if got := encodingAfter(100); got != "listpack" {
			t.Fatalf("%s -2, 100 elements: %s", name, got)
		}
	}
}
