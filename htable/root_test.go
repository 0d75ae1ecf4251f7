package htable

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// TestRootedNoLeak creates a table rooted in the arena, fills it with 100,000 entries (a view
// per operation, as commands will), empties it and destroys it: the arena's charge returns to
// where it was before Create. 500,000 entries take an array of several segments.
func TestRootedNoLeak(t *testing.T) {
	testRootedNoLeak(t, 100_000)
	if !raceEnabled {
		testRootedNoLeak(t, 500_000)
	}
}

func testRootedNoLeak(t *testing.T, n int) {
	a := testArena(t)
	other := newEntry(a, []byte("unrelated"), []byte("allocation"))
	before := a.Used()
	root, err := Create(a)
	if err != nil {
		t.Fatal(err)
	}
	v := []byte("value")
	for i := range n {
		tab := Open(a, entryField, root)
		k := key(i)
		if err := tab.Insert(Hash(k), newEntry(a, k, v)); err != nil {
			t.Fatal(err)
		}
	}
	tab := Open(a, entryField, root)
	if tab.Len() != int64(n) || n > 432_000 && !tab.hdr.ht[0].directory() {
		t.Fatalf("%d entries, %d buckets: want %d entries", tab.Len(), tab.hdr.ht[0].size, n)
	}
	if err := tab.Check(); err != nil {
		t.Fatal(err)
	}
	if used, want := a.Used(), before+tab.Bytes()+int64(n*alloc.UsableSize(entrySize(key(0), v))); used != want {
		t.Fatalf("full: arena uses %d bytes, entries and table %d", used, want)
	}
	for i := range n {
		tab := Open(a, entryField, root)
		k := key(i)
		p, ok := tab.Find(k, Hash(k))
		if !ok {
			t.Fatalf("%q missing", k)
		}
		h := p.Handle()
		tab.DeleteAt(p)
		freeEntry(a, h)
	}
	tab = Open(a, entryField, root)
	if tab.Len() != 0 {
		t.Fatalf("%d entries left", tab.Len())
	}
	tab.Destroy(func(alloc.Handle) { t.Fatal("an entry left") })
	if used := a.Used(); used != before {
		t.Fatalf("arena uses %d bytes after Destroy, %d before Create", used, before)
	}
	freeEntry(a, other)
}

// TestRootedDestroyFull destroys a table rooted in the arena while it is full and resizing:
// every bucket, segment and directory goes back, and fn sees every entry once.
func TestRootedDestroyFull(t *testing.T) {
	th := newRootedHarness(t)
	for i := 0; !th.tab.Resizing() || th.tab.hdr.ht[0].size < 2*segmentBuckets; i++ {
		th.insert(key(i))
	}
	seen := 0
	th.tab.Destroy(func(h alloc.Handle) { seen++; freeEntry(th.a, h) })
	if seen != len(th.model) {
		t.Fatalf("Destroy saw %d entries of %d", seen, len(th.model))
	}
	if used := th.a.Used(); used != 0 {
		t.Fatalf("arena uses %d bytes after Destroy", used)
	}
}

// TestRootedNoGoAllocs: opening a view and finding, inserting or deleting through it allocates
// nothing on the Go heap, in a table of one segment and in one with a directory.
func TestRootedNoGoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, n := range []int{1000, 500_000} {
		a := testArena(t)
		root, err := Create(a)
		if err != nil {
			t.Fatal(err)
		}
		keys := make([][]byte, n+2000) // AllocsPerRun runs its function 1,001 times
		for i := range keys {
			keys[i] = key(i)
		}
		entries := make([]alloc.Handle, len(keys))
		for i := range keys {
			entries[i] = newEntry(a, keys[i], nil)
		}
		for i := range n {
			tab := Open(a, entryField, root)
			if err := tab.Insert(Hash(keys[i]), entries[i]); err != nil {
				t.Fatal(err)
			}
		}
		i := 0
		if allocs := testing.AllocsPerRun(1000, func() {
			tab := Open(a, entryField, root)
			if _, ok := tab.Find(keys[i%n], Hash(keys[i%n])); !ok {
				t.Fatal("missing")
			}
			i++
		}); allocs != 0 {
			t.Errorf("%d entries: Open+Find: %v Go allocations", n, allocs)
		}
		j := n
		if allocs := testing.AllocsPerRun(1000, func() {
			tab := Open(a, entryField, root)
			k := keys[j]
			if _, ok := tab.Find(k, Hash(k)); ok {
				t.Fatal("present")
			}
			if err := tab.Insert(Hash(k), entries[j]); err != nil {
				t.Fatal(err)
			}
			j++
		}); allocs != 0 {
			t.Errorf("%d entries: Open+Find+Insert: %v Go allocations", n, allocs)
		}
		if allocs := testing.AllocsPerRun(1000, func() {
			j--
			tab := Open(a, entryField, root)
			p, ok := tab.Find(keys[j], Hash(keys[j]))
			if !ok {
				t.Fatal("missing")
			}
			tab.DeleteAt(p)
		}); allocs != 0 {
			t.Errorf("%d entries: Open+Find+DeleteAt: %v Go allocations", n, allocs)
		}
	}
}

// TestRootedHeaderBytes logs (and bounds) what a table rooted in the arena costs beyond its
// buckets: its header, and the directory of an array of more than one segment.
func TestRootedHeaderBytes(t *testing.T) {
	if raceEnabled {
		t.Skip("slow under -race")
	}
	for _, c := range []struct{ n, max int }{{0, 64}, {1000, 64}, {1_000_000, 80}} {
		th := newRootedHarness(t)
		for i := range c.n {
			f := fmt.Appendf(nil, "field:%010d", i)
			if err := th.tab.Insert(Hash(f), newEntry(th.a, f, nil)); err != nil {
				t.Fatal(err)
			}
		}
		for th.tab.Rehash(1 << 20) {
		}
		over := alloc.UsableSize(headerSize)
		if arr := th.tab.hdr.ht[0]; arr.directory() {
			over += alloc.UsableSize(arr.directoryBytes())
		}
		t.Logf("%d entries: %d buckets (%d segments); header + directory %d bytes; table %d bytes in all",
			c.n, th.tab.hdr.ht[0].size, th.tab.hdr.ht[0].segments(), over, th.tab.Bytes())
		if over > c.max {
			t.Errorf("%d entries: header + directory %d bytes, want at most %d", c.n, over, c.max)
		}
	}
}

// TestRootedDestroyStep destroys tables a bounded amount at a time — idle, in a resize's zeroing
// phase, in its moving phase, and (without -race) with an array of several segments — opening
// a new view for each step as lazy freeing does. After every step the arena holds exactly the
// table's remaining Bytes and the entries not yet handed to fn; fn sees every entry once, no
// step hands out much more than its budget, and at the end the arena is back to zero.
func TestRootedDestroyStep(t *testing.T) {
	cases := []struct {
		name   string
		budget int
		until  func(th *tableHarness, i int) bool
	}{
		{"idle", 100, func(th *tableHarness, i int) bool { return i == 5000 }},
		{"zeroing", 100, func(th *tableHarness, i int) bool {
			return th.tab.Resizing() && !th.tab.Moving() && th.tab.hdr.ht[1].size >= 1024
		}},
		{"moving", 100, func(th *tableHarness, i int) bool {
			return th.tab.Moving() && th.tab.hdr.rehashIdx > 16 && th.tab.hdr.ht[0].size >= 512
		}},
		{"one entry", 100, func(th *tableHarness, i int) bool { return i == 1 }},
		{"empty", 100, func(th *tableHarness, i int) bool { return i == 0 }},
	}
	if !raceEnabled {
		cases = append(cases, struct {
			name   string
			budget int
			until  func(th *tableHarness, i int) bool
		}{"segments", 20_000, func(th *tableHarness, i int) bool {
			return i >= 500_000 && !th.tab.Resizing()
		}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			th := newRootedHarness(t)
			for i := 0; !c.until(th, i); i++ {
				th.insert(key(i))
			}
			if c.name == "idle" {
				for th.tab.Rehash(1 << 20) {
				}
			}
			n := len(th.model)
			left := make(map[alloc.Handle]bool, n)
			for _, h := range th.model {
				left[h] = true
			}
			steps := 0
			for done := false; !done; steps++ {
				tab := Open(th.a, entryField, th.root)
				calls := 0
				done = tab.DestroyStep(func(h alloc.Handle) {
					if !left[h] {
						t.Fatalf("entry %d handed out twice, or unknown", h)
					}
					delete(left, h)
					th.recs -= int64(alloc.UsableSize(entrySize(entryField(th.a, h), entryValue(th.a, h))))
					freeEntry(th.a, h)
					calls++
				}, c.budget)
				if calls > c.budget+3*bucketSlots {
					t.Fatalf("step %d handed out %d entries, budget %d", steps, calls, c.budget)
				}
				if done {
					break
				}
				tab = Open(th.a, entryField, th.root)
				if tab.Len() != int64(len(left)) {
					t.Fatalf("step %d: Len %d, %d entries left", steps, tab.Len(), len(left))
				}
				if used, want := th.a.Used(), tab.Bytes()+th.recs; used != want {
					t.Fatalf("step %d: arena uses %d, table %d + entries %d", steps, used, tab.Bytes(), th.recs)
				}
			}
			if len(left) != 0 {
				t.Fatalf("%d entries never handed out", len(left))
			}
			if used := th.a.Used(); used != 0 {
				t.Fatalf("arena uses %d bytes after the last step", used)
			}
			if n > 10*c.budget && steps < n/(2*c.budget) {
				t.Fatalf("%d entries destroyed in %d steps of budget %d", n, steps, c.budget)
			}
			t.Logf("%d entries, %d steps", n, steps)
		})
	}
}
