package zsetval

import (
	"bytes"
	"cmp"
	"errors"
	"slices"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/htable"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// ErrDuplicate is returned by Builder.Add or Finish when a member was given twice (a corrupt
// RDB payload: Redis's "Duplicate zset fields detected").
var ErrDuplicate = errors.New("zsetval: duplicate member")

// Builder makes a sorted set from members given in any order: the results of ZUNIONSTORE,
// ZINTERSTORE, ZDIFFSTORE and ZRANGESTORE, and RDB loads. Members should be unique; a repeat is
// reported (ErrDuplicate). While the set could still be a listpack the members wait in Go
// memory of the one build; once it cannot (more members than zset-max-listpack-entries, or one
// longer than zset-max-listpack-value) they move to the arena as the skiplist's entries and
// table, and only their handles (4 bytes each) stay in Go memory, to be sorted into the index
// by Finish. So a result within the limits never makes a skiplist
// (zsetConvertToListpackIfNeeded), and a big load costs little beyond the set itself.
type Builder struct {
	a        *alloc.Arena
	key      []byte
	expireMs int64

	raw   []byte // a listpack given whole (AppendListpack) before anything else, kept as is
	mem   []byte // members, one after the other
	items []buildItem

	maxLen, total int  // the longest member and the sum of the lengths (lpSafeToAdd's)
	rawOnly       bool // only one listpack was given: Redis's RDB rule (count only) applies

	sizeHint int
	big      alloc.Handle   // the skiplist's root once spilled, its index still empty
	hs       []alloc.Handle // the spilled entries, in the order given
}

// buildItem is one member of a Builder: mem[off:off+n] and its score.
type buildItem struct {
	off, n uint32
	score  float64
}

// NewBuilder starts the sorted set of key with expire expireMs (unix ms, 0 for none), for about
// sizeHint members of at most maxElemLen bytes.
func NewBuilder(a *alloc.Arena, key []byte, sizeHint, maxElemLen int, expireMs int64) *Builder {
	b := &Builder{a: a, key: bytes.Clone(key), expireMs: expireMs, sizeHint: sizeHint}
	if sizeHint > 0 {
		n := min(sizeHint, maxEntries()+1) // past it the members spill to the arena
		b.items = make([]buildItem, 0, n)
		b.mem = make([]byte, 0, min(n*max(maxElemLen, 8), 1<<16))
	}
	return b
}

// Add adds member with score (copied). Without memory it returns object.ErrOOM; a member
// given twice may be reported here or by Finish (ErrDuplicate). After an error only Abort may
// be called.
func (b *Builder) Add(member []byte, score float64) error {
	if err := b.expandRaw(); err != nil {
		return err
	}
	b.rawOnly = false
	b.maxLen = max(b.maxLen, len(member))
	b.total += len(member)
	if b.big == 0 && (len(b.items)+1 > maxEntries() || len(member) > maxValue()) {
		if err := b.spill(); err != nil {
			return err
		}
	}
	if b.big != 0 {
		return b.addEntry(member, score)
	}
	b.items = append(b.items, buildItem{off: uint32(len(b.mem)), n: uint32(len(member)), score: score})
	b.mem = append(b.mem, member...)
	return nil
}

// spill moves the members waiting in Go memory to a skiplist's entries and table.
func (b *Builder) spill() error {
	root, err := createSkiplist(b.a, max(b.sizeHint, len(b.items)+1))
	if err != nil {
		return err
	}
	b.big = root
	b.hs = make([]alloc.Handle, 0, max(min(b.sizeHint, 1<<20), 2*len(b.items)))
	for i := range b.items {
		it := &b.items[i]
		if err := b.addEntry(b.member(it), it.score); err != nil {
			return err
		}
	}
	b.items, b.mem = nil, nil
	return nil
}

// addEntry adds a member to the spilled table.
func (b *Builder) addEntry(member []byte, score float64) error {
	z := openSkiplist(b.a, b.big)
	hash := htable.Hash(member)
	if _, dup := z.t.Find(member, hash); dup {
		return ErrDuplicate
	}
	h := newEntry(b.a, member, score)
	if h == 0 {
		return object.ErrOOM
	}
	if err := z.t.Insert(hash, h); err != nil {
		freeEntry(b.a, h)
		return object.ErrOOM
	}
	b.hs = append(b.hs, h)
	return nil
}

// AppendListpack adds the pairs of lp, a listpack of member,score pairs in score order that the
// caller validated (RDB type 17, or a type-12 ziplist converted). When it is the only input
// Finish keeps its bytes as they are.
func (b *Builder) AppendListpack(lp []byte) error {
	if b.raw == nil && len(b.items) == 0 {
		b.raw = bytes.Clone(lp)
		b.rawOnly = true
		return nil
	}
	if err := b.expandRaw(); err != nil {
		return err
	}
	b.rawOnly = false
	return b.addPairs(lp)
}

// addPairs adds the pairs of listpack lp one by one.
func (b *Builder) addPairs(lp []byte) error {
	var err error
	eachListpack(lp, nil, func(m []byte, s float64) bool {
		err = b.Add(m, s)
		return err == nil
	})
	return err
}

// expandRaw turns a pending whole listpack into members.
func (b *Builder) expandRaw() error {
	if b.raw == nil {
		return nil
	}
	raw := b.raw
	b.raw = nil
	return b.addPairs(raw)
}

// Len is the number of members added so far.
func (b *Builder) Len() int {
	if b.raw != nil {
		return lpPairs(b.raw)
	}
	return len(b.items) + len(b.hs)
}

// member is item it's member.
func (b *Builder) member(it *buildItem) []byte { return b.mem[it.off : it.off+it.n] }

// Finish makes the record and returns it (the caller inserts it into the keyspace); the
// Builder is spent. The set is a listpack when it has at most zset-max-listpack-entries members
// of at most zset-max-listpack-value bytes and its listpack would stay under
// listpack.MaxSafetySize (zsetConvertToListpackIfNeeded; when one listpack was its only input,
// the count alone decides, as Redis's RDB load of a listpack), else a skiplist. Without memory
// it returns object.ErrOOM, and ErrDuplicate for a repeated member; either way it leaves
// nothing in the arena.
func (b *Builder) Finish() (alloc.Handle, error) {
	defer b.Abort()
	if b.raw != nil {
		if lpPairs(b.raw) <= maxEntries() {
			return b.finishListpack(b.raw)
		}
		if err := b.expandRaw(); err != nil {
			return 0, err
		}
	}
	if b.big == 0 && !listpack.SafeToAdd(nil, b.total) {
		if err := b.spill(); err != nil {
			return 0, err
		}
	}
	if b.big == 0 {
		return b.finishSmall()
	}
	z := openSkiplist(b.a, b.big)
	a := b.a
	slices.SortFunc(b.hs, func(x, y alloc.Handle) int {
		sx, mx := entryOf(a, x)
		sy, my := entryOf(a, y)
		if c := cmp.Compare(sx, sy); c != 0 {
			return c
		}
		return bytes.Compare(mx, my)
	})
	for _, h := range b.hs {
		s, m := entryOf(a, h)
		if err := z.ix.Append(s, m, h); err != nil {
			return 0, object.ErrOOM
		}
	}
	rec, err := object.NewCollection(a, b.key, object.TypeZSet, object.EncSkiplist, b.big, b.expireMs)
	if err != nil {
		return 0, err
	}
	b.big, b.hs = 0, nil // the record's now
	checkZset(a, rec)
	return rec, nil
}

// finishSmall makes the listpack of the members waiting in Go memory.
func (b *Builder) finishSmall() (alloc.Handle, error) {
	n := len(b.items)
	// Repeats: sorted by member, a repeat is next to its twin (n is at most the entries limit).
	byMember := make([]int, n)
	for i := range byMember {
		byMember[i] = i
	}
	slices.SortFunc(byMember, func(x, y int) int { return bytes.Compare(b.member(&b.items[x]), b.member(&b.items[y])) })
	for i := 1; i < n; i++ {
		if bytes.Equal(b.member(&b.items[byMember[i-1]]), b.member(&b.items[byMember[i]])) {
			return 0, ErrDuplicate
		}
	}
	b.sort()
	lp := listpack.NewSlice(listpack.EmptySize + b.total + 2*n + n*12)
	var buf [maxScoreText]byte
	var err error
	for i := range b.items {
		it := &b.items[i]
		if lp, err = listpack.AppendSlice(lp, b.member(it)); err != nil {
			return 0, object.ErrOOM
		}
		if lp, err = listpack.AppendSlice(lp, appendScore(buf[:0], it.score)); err != nil {
			return 0, object.ErrOOM
		}
	}
	return b.finishListpack(lp)
}

// finishListpack makes the record of a copy of listpack lp.
func (b *Builder) finishListpack(lp []byte) (alloc.Handle, error) {
	l := listpack.FromBytes(b.a, lp)
	if l.IsNil() {
		return 0, object.ErrOOM
	}
	rec, err := object.NewCollection(b.a, b.key, object.TypeZSet, object.EncListpack, l.Handle(), b.expireMs)
	if err != nil {
		l.Free(b.a)
		return 0, err
	}
	checkZset(b.a, rec)
	return rec, nil
}

// sort orders the members by score, ties by member bytes.
func (b *Builder) sort() {
	slices.SortFunc(b.items, func(x, y buildItem) int {
		if c := cmp.Compare(x.score, y.score); c != 0 {
			return c
		}
		return bytes.Compare(b.member(&x), b.member(&y))
	})
}

// Abort drops what was added (the spilled entries too); the Builder is spent.
func (b *Builder) Abort() {
	if b.big != 0 {
		freeSkiplist(b.a, b.big)
		b.big = 0
	}
	b.raw, b.mem, b.items, b.hs = nil, nil, nil, nil
}

// ListpackBytes returns the listpack of sorted-set record rec (what RDB type 17 and DUMP write
// as is), nil for a skiplist. The view is valid until the set changes.
func ListpackBytes(a *alloc.Arena, rec alloc.Handle) []byte {
	enc, root := object.Root(a, rec)
	if enc != object.EncListpack {
		return nil
	}
	return listpack.FromHandle(root).Bytes(a)
}
