package setval

import (
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/intset"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// Random members and pops: SRANDMEMBER's and SPOP's cases from t_set.c. The temporary
// bookkeeping of a pick (offsets, handles, a seen-set) lives on the Go heap for the length of
// one command only; nothing of it stays with the set.

// Redis's strategy thresholds.
const (
	// spopMoveStrategyMul is SPOP_MOVE_STRATEGY_MUL: SPOP count keeps the survivors in a new
	// set when they are at most count/5.
	spopMoveStrategyMul = 5
	// srandmemberSubStrategyMul is SRANDMEMBER_SUB_STRATEGY_MUL: SRANDMEMBER count starts from
	// the whole set and removes members when count*3 > size.
	srandmemberSubStrategyMul = 3
)

func rnd(n int) int { return rand.IntN(n) }

// randomElem is setTypeRandomElement: a random member of a non-empty set, as a view s or an
// integer n (isInt). A table's pick is Redis's dictGetRandomKey (htable.Random).
func (v value) randomElem(a *alloc.Arena) (s []byte, n int64, isInt bool, h alloc.Handle) {
	switch v.enc {
	case object.EncIntset:
		return nil, intset.Random(v.intsetBytes(a), rnd), true, 0
	case object.EncListpack:
		lp := v.lpBytes(a)
		s, n, isInt = listpack.Get(lp, listpack.Random(lp, rnd))
		return s, n, isInt, 0
	}
	t := v.table(a)
	h, _ = t.Random()
	return memberOf(a, h), 0, false, h
}

// appendElem appends a member given as randomElem and each give it to dst.
func appendElem(dst, s []byte, n int64, isInt bool) []byte {
	if isInt {
		return strconv.AppendInt(dst, n, 10)
	}
	return append(dst, s...)
}

// RandomMember appends a random member of non-empty set record rec to dst (SRANDMEMBER key,
// SPOP's pick).
func RandomMember(a *alloc.Arena, rec alloc.Handle, dst []byte) []byte {
	s, n, isInt, _ := load(a, rec).randomElem(a)
	return appendElem(dst, s, n, isInt)
}

// Pop removes a random member of non-empty set record rec and appends it to dst
// (setTypePopRandom). The caller deletes the key when the set is now empty.
func Pop(a *alloc.Arena, rec alloc.Handle, dst []byte) ([]byte, error) {
	old := load(a, rec)
	v := old
	dst, err := v.pop(a, dst)
	store(a, rec, old, v)
	return dst, err
}

func (v *value) pop(a *alloc.Arena, dst []byte) ([]byte, error) {
	if v.enc == object.EncListpack {
		lp := v.lpBytes(a)
		p := listpack.Random(lp, rnd)
		dst = listpack.AppendValue(dst, lp, p)
		l, _, err := listpack.FromHandle(v.root).Delete(a, p)
		v.root = l.Handle()
		if err != nil {
			return dst, ErrOOM
		}
		return dst, nil
	}
	s, n, isInt, _ := v.randomElem(a)
	start := len(dst)
	dst = appendElem(dst, s, n, isInt)
	_, err := v.remove(a, dst[start:])
	return dst, err
}

// RandomMembers is SRANDMEMBER key count for a non-empty set record rec and count ≠ 0: it
// calls fn with RandomCount(size, count) members. A negative count (or 1) picks with
// repetition, in random order; a positive one distinct members: the whole set when count ≥
// size, else (a listpack) a selection in listpack order, else the set's members minus random
// ones when count*3 > size, else random picks until count distinct. Views are valid during fn,
// which must not change the set; scratch is formatting room.
func RandomMembers(a *alloc.Arena, rec alloc.Handle, count int64, scratch []byte, fn func(m []byte)) {
	v := load(a, rec)
	size := int64(v.length(a))
	emit := func(s []byte, n int64, isInt bool) {
		if isInt {
			scratch = strconv.AppendInt(scratch[:0], n, 10)
			s = scratch
		}
		fn(s)
	}
	// CASE 1: with repetition.
	if count < 0 || count == 1 {
		if count < 0 {
			count = -count
		}
		if v.enc == object.EncListpack && count > 1 {
			lp := v.lpBytes(a)
			offs := make([]int, 0, size)
			for p := listpack.First(lp); p >= 0; p = listpack.Next(lp, p) {
				offs = append(offs, p)
			}
			for ; count > 0; count-- {
				emit(listpack.Get(lp, offs[rnd(len(offs))]))
			}
			return
		}
		for ; count > 0; count-- {
			s, n, isInt, _ := v.randomElem(a)
			emit(s, n, isInt)
		}
		return
	}
	// CASE 2: the whole set.
	if count >= size {
		v.each(a, func(s []byte, n int64, isInt bool) bool {
			emit(s, n, isInt)
			return true
		})
		return
	}
	// CASE 2.5: a listpack, a selection in listpack order.
	if v.enc == object.EncListpack {
		lp := v.lpBytes(a)
		listpack.RandomEntriesUnique(lp, int(count), rnd, func(p int) { emit(listpack.Get(lp, p)) })
		return
	}
	// CASE 3: the set minus random members (a partial shuffle of all of them).
	if count*srandmemberSubStrategyMul > size {
		refs := v.refs(a)
		for i := 0; i < int(count); i++ {
			j := i + rnd(len(refs)-i)
			refs[i], refs[j] = refs[j], refs[i]
			emit(v.ref(a, refs[i]))
		}
		return
	}
	// CASE 4: random picks until count distinct.
	seen := make(map[uint32]struct{}, count)
	for int64(len(seen)) < count {
		var ref uint32
		if v.enc == object.EncIntset {
			ref = uint32(rnd(int(size)))
		} else {
			t := v.table(a)
			h, _ := t.Random()
			ref = uint32(h)
		}
		if _, dup := seen[ref]; dup {
			continue
		}
		seen[ref] = struct{}{}
		emit(v.ref(a, ref))
	}
}

// RandomCount is how many members RandomMembers gives for count in a set of size members.
func RandomCount(size, count int64) int64 {
	if count < 0 {
		return -count
	}
	return min(count, size)
}

// refs lists every member of an intset (its indexes) or a table (its entries' handles).
func (v value) refs(a *alloc.Arena) []uint32 {
	if v.enc == object.EncIntset {
		refs := make([]uint32, intset.Len(v.intsetBytes(a)))
		for i := range refs {
			refs[i] = uint32(i)
		}
		return refs
	}
	t := v.table(a)
	refs := make([]uint32, 0, t.Len())
	t.Each(func(h alloc.Handle) { refs = append(refs, uint32(h)) })
	return refs
}

// ref is the member a ref of refs names.
func (v value) ref(a *alloc.Arena, r uint32) ([]byte, int64, bool) {
	if v.enc == object.EncIntset {
		return nil, intset.Get(v.intsetBytes(a), int(r)), true
	}
	return memberOf(a, alloc.Handle(r)), 0, false
}

// PopCount is SPOP key count for 0 < count < size of set record rec (the caller serves
// count ≥ size with the whole set and deletes the key): it removes count random members and
// calls fn with each. When the survivors are at most count/5, they are picked instead and
// moved to a new set (an intset for an intset, else a listpack first, converted by the usual
// rules: a hash table may become a listpack), and the rest is given to fn. The record keeps
// its place. fn must not change the set.
func PopCount(a *alloc.Arena, rec alloc.Handle, count int, fn func(m []byte)) error {
	old := load(a, rec)
	v := old
	err := v.popCount(a, count, fn)
	store(a, rec, old, v)
	return err
}

func (v *value) popCount(a *alloc.Arena, count int, fn func(m []byte)) error {
	size := v.length(a)
	remaining := size - count
	var buf []byte
	// CASE 2: pick the members to pop.
	if remaining*spopMoveStrategyMul > count {
		if v.enc == object.EncListpack {
			lp := v.lpBytes(a)
			var offs []int
			listpack.RandomEntriesUnique(lp, count, rnd, func(p int) {
				buf = listpack.AppendValue(buf[:0], lp, p)
				fn(buf)
				offs = append(offs, p)
			})
			// From the last, so the offsets before stay valid.
			l := listpack.FromHandle(v.root)
			for _, p := range slices.Backward(offs) {
				var err error
				if l, _, err = l.Delete(a, p); err != nil {
					v.root = l.Handle()
					return ErrOOM
				}
			}
			v.root = l.Handle()
			return nil
		}
		for range count {
			var err error
			if buf, err = v.pop(a, buf[:0]); err != nil {
				return err
			}
			fn(buf)
		}
		return nil
	}
	// CASE 3: pick the survivors into a new set, give the rest.
	var nv value
	var err error
	if v.enc == object.EncListpack {
		if nv, err = newEmpty(a, object.EncListpack); err != nil {
			return err
		}
		lp := v.lpBytes(a)
		keep := make([]bool, size)
		i, p := 0, listpack.First(lp)
		listpack.RandomEntriesUnique(lp, remaining, rnd, func(q int) {
			for ; p != q; p = listpack.Next(lp, p) {
				i++
			}
			keep[i] = true
		})
		i = 0
		for p := listpack.First(lp); p >= 0 && err == nil; p, i = listpack.Next(lp, p), i+1 {
			s, n, isInt := listpack.Get(lp, p)
			switch {
			case !keep[i]:
				buf = appendElem(buf[:0], s, n, isInt)
				fn(buf)
			case isInt:
				_, err = nv.addInt(a, n)
			default:
				_, err = nv.add(a, s)
			}
		}
	} else {
		enc := object.EncListpack
		if v.enc == object.EncIntset {
			enc = object.EncIntset
		}
		if nv, err = newEmpty(a, enc); err != nil {
			return err
		}
		for ; remaining > 0 && err == nil; remaining-- {
			s, n, isInt, _ := v.randomElem(a)
			buf = appendElem(buf[:0], s, n, isInt)
			if isInt {
				_, err = nv.addInt(a, n)
			} else {
				_, err = nv.add(a, buf)
			}
			if err == nil {
				_, err = v.remove(a, buf)
			}
		}
		if err == nil {
			v.each(a, func(s []byte, n int64, isInt bool) bool {
				buf = appendElem(buf[:0], s, n, isInt)
				fn(buf)
				return true
			})
		}
	}
	if err != nil {
		nv.free(a)
		return err
	}
	v.free(a)
	*v = nv
	return nil
}

// Scan is SSCAN's walk of set record rec from cursor: an intset or a listpack is given whole
// and the next cursor is 0, as Redis does; a table is scanned with htable's reverse-binary
// cursor until count members are collected or count*10 buckets visited (scanGenericCommand).
// fn gets views valid during the call and must not change the set.
func Scan(a *alloc.Arena, rec alloc.Handle, cursor uint64, count int, scratch []byte, fn func(m []byte)) uint64 {
	v := load(a, rec)
	if v.enc != object.EncHashtable {
		Each(a, rec, scratch, func(m []byte) bool {
			fn(m)
			return true
		})
		return 0
	}
	t := v.table(a)
	got := 0
	for steps := count * 10; ; steps-- {
		cursor = t.Scan(cursor, func(h alloc.Handle) {
			fn(memberOf(a, h))
			got++
		})
		if cursor == 0 || steps <= 0 || got >= count {
			return cursor
		}
	}
}
