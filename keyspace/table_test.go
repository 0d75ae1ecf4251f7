package keyspace

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// Test records: a key stored length-prefixed in an alloc slot, so the table is tested on its
// own, without object's layout.

func newTestRecord(a *alloc.Arena, key []byte) alloc.Handle {
	h := a.Alloc(2 + len(key))
	if h == 0 {
		panic("out of memory")
	}
	b := a.Bytes(h, 2+len(key))
	binary.LittleEndian.PutUint16(b, uint16(len(key)))
	copy(b[2:], key)
	return h
}

func testKey(a *alloc.Arena, h alloc.Handle) []byte {
	n := int(binary.LittleEndian.Uint16(a.Bytes(h, 2)))
	return a.Bytes(h, 2+n)[2:]
}

func freeTestRecord(a *alloc.Arena, h alloc.Handle) {
	a.Free(h, 2+len(testKey(a, h)))
}

// testArena makes an arena with a small reservation (tests make many) that is closed after.
func testArena(t testing.TB) *alloc.Arena {
	a := alloc.MustNewArena(4 << 30)
	t.Cleanup(a.Close)
	return a
}

// tableHarness drives a table of test records and keeps a model of it.
type tableHarness struct {
	t     testing.TB
	a     *alloc.Arena
	tab   *table
	model map[string]alloc.Handle
	recs  int64 // bytes of live test records
}

func newTableHarness(t testing.TB) *tableHarness {
	a := testArena(t)
	return &tableHarness{t: t, a: a, tab: newTable(a, testKey), model: map[string]alloc.Handle{}}
}

func (th *tableHarness) insert(key []byte) {
	if _, ok := th.tab.find(key, Hash(key)); ok {
		th.t.Fatalf("insert %q: already present", key)
	}
	h := newTestRecord(th.a, key)
	if err := th.tab.insert(Hash(key), h); err != nil {
		th.t.Fatal(err)
	}
	th.model[string(key)] = h
	th.recs += int64(alloc.UsableSize(2 + len(key)))
}

func (th *tableHarness) delete(key []byte) bool {
	p, ok := th.tab.find(key, Hash(key))
	if _, want := th.model[string(key)]; ok != want {
		th.t.Fatalf("delete %q: found %v, model %v", key, ok, want)
	}
	if !ok {
		return false
	}
	h := p.b.handles[p.slot]
	th.tab.deleteAt(p)
	freeTestRecord(th.a, h)
	delete(th.model, string(key))
	th.recs -= int64(alloc.UsableSize(2 + len(key)))
	return true
}

func (th *tableHarness) replace(key []byte) {
	p, ok := th.tab.find(key, Hash(key))
	if !ok {
		th.t.Fatalf("replace %q: not found", key)
	}
	old := p.b.handles[p.slot]
	h := newTestRecord(th.a, key)
	th.tab.replaceAt(p, h)
	freeTestRecord(th.a, old)
	th.model[string(key)] = h
}

func (th *tableHarness) lookup(key []byte) {
	p, ok := th.tab.find(key, Hash(key))
	want, inModel := th.model[string(key)]
	if ok != inModel || (ok && p.b.handles[p.slot] != want) {
		th.t.Fatalf("lookup %q: found %v, model %v", key, ok, inModel)
	}
}

// check verifies the table's structure and that it holds exactly the model, and that the
// arena holds exactly the records and the table.
func (th *tableHarness) check() {
	th.t.Helper()
	if err := th.tab.check(); err != nil {
		th.t.Fatal(err)
	}
	if n := th.tab.len(); n != int64(len(th.model)) {
		th.t.Fatalf("table has %d entries, model %d", n, len(th.model))
	}
	for k, h := range th.model {
		p, ok := th.tab.findMatch(Hash([]byte(k)), func(x alloc.Handle) bool { return x == h })
		if !ok || p.b.handles[p.slot] != h {
			th.t.Fatalf("key %q missing", k)
		}
	}
	if used, want := th.a.Used(), th.recs+th.tab.bytes(); used != want {
		th.t.Fatalf("arena uses %d bytes, records and table %d", used, want)
	}
}

// check verifies a table's invariants: every entry in the chain its hash selects with its
// hash's tag, no entry where the slot is not usable, moved buckets empty, counts exact.
func (t *table) check() error {
	var entries, children int64
	for a := range t.ht {
		arr := &t.ht[a]
		if a == 1 && !t.moving() {
			continue
		}
		for i := uint64(0); i < arr.size; i++ {
			if t.moved(a, i) {
				if arr.segs[i>>segmentShift].h != 0 && (arr.at(i).presence != 0 || arr.at(i).chained != 0) {
					return fmt.Errorf("bucket %d/%d: not empty below rehashIdx %d", a, i, t.rehashIdx)
				}
				continue
			}
			for b := arr.at(i); b != nil; b = t.next(b) {
				if b != arr.at(i) {
					children++
				}
				if b.presence&^b.usable() != 0 {
					return fmt.Errorf("bucket %d/%d: presence %#x outside usable slots", a, i, b.presence)
				}
				for m := b.presence; m != 0; m &= m - 1 {
					s := bits.TrailingZeros16(m)
					hash := Hash(t.keyOf(t.arena, b.handles[s]))
					if hash&arr.mask() != i || tagOf(hash) != b.tags[s] {
						return fmt.Errorf("bucket %d/%d slot %d: entry of hash %#x", a, i, s, hash)
					}
					entries++
				}
			}
		}
	}
	if entries != t.len() {
		return fmt.Errorf("%d entries in buckets, count %d", entries, t.len())
	}
	if children != t.children {
		return fmt.Errorf("%d child buckets, counted %d", children, t.children)
	}
	return nil
}

func key(i int) []byte { return fmt.Appendf(nil, "key:%012d", i) }

func TestTableBasic(t *testing.T) {
	th := newTableHarness(t)
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
	if used := th.a.Used(); used != 0 {
		t.Fatalf("empty table: arena uses %d bytes", used)
	}
}

// TestTableChains puts 200 keys in one chain (keys whose hashes agree in their low 8 bits share
// bucket 0 of every array up to 256 buckets) and deletes them in random order: chaining, and
// compaction freeing the children.
func TestTableChains(t *testing.T) {
	th := newTableHarness(t)
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
	if th.tab.children != 0 {
		t.Fatalf("%d child buckets left in an empty table", th.tab.children)
	}
}

// TestTableModel runs random operations against a Go map, with the key count swinging so the
// table grows and shrinks, and checks everything every few hundred operations (often in the
// middle of a resize).
func TestTableModel(t *testing.T) {
	th := newTableHarness(t)
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
			if th.tab.resizing() {
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
	if used := th.a.Used(); used != 0 {
		t.Fatalf("empty table: arena uses %d bytes", used)
	}
}

// TestTableResizePolicy checks the sizes the policy picks.
func TestTableResizePolicy(t *testing.T) {
	th := newTableHarness(t)
	finish := func() {
		for th.tab.rehash(1 << 20) {
		}
	}
	for i := range 13 {
		th.insert(key(i))
	}
	finish()
	if s := th.tab.ht[0].size; s != 1 {
		t.Fatalf("13 entries: %d buckets, want 1 (fill 108%%)", s)
	}
	th.insert(key(13)) // 14 > 13.2: grow
	finish()
	if s := th.tab.ht[0].size; s != 2 {
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
	if s := th.tab.ht[0].size; s != 8192 {
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
	if s := th.tab.ht[0].size; s != 2048 {
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

var _ = bytes.Equal

// TestTableSegments grows a table to two 2 MiB segments (65,536 buckets) and shrinks it back,
// checking it in the middle of both resizes: the old array's first segment is given back while
// the rest still holds entries, and lookups, deletes and SCAN step around it.
func TestTableSegments(t *testing.T) {
	th := newTableHarness(t)
	const n = 450_000 // past 32,768 × 13.2 = 432,538: grows to 65,536 buckets
	for i := range n {
		th.insert(key(i))
	}
	for th.tab.resizing() {
		th.tab.rehash(1000)
	}
	if s := th.tab.ht[0].size; s != 2*segmentBuckets || len(th.tab.ht[0].segs) != 2 {
		t.Fatalf("%d keys: %d buckets in %d segments", n, s, len(th.tab.ht[0].segs))
	}
	// Down to 100,000 keys (fill 12.7% < 13.75%): shrinks to 16,384 buckets, one segment.
	i := n
	for ; i > 100_000; i-- {
		th.delete(key(i - 1))
	}
	if !th.tab.moving() {
		t.Fatal("no shrink in progress")
	}
	sawHalf := false
	for th.tab.resizing() {
		if th.tab.moving() && th.tab.rehashIdx > segmentBuckets && th.tab.ht[0].segs[0].h == 0 && !sawHalf {
			sawHalf = true
			th.check() // first segment freed, second still in use
			var cursor uint64
			seen := 0
			for {
				cursor = th.tab.scan(cursor, func(alloc.Handle) { seen++ })
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
	if s := th.tab.ht[0].size; s != 16384 {
		t.Fatalf("after the shrink: %d buckets", s)
	}
	th.check()
}
