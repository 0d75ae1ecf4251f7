package zsetval

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/htable"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/zindex"
)

// The skiplist encoding (object.EncSkiplist, Redis's name for its zset of a dict and a
// skiplist): a hash table of members (htable, member → entry) and a counted ordered index of the
// same entries (zindex, (score, member) → entry, with ranks), both in the arena. An entry
// (entry.go) is one allocation holding the score and the member, shared by both: the table
// finds a member's score in O(1), the index ranks and ranges in O(log n). The record's root is
// a header allocation of 8 bytes holding the table's root handle and the index's.

// skiplistHeaderSize is the root allocation: the table's root, then the index's (uint32 each).
const skiplistHeaderSize = 8

// skiplist is a view of a skiplist-encoded set, for one operation: a local variable of the
// caller (no Go allocation). Methods take a pointer so that the table's view, which caches its
// arrays' addresses, stays one across the calls of an operation: a copy would go stale when the
// table resizes.
type skiplist struct {
	a    *alloc.Arena
	root alloc.Handle
	t    htable.Table
	ix   zindex.Index
}

// skiplistRoots reads the header at root.
func skiplistRoots(a *alloc.Arena, root alloc.Handle) (troot, iroot alloc.Handle) {
	b := a.Bytes(root, skiplistHeaderSize)
	return alloc.Handle(binary.LittleEndian.Uint32(b)), alloc.Handle(binary.LittleEndian.Uint32(b[4:]))
}

// openSkiplist makes a view of the skiplist set rooted at root.
func openSkiplist(a *alloc.Arena, root alloc.Handle) skiplist {
	troot, iroot := skiplistRoots(a, root)
	return skiplist{a: a, root: root, t: htable.Open(a, memberOf, troot), ix: zindex.Open(a, iroot, entryOf)}
}

// openRanks makes a view of the skiplist set rooted at root that has its index alone, for
// the reads by rank that look up no member (Len, RangeByRank): opening the member table too
// would read its header and both its arrays' descriptors, a few cache misses per call.
func openRanks(a *alloc.Arena, root alloc.Handle) skiplist {
	_, iroot := skiplistRoots(a, root)
	return skiplist{a: a, root: root, ix: zindex.Open(a, iroot, entryOf)}
}

// createSkiplist makes an empty skiplist set whose table is sized for sizeHint members (a
// bulk load, ended by endLoad) and returns its root; object.ErrOOM without memory.
func createSkiplist(a *alloc.Arena, sizeHint int) (alloc.Handle, error) {
	troot, err := htable.Create(a)
	if err != nil {
		return 0, object.ErrOOM
	}
	iroot, err := zindex.Create(a)
	if err != nil {
		t := htable.Open(a, memberOf, troot)
		t.Destroy(nil)
		return 0, object.ErrOOM
	}
	root := a.Alloc(skiplistHeaderSize)
	if root == 0 {
		t := htable.Open(a, memberOf, troot)
		t.Destroy(nil)
		zindex.Open(a, iroot, entryOf).Destroy(nil)
		return 0, object.ErrOOM
	}
	b := a.Bytes(root, skiplistHeaderSize)
	binary.LittleEndian.PutUint32(b, uint32(troot))
	binary.LittleEndian.PutUint32(b[4:], uint32(iroot))
	if sizeHint > 0 {
		// Sized for a bulk load, and kept from shrinking (the first inserts into a big empty
		// array would shrink it) until the loader's endLoad.
		t := htable.Open(a, memberOf, troot)
		t.ExpandForLoad(uint64(sizeHint))
	}
	return root, nil
}

// endLoad ends a bulk load begun by createSkiplist with a size hint: the table may shrink
// again.
func (z *skiplist) endLoad() { z.t.EndLoad() }

// skiplistFromSorted makes a skiplist set of the n pairs at(0)…at(n-1), which are in order
// and unique, and returns its root; on error nothing is left in the arena.
func skiplistFromSorted(a *alloc.Arena, n int, at func(i int) ([]byte, float64)) (alloc.Handle, error) {
	root, err := createSkiplist(a, n)
	if err != nil {
		return 0, err
	}
	z := openSkiplist(a, root)
	for i := 0; i < n; i++ {
		m, s := at(i)
		if err := z.appendSorted(m, s); err != nil {
			freeSkiplist(a, root)
			return 0, err
		}
	}
	z.endLoad()
	return root, nil
}

// appendSorted adds member m with score s, which sorts after every member present.
func (z *skiplist) appendSorted(m []byte, s float64) error {
	h := newEntry(z.a, m, s)
	if h == 0 {
		return object.ErrOOM
	}
	if err := z.t.Insert(htable.Hash(m), h); err != nil {
		freeEntry(z.a, h)
		return object.ErrOOM
	}
	if err := z.ix.Append(s, m, h); err != nil {
		z.unlink(h)
		freeEntry(z.a, h)
		return object.ErrOOM
	}
	return nil
}

// skiplistFromListpack makes a skiplist set of the pairs of listpack lp, its table sized for
// max(pairs, capHint) members (zsetConvertAndExpand).
func skiplistFromListpack(a *alloc.Arena, lp []byte, capHint int) (alloc.Handle, error) {
	root, err := createSkiplist(a, max(lpPairs(lp), capHint))
	if err != nil {
		return 0, err
	}
	z := openSkiplist(a, root)
	var buf [maxIntLen]byte
	eachListpack(lp, buf[:0], func(m []byte, s float64) bool {
		err = z.appendSorted(m, s)
		return err == nil
	})
	if err != nil {
		freeSkiplist(a, root)
		return 0, err
	}
	z.endLoad()
	return root, nil
}

// convertToSkiplist makes the listpack set of record rec a skiplist sized for capHint members.
// Without memory it returns object.ErrOOM and the set stays a listpack.
func convertToSkiplist(a *alloc.Arena, rec alloc.Handle, capHint int) error {
	_, root := object.Root(a, rec)
	l := listpack.FromHandle(root)
	sroot, err := skiplistFromListpack(a, l.Bytes(a), capHint)
	if err != nil {
		return err
	}
	l.Free(a)
	object.SetRoot(a, rec, object.EncSkiplist, sroot)
	return nil
}

// freeSkiplist frees the skiplist set rooted at root: entries, table, index, header.
func freeSkiplist(a *alloc.Arena, root alloc.Handle) {
	z := openSkiplist(a, root)
	z.ix.Destroy(nil)
	z.t.Destroy(func(h alloc.Handle) { freeEntry(a, h) })
	a.Free(root, skiplistHeaderSize)
}

// FreeStep frees part of the skiplist set rooted at root (object.EncSkiplist; a record's root
// from object.Root), about budget entries' worth, and reports whether it is all gone: lazy
// freeing of a big sorted set over several cron ticks. The table goes first (its buckets; the
// entries stay, still in the index), then the index with the entries, leaf by leaf, then the
// header. Once it has been called, nothing but FreeStep may use the set.
func FreeStep(a *alloc.Arena, root alloc.Handle, budget int) (done bool) {
	troot, iroot := skiplistRoots(a, root)
	if troot != 0 {
		t := htable.Open(a, memberOf, troot)
		if t.DestroyStep(func(alloc.Handle) {}, budget) {
			binary.LittleEndian.PutUint32(a.Bytes(root, skiplistHeaderSize), 0)
		}
		return false
	}
	if !zindex.FreeStep(a, iroot, budget, func(h alloc.Handle) { freeEntry(a, h) }) {
		return false
	}
	a.Free(root, skiplistHeaderSize)
	return true
}

// FreeEffort is Redis's lazyfreeGetFreeEffort for a sorted set of encoding enc rooted at root:
// a skiplist's members, 1 for a listpack (one allocation). With FreeStep it is what the
// keyspace's lazy freeing needs of a big sorted set.
func FreeEffort(a *alloc.Arena, enc object.Encoding, root alloc.Handle) int64 {
	if enc != object.EncSkiplist {
		return 1
	}
	_, iroot := skiplistRoots(a, root)
	return int64(zindex.Open(a, iroot, nil).Len())
}

// len is the number of members.
// len is the number of members; it reads the index alone (openRanks).
func (z *skiplist) len() int { return z.ix.Len() }

// find returns member m's entry.
func (z *skiplist) find(m []byte) (alloc.Handle, bool) {
	pos, ok := z.t.Find(m, htable.Hash(m))
	if !ok {
		return 0, false
	}
	return pos.Handle(), true
}

// unlink takes entry h out of the table (not the index, not freeing it).
func (z *skiplist) unlink(h alloc.Handle) {
	pos, ok := z.t.FindMatch(htable.Hash(memberOf(z.a, h)), func(x alloc.Handle) bool { return x == h })
	if !ok {
		panic("zsetval: entry missing from the table")
	}
	z.t.DeleteAt(pos)
}

// add is Add on a skiplist.
func (z *skiplist) add(m []byte, score float64, flags AddFlags) (float64, AddResult, error) {
	hash := htable.Hash(m)
	if pos, found := z.t.Find(m, hash); found {
		h := pos.Handle()
		cur := scoreOf(z.a, h)
		s, res := updateScore(cur, score, flags)
		if res != AddUpdated {
			return s, res, nil
		}
		// Out of the index at the old score, the score changed in place, in again.
		z.ix.Delete(cur, m)
		setScore(z.a, h, s)
		if err := z.ix.Insert(s, m, h); err != nil {
			setScore(z.a, h, cur)
			if z.ix.Insert(cur, m, h) != nil {
				// Not even its old place: the member goes (out of memory in any case).
				z.unlink(h)
				freeEntry(z.a, h)
			}
			return 0, 0, object.ErrOOM
		}
		return s, AddUpdated, nil
	}
	if flags&AddXX != 0 {
		return 0, AddNop, nil
	}
	h := newEntry(z.a, m, score)
	if h == 0 {
		return 0, 0, object.ErrOOM
	}
	if err := z.t.Insert(hash, h); err != nil {
		freeEntry(z.a, h)
		return 0, 0, object.ErrOOM
	}
	if err := z.ix.Insert(score, m, h); err != nil {
		z.unlink(h)
		freeEntry(z.a, h)
		return 0, 0, object.ErrOOM
	}
	return score, AddAdded, nil
}

// remove is Remove on a skiplist.
func (z *skiplist) remove(m []byte) bool {
	pos, found := z.t.Find(m, htable.Hash(m))
	if !found {
		return false
	}
	h := pos.Handle()
	if _, ok := z.ix.Delete(scoreOf(z.a, h), m); !ok {
		panic("zsetval: member missing from the index")
	}
	z.t.DeleteAt(pos)
	freeEntry(z.a, h)
	return true
}

// removeRangeByRank deletes ranks start to stop (valid) and returns how many.
func (z *skiplist) removeRangeByRank(start, stop int) int {
	if start > stop || start < 0 || stop >= z.len() {
		return 0
	}
	z.ix.DeleteRange(start, stop, func(h alloc.Handle) {
		z.unlink(h)
		freeEntry(z.a, h)
	})
	return stop - start + 1
}

// scoreBounds is the ranks of the first and last members in r (last < first when none).
func (z *skiplist) scoreBounds(r *ScoreRange) (first, last int) {
	if r.empty() {
		return 0, -1
	}
	return z.ix.FirstAbove(r.Min, r.MinEx), z.ix.LastBelow(r.Max, r.MaxEx)
}

// lexBounds is the ranks of the first and last members in r (last < first when none).
func (z *skiplist) lexBounds(r *LexRange) (first, last int) {
	if r.empty() {
		return 0, -1
	}
	switch r.MinInf {
	case -1:
		first = 0
	case 1:
		first = z.len()
	default:
		first = z.ix.FirstLexAbove(r.Min, r.MinEx)
	}
	switch r.MaxInf {
	case 1:
		last = z.len() - 1
	case -1:
		last = -1
	default:
		last = z.ix.LastLexBelow(r.Max, r.MaxEx)
	}
	return first, last
}

func (z *skiplist) removeRangeByScore(r *ScoreRange) int {
	return z.removeRangeByRank(z.scoreBounds(r))
}

func (z *skiplist) removeRangeByLex(r *LexRange) int {
	return z.removeRangeByRank(z.lexBounds(r))
}

// walk calls fn with n members from rank from, upwards (downwards when reverse). It reads
// the index alone (openRanks).
func (z *skiplist) walk(from, n int, reverse bool, fn func([]byte, float64) bool) {
	if n <= 0 {
		return
	}
	z.ix.Walk(from, reverse, func(h alloc.Handle) bool {
		s, m := entryOf(z.a, h)
		if !fn(m, s) {
			return false
		}
		n--
		return n > 0
	})
}

// pop is Pop on a skiplist.
func (z *skiplist) pop(max bool, count int, fn func([]byte, float64)) int {
	n := min(count, z.len())
	if n <= 0 {
		return 0
	}
	start, from := 0, 0
	if max {
		start, from = z.len()-n, z.len()-1
	}
	z.walk(from, n, max, func(m []byte, s float64) bool {
		fn(m, s)
		return true
	})
	return z.removeRangeByRank(start, start+n-1)
}

func (z *skiplist) score(m []byte) (float64, bool) {
	h, ok := z.find(m)
	if !ok {
		return 0, false
	}
	return scoreOf(z.a, h), true
}

func (z *skiplist) rank(m []byte) (int, float64, bool) {
	h, ok := z.find(m)
	if !ok {
		return 0, 0, false
	}
	s := scoreOf(z.a, h)
	r, ok := z.ix.Rank(s, m)
	if !ok {
		panic("zsetval: member missing from the index")
	}
	return r, s, true
}

// rangeByRank is RangeByRank on a skiplist; it reads the index alone (openRanks).
func (z *skiplist) rangeByRank(start, stop int, reverse bool, fn func([]byte, float64) bool) {
	from := start
	if reverse {
		from = z.len() - 1 - start
	}
	z.walk(from, stop-start+1, reverse, fn)
}

// rangeOf walks the members of ranks first…last (last…first when reverse), after skipping
// offset of them, at most limit (all when limit < 0).
func (z *skiplist) rangeOf(first, last int, reverse bool, offset, limit int, fn func([]byte, float64) bool) {
	if offset < 0 {
		return
	}
	n := last - first + 1 - offset
	if limit >= 0 {
		n = min(n, limit)
	}
	if n <= 0 {
		return
	}
	if reverse {
		z.walk(last-offset, n, true, fn)
		return
	}
	z.walk(first+offset, n, false, fn)
}

func (z *skiplist) rangeByScore(r *ScoreRange, reverse bool, offset, limit int, fn func([]byte, float64) bool) {
	first, last := z.scoreBounds(r)
	z.rangeOf(first, last, reverse, offset, limit, fn)
}

func (z *skiplist) rangeByLex(r *LexRange, reverse bool, offset, limit int, fn func([]byte, float64) bool) {
	first, last := z.lexBounds(r)
	z.rangeOf(first, last, reverse, offset, limit, fn)
}

func (z *skiplist) countByScore(r *ScoreRange) int {
	first, last := z.scoreBounds(r)
	return max(last-first+1, 0)
}

func (z *skiplist) countByLex(r *LexRange) int {
	first, last := z.lexBounds(r)
	return max(last-first+1, 0)
}

// scanStepsPerElement is Redis's bound for sparse tables: a call visits at most COUNT × 10
// buckets.
const scanStepsPerElement = 10

// scan is Scan on a skiplist: the table's reverse-binary cursor, bucket by bucket until count
// elements (a member and its score count two, as in Redis's reply list) or count × 10 buckets.
func (z *skiplist) scan(cursor uint64, count int, fn func([]byte, float64)) uint64 {
	elements := 0
	visit := func(h alloc.Handle) {
		s, m := entryOf(z.a, h)
		elements += 2
		fn(m, s)
	}
	for steps := max(count, 1) * scanStepsPerElement; ; steps-- {
		cursor = z.t.Scan(cursor, visit)
		if cursor == 0 || steps <= 1 || elements >= count {
			return cursor
		}
	}
}

func (z *skiplist) random() ([]byte, float64) {
	h, ok := z.t.Random()
	if !ok {
		return nil, 0
	}
	s, m := entryOf(z.a, h)
	return m, s
}

// randomMembers is RandomMembers on a skiplist (zrandmemberWithCountCommand's cases 1, 2, 3
// and 4).
func (z *skiplist) randomMembers(count int64, fn func([]byte, float64)) {
	emit := func(h alloc.Handle) {
		s, m := entryOf(z.a, h)
		fn(m, s)
	}
	size := int64(z.len())
	switch {
	case count < 0 || count == 1:
		n := count
		if n < 0 {
			n = -n
		}
		for ; n > 0; n-- {
			h, _ := z.t.Random()
			emit(h)
		}
	case count >= size:
		z.walk(0, int(size), false, func(m []byte, s float64) bool {
			fn(m, s)
			return true
		})
	case count*randomSubStrategyMul > size:
		// Copy every handle, drop random ones down to count.
		hs := make([]alloc.Handle, 0, size)
		z.ix.Walk(0, false, func(h alloc.Handle) bool {
			hs = append(hs, h)
			return true
		})
		for int64(len(hs)) > count {
			i := rnd(len(hs))
			hs[i] = hs[len(hs)-1]
			hs = hs[:len(hs)-1]
		}
		for _, h := range hs {
			emit(h)
		}
	default:
		picked := make(map[alloc.Handle]struct{}, count)
		for int64(len(picked)) < count {
			h, _ := z.t.Random()
			if _, dup := picked[h]; dup {
				continue
			}
			picked[h] = struct{}{}
			emit(h)
		}
	}
}

// allocSize is what the set is charged: header, table, index and every entry (O(members)).
func (z *skiplist) allocSize() int {
	n := alloc.UsableSize(skiplistHeaderSize) + int(z.t.Bytes()) + z.ix.Bytes()
	z.ix.Walk(0, false, func(h alloc.Handle) bool {
		n += entryAllocSize(z.a, h)
		return true
	})
	return n
}

// copyTo makes a deep copy of the set in dst and returns its root.
func (z *skiplist) copyTo(dst *alloc.Arena) (alloc.Handle, error) {
	root, err := createSkiplist(dst, z.len())
	if err != nil {
		return 0, err
	}
	d := openSkiplist(dst, root)
	z.ix.Walk(0, false, func(h alloc.Handle) bool {
		s, m := entryOf(z.a, h)
		err = d.appendSorted(m, s)
		return err == nil
	})
	if err != nil {
		freeSkiplist(dst, root)
		return 0, err
	}
	d.endLoad()
	return root, nil
}

// check verifies the table and the index and that they hold the same entries.
func (z *skiplist) check() error {
	if err := z.t.Check(); err != nil {
		return fmt.Errorf("zsetval: table: %w", err)
	}
	if err := z.ix.Check(); err != nil {
		return fmt.Errorf("zsetval: index: %w", err)
	}
	if int(z.t.Len()) != z.ix.Len() {
		return fmt.Errorf("zsetval: table of %d members, index of %d", z.t.Len(), z.ix.Len())
	}
	var err error
	z.ix.Walk(0, false, func(h alloc.Handle) bool {
		s, m := entryOf(z.a, h)
		if math.IsNaN(s) {
			err = fmt.Errorf("zsetval: member %q has score NaN", m)
			return false
		}
		if got, ok := z.find(m); !ok || got != h {
			err = fmt.Errorf("zsetval: member %q of the index not in the table", m)
			return false
		}
		return true
	})
	return err
}
