package zsetval

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// Builder makes a sorted set from members given in any order: the results of ZUNIONSTORE,
// ZINTERSTORE, ZDIFFSTORE and ZRANGESTORE, and RDB loads. Members must be unique (the caller's
// to ensure). The members wait in Go memory of the one build until Finish chooses the encoding
// as zsetConvertToListpackIfNeeded does, so a result within the limits never makes a skiplist.
type Builder struct {
	a        *alloc.Arena
	key      []byte
	expireMs int64

	raw   []byte // a listpack given whole (AppendListpack) before anything else, kept as is
	mem   []byte // members, one after the other
	items []buildItem

	maxLen, total int  // the longest member and the sum of the lengths (lpSafeToAdd's)
	rawOnly       bool // only one listpack was given: Redis's RDB rule (count only) applies
}

// buildItem is one member of a Builder: mem[off:off+n] and its score.
type buildItem struct {
	off, n uint32
	score  float64
}

// NewBuilder starts the sorted set of key with expire expireMs (unix ms, 0 for none), for about
// sizeHint members of at most maxElemLen bytes.
func NewBuilder(a *alloc.Arena, key []byte, sizeHint, maxElemLen int, expireMs int64) *Builder {
	b := &Builder{a: a, key: bytes.Clone(key), expireMs: expireMs}
	if sizeHint > 0 {
		b.items = make([]buildItem, 0, min(sizeHint, 1<<16))
		b.mem = make([]byte, 0, min(sizeHint*max(maxElemLen, 8), 1<<20))
	}
	return b
}

// Add adds member with score (copied).
func (b *Builder) Add(member []byte, score float64) error {
	b.expandRaw()
	b.rawOnly = false
	b.items = append(b.items, buildItem{off: uint32(len(b.mem)), n: uint32(len(member)), score: score})
	b.mem = append(b.mem, member...)
	b.maxLen = max(b.maxLen, len(member))
	b.total += len(member)
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
	b.expandRaw()
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
func (b *Builder) expandRaw() {
	if b.raw == nil {
		return
	}
	raw := b.raw
	b.raw = nil
	_ = b.addPairs(raw)
}

// Len is the number of members added so far.
func (b *Builder) Len() int {
	if b.raw != nil {
		return lpPairs(b.raw)
	}
	return len(b.items)
}

// member is item it's member.
func (b *Builder) member(it *buildItem) []byte { return b.mem[it.off : it.off+it.n] }

// Finish makes the record and returns it (the caller inserts it into the keyspace); the
// Builder is spent. The set is a listpack when it has at most zset-max-listpack-entries members
// of at most zset-max-listpack-value bytes and its listpack would stay under
// listpack.MaxSafetySize (zsetConvertToListpackIfNeeded; when one listpack was its only input,
// the count alone decides, as Redis's RDB load of a listpack), else a skiplist. Without memory
// it returns object.ErrOOM and leaves nothing in the arena.
func (b *Builder) Finish() (alloc.Handle, error) {
	defer b.Abort()
	if b.raw != nil {
		if lpPairs(b.raw) <= maxEntries() || !skiplistReady {
			return b.finishListpack(b.raw)
		}
		b.expandRaw()
	}
	n := len(b.items)
	if !skiplistReady || (n <= maxEntries() && b.maxLen <= maxValue() && listpack.SafeToAdd(nil, b.total)) {
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
	b.sort()
	root, err := skiplistFromSorted(b.a, n, func(i int) ([]byte, float64) {
		it := &b.items[i]
		return b.member(it), it.score
	})
	if err != nil {
		return 0, err
	}
	rec, err := object.NewCollection(b.a, b.key, object.TypeZSet, object.EncSkiplist, root, b.expireMs)
	if err != nil {
		freeSkiplist(b.a, root)
		return 0, err
	}
	checkZset(b.a, rec)
	return rec, nil
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

// Abort drops what was added; the Builder is spent. Nothing of it is in the arena before
// Finish, so Abort only lets the Go memory go.
func (b *Builder) Abort() {
	b.raw, b.mem, b.items = nil, nil, nil
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
