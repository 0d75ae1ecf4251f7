package htable

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// Test entries are what a hash will keep: a field and its value in one arena allocation,
// lengths first, so the table is tested on its own, without object's layout.
//
//	offset 0  field length (uint16)
//	       2  value length (uint16)
//	       4  field, then value

func entrySize(field, value []byte) int { return 4 + len(field) + len(value) }

func newEntry(a *alloc.Arena, field, value []byte) alloc.Handle {
	n := entrySize(field, value)
	h := a.Alloc(n)
	if h == 0 {
		panic("out of memory")
	}
	b := a.Bytes(h, n)
	binary.LittleEndian.PutUint16(b, uint16(len(field)))
	binary.LittleEndian.PutUint16(b[2:], uint16(len(value)))
	copy(b[4+copy(b[4:], field):], value)
	return h
}

// entryLens reads an entry's field and value lengths.
func entryLens(a *alloc.Arena, h alloc.Handle) (f, v int) {
	b := a.Bytes(h, 4)
	return int(binary.LittleEndian.Uint16(b)), int(binary.LittleEndian.Uint16(b[2:]))
}

// entryField is the tables' KeyFunc in these tests.
func entryField(a *alloc.Arena, h alloc.Handle) []byte {
	f, _ := entryLens(a, h)
	return a.Bytes(h, 4+f)[4:]
}

func entryValue(a *alloc.Arena, h alloc.Handle) []byte {
	f, v := entryLens(a, h)
	return a.Bytes(h, 4+f+v)[4+f:]
}

func freeEntry(a *alloc.Arena, h alloc.Handle) {
	f, v := entryLens(a, h)
	a.Free(h, 4+f+v)
}

// valueOf is the value the harness gives field at its version-th write.
func valueOf(field []byte, version int) []byte { return fmt.Appendf(nil, "v%d:%s", version, field) }

// testArena makes an arena with a small reservation (tests make many) that is closed after.
func testArena(t testing.TB) *alloc.Arena {
	a := alloc.MustNewArena(4 << 30)
	t.Cleanup(a.Close)
	return a
}

// tableHarness drives a table of test records and keeps a model of it.
type tableHarness struct {
	t       testing.TB
	a       *alloc.Arena
	tab     *Table
	model   map[string]alloc.Handle // field → its entry
	version map[string]int          // field → how many times it was written
	recs    int64                   // bytes of live entries
	root    alloc.Handle            // the table's header when it is rooted in the arena
}

// newRootedHarness is a harness whose table is rooted in the arena (Create): every operation
// of the harness opens a new view, so the table's whole state must live in its header.
func newRootedHarness(t testing.TB) *tableHarness {
	th := newTableHarness(t)
	root, err := Create(th.a)
	if err != nil {
		t.Fatal(err)
	}
	th.root = root
	th.reopen()
	return th
}

// reopen replaces a rooted table's view by a new one.
func (th *tableHarness) reopen() {
	if th.root != 0 {
		v := Open(th.a, entryField, th.root)
		th.tab = &v
	}
}

// emptyBytes is what the arena holds for an empty table: its header, if rooted.
func (th *tableHarness) emptyBytes() int64 {
	if th.root != 0 {
		return int64(alloc.UsableSize(headerSize))
	}
	return 0
}

// forms runs a test on both forms of table: made by New, and rooted in the arena.
func forms(t *testing.T, test func(t *testing.T, newHarness func(testing.TB) *tableHarness)) {
	t.Run("go", func(t *testing.T) { test(t, newTableHarness) })
	t.Run("rooted", func(t *testing.T) { test(t, newRootedHarness) })
}

func newTableHarness(t testing.TB) *tableHarness {
	a := testArena(t)
	return &tableHarness{t: t, a: a, tab: New(a, entryField), model: map[string]alloc.Handle{}, version: map[string]int{}}
}

func (th *tableHarness) insert(key []byte) {
	th.reopen()
	if _, ok := th.tab.Find(key, Hash(key)); ok {
		th.t.Fatalf("insert %q: already present", key)
	}
	th.version[string(key)]++
	v := valueOf(key, th.version[string(key)])
	h := newEntry(th.a, key, v)
	if err := th.tab.Insert(Hash(key), h); err != nil {
		th.t.Fatal(err)
	}
	th.model[string(key)] = h
	th.recs += int64(alloc.UsableSize(entrySize(key, v)))
}

func (th *tableHarness) delete(key []byte) bool {
	th.reopen()
	p, ok := th.tab.Find(key, Hash(key))
	if _, want := th.model[string(key)]; ok != want {
		th.t.Fatalf("delete %q: found %v, model %v", key, ok, want)
	}
	if !ok {
		return false
	}
	h := p.Handle()
	th.recs -= int64(alloc.UsableSize(entrySize(key, entryValue(th.a, h))))
	th.tab.DeleteAt(p)
	freeEntry(th.a, h)
	delete(th.model, string(key))
	return true
}

// replace gives key a new value in a new entry, as HSET will when the value's size changes.
func (th *tableHarness) replace(key []byte) {
	th.reopen()
	p, ok := th.tab.Find(key, Hash(key))
	if !ok {
		th.t.Fatalf("replace %q: not found", key)
	}
	old := p.Handle()
	th.version[string(key)]++
	v := valueOf(key, th.version[string(key)])
	h := newEntry(th.a, key, v)
	th.tab.ReplaceAt(p, h)
	th.recs += int64(alloc.UsableSize(entrySize(key, v))) - int64(alloc.UsableSize(entrySize(key, entryValue(th.a, old))))
	freeEntry(th.a, old)
	th.model[string(key)] = h
}

func (th *tableHarness) lookup(key []byte) {
	th.reopen()
	p, ok := th.tab.Find(key, Hash(key))
	want, inModel := th.model[string(key)]
	if ok != inModel || (ok && p.Handle() != want) {
		th.t.Fatalf("lookup %q: found %v, model %v", key, ok, inModel)
	}
	if ok && !bytes.Equal(entryValue(th.a, p.Handle()), valueOf(key, th.version[string(key)])) {
		th.t.Fatalf("lookup %q: value %q", key, entryValue(th.a, p.Handle()))
	}
}

// check verifies the table's structure and that it holds exactly the model, and that the
// arena holds exactly the entries and the table.
func (th *tableHarness) check() {
	th.t.Helper()
	th.reopen()
	if err := th.tab.Check(); err != nil {
		th.t.Fatal(err)
	}
	if n := th.tab.Len(); n != int64(len(th.model)) {
		th.t.Fatalf("table has %d entries, model %d", n, len(th.model))
	}
	for k, h := range th.model {
		p, ok := th.tab.FindMatch(Hash([]byte(k)), func(x alloc.Handle) bool { return x == h })
		if !ok || p.Handle() != h {
			th.t.Fatalf("key %q missing", k)
		}
		if got, want := entryValue(th.a, h), valueOf([]byte(k), th.version[k]); !bytes.Equal(got, want) {
			th.t.Fatalf("key %q: value %q, want %q", k, got, want)
		}
	}
	if used, want := th.a.Used(), th.recs+th.tab.Bytes(); used != want {
		th.t.Fatalf("arena uses %d bytes, records and table %d", used, want)
	}
}

func key(i int) []byte { return fmt.Appendf(nil, "key:%012d", i) }

func TestTableBasic(t *testing.T) { forms(t, testTableBasic) }

func testTableBasic(t *testing.T, newHarness func(testing.TB) *tableHarness) {
	th := newHarness(t)
	th.lookup([]byte("missing"))
	for i := range 1000 {
		th.insert(key(i))
	}
	th.check()
	for i := range 1000 {
		th.lookup(key(i))
	}
	for i := 0; i < 1000; i += 3 {
		th.replace(key(i))
	}
	th.check()
	for i := 0; i < 1000; i += 2 {
		th.delete(key(i))
	}
	th.check()
	for i := range 1000 {
		th.lookup(key(i))
	}
	for i := range 1000 {
		th.delete(key(i))
	}
	th.check()
	if used := th.a.Used(); used != th.emptyBytes() {
		t.Fatalf("empty table: arena uses %d bytes", used)
	}
}

// TestTableChains puts 200 keys in one chain (keys whose hashes agree in their low 8 bits share
// bucket 0 of every array up to 256 buckets) and deletes them in random order: chaining, and
// compaction freeing the children.
func TestTableChains(t *testing.T) { forms(t, testTableChains) }

func testTableChains(t *testing.T, newHarness func(testing.TB) *tableHarness) {
	th := newHarness(t)
	var keys [][]byte
	for i := 0; len(keys) < 200; i++ {
		if k := key(i); Hash(k)&0xff == 0 {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		th.insert(k)
	}
	th.check()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, i := range rng.Perm(len(keys)) {
		th.delete(keys[i])
		if i%7 == 0 {
			th.check()
		}
	}
	th.check()
	if th.tab.hdr.children != 0 {
		t.Fatalf("%d child buckets left in an empty table", th.tab.hdr.children)
	}
}

// TestTableModel runs random operations against a Go map, with the key count swinging so the
// table grows and shrinks, and checks everything every few hundred operations (often in the
// middle of a resize).
func TestTableModel(t *testing.T) { forms(t, testTableModel) }

func testTableModel(t *testing.T, newHarness func(testing.TB) *tableHarness) {
	th := newHarness(t)
	rng := rand.New(rand.NewPCG(3, 4))
	universe := 20000
	resizesSeen := 0
	steps := 40000
	if raceEnabled {
		steps = 10000
	}
	for round := range 6 {
		target := []int{5000, 200, 15000, 10, 3000, 0}[round]
		for step := 0; step < steps; step++ {
			k := key(rng.IntN(universe))
			switch op := rng.IntN(10); {
			case op < 4:
				if _, ok := th.model[string(k)]; !ok && len(th.model) < target {
					th.insert(k)
				} else if ok {
					th.replace(k)
				}
			case op < 7:
				if len(th.model) > target {
					th.delete(k)
				}
			default:
				th.lookup(k)
			}
			if th.tab.Resizing() {
				resizesSeen++
			}
			if step%1000 == 0 {
				th.check()
			}
		}
		th.check()
	}
	for k := range th.model {
		th.delete([]byte(k))
	}
	th.check()
	if resizesSeen == 0 {
		t.Fatal("no operation ran during a resize")
	}
	if used := th.a.Used(); used != th.emptyBytes() {
		t.Fatalf("empty table: arena uses %d bytes", used)
	}
}

// TestTableResizePolicy checks the sizes the policy picks.
func TestTableResizePolicy(t *testing.T) {
	th := newTableHarness(t)
	finish := func() {
		for th.tab.Rehash(1 << 20) {
		}
	}
	for i := range 13 {
		th.insert(key(i))
	}
	finish()
	if s := th.tab.hdr.ht[0].size; s != 1 {
		t.Fatalf("13 entries: %d buckets, want 1 (fill 108%%)", s)
	}
	th.insert(key(13)) // 14 > 13.2: grow
	finish()
	if s := th.tab.hdr.ht[0].size; s != 2 {
		t.Fatalf("14 entries: %d buckets, want 2", s)
	}
	n := 0
	for ; n < 100000; n++ {
		if n >= 14 {
			th.insert(key(n))
		}
	}
	finish()
	// 100000 / (12 × 1.1) = 7576 → 8192 buckets.
	if s := th.tab.hdr.ht[0].size; s != 8192 {
		t.Fatalf("100000 entries: %d buckets, want 8192", s)
	}
	th.check()
	// Delete down to 13,000: 13000 / (8192 × 12) = 13.2% < 13.75% → shrink to fill ≤ 55%:
	// 13000 / (12 × 0.55) = 1970 → 2048 buckets.
	for n > 13000 {
		n--
		th.delete(key(n))
	}
	finish()
	if s := th.tab.hdr.ht[0].size; s != 2048 {
		t.Fatalf("13000 entries: %d buckets, want 2048", s)
	}
	th.check()
}

func TestBucketsFor(t *testing.T) {
	for _, c := range []struct{ n, p, want uint64 }{
		{0, 55, 1}, {1, 55, 1}, {6, 55, 1}, {7, 55, 2}, {13, 55, 2}, {14, 55, 4},
		{13, 110, 1}, {14, 110, 2}, {1000000, 110, 131072},
	} {
		if got := bucketsFor(c.n, c.p); got != c.want {
			t.Errorf("bucketsFor(%d, %d) = %d, want %d", c.n, c.p, got, c.want)
		}
	}
}

// TestTableSegments grows a table to two 2 MiB segments (65,536 buckets) and shrinks it back,
// checking it in the middle of both resizes: the old array's first segment is given back while
// the rest still holds entries, and lookups, deletes and SCAN step around it.
func TestTableSegments(t *testing.T) {
	th := newTableHarness(t)
	const n = 450_000 // past 32,768 × 13.2 = 432,538: grows to 65,536 buckets
	for i := range n {
		th.insert(key(i))
	}
	for th.tab.Resizing() {
		th.tab.Rehash(1000)
	}
	if s := th.tab.hdr.ht[0].size; s != 2*segmentBuckets || th.tab.hdr.ht[0].segments() != 2 {
		t.Fatalf("%d keys: %d buckets in %d segments", n, s, th.tab.hdr.ht[0].segments())
	}
	// Down to 100,000 keys (fill 12.7% < 13.75%): shrinks to 16,384 buckets, one segment.
	i := n
	for ; i > 100_000; i-- {
		th.delete(key(i - 1))
	}
	if !th.tab.Moving() {
		t.Fatal("no shrink in progress")
	}
	sawHalf := false
	for th.tab.Resizing() {
		if th.tab.Moving() && th.tab.hdr.rehashIdx > segmentBuckets && th.tab.segment(0, 0) == 0 && !sawHalf {
			sawHalf = true
			th.check() // first segment freed, second still in use
			var cursor uint64
			seen := 0
			for {
				cursor = th.tab.Scan(cursor, func(alloc.Handle) { seen++ })
				if cursor == 0 {
					break
				}
			}
			if seen < len(th.model) {
				t.Fatalf("scan mid-shrink returned %d of %d keys", seen, len(th.model))
			}
		}
		th.lookup(key(rand.IntN(i)))
	}
	if !sawHalf {
		t.Fatal("never saw the old array half freed")
	}
	if s := th.tab.hdr.ht[0].size; s != 16384 {
		t.Fatalf("after the shrink: %d buckets", s)
	}
	th.check()
}
