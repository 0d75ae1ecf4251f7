package listval

import (
	"bytes"
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/quicklist"
)

// maxIntLen is the longest decimal int64 ("-9223372036854775808").
const maxIntLen = 20

// elemString returns an element read as (s, v, isInt) as bytes: s, or v formatted into
// scratch[:0].
func elemString(s []byte, v int64, isInt bool, scratch []byte) []byte {
	if isInt {
		return strconv.AppendInt(scratch[:0], v, 10)
	}
	return s
}

// Each calls fn for every element of list record rec from head to tail, until fn returns
// false (views valid during the call; integers formatted into scratch).
func Each(a *alloc.Arena, rec alloc.Handle, scratch []byte, fn func(elem []byte) bool) {
	if n := Len(a, rec); n > 0 {
		Range(a, rec, 0, n, false, scratch, fn)
	}
}

// Nodes calls fn with each node of list record rec in order until fn returns false: a
// listpack-encoded list is one packed node; a quicklist's nodes as they are (plain: a node of
// one element too big for any node, lp still a one-entry listpack). What RDB type 18 writes.
func Nodes(a *alloc.Arena, rec alloc.Handle, fn func(lp []byte, plain bool) bool) {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		fn(listpack.FromHandle(root).Bytes(a), false)
		return
	}
	quicklist.FromHandle(root).EachNode(a, fn)
}

// Index returns element i of list record rec (negative counts from the tail): a view, or an
// integer formatted into scratch; ok is false out of range. O(distance from the nearer end).
func Index(a *alloc.Arena, rec alloc.Handle, i int, scratch []byte) (elem []byte, ok bool) {
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		lp := listpack.FromHandle(root).Bytes(a)
		p := listpack.Seek(lp, i)
		if p < 0 {
			return nil, false
		}
		s, v, isInt := listpack.Get(lp, p)
		return elemString(s, v, isInt, scratch), true
	}
	s, v, isInt, ok := quicklist.FromHandle(root).Index(a, i)
	if !ok {
		return nil, false
	}
	return elemString(s, v, isInt, scratch), true
}

// Range calls fn for n elements of list record rec from index start (0 ≤ start < Len) towards
// the tail, or towards the head when reverse, stopping early when fn returns false or the
// list ends. Views are valid during the call; integers are formatted into scratch. The start
// is found from the nearer end.
func Range(a *alloc.Arena, rec alloc.Handle, start, n int, reverse bool, scratch []byte, fn func(elem []byte) bool) {
	if n <= 0 {
		return
	}
	if cap(scratch) < maxIntLen {
		scratch = make([]byte, 0, maxIntLen)
	}
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		lp := listpack.FromHandle(root).Bytes(a)
		for p := listpack.Seek(lp, start); p >= 0 && n > 0; n-- {
			s, v, isInt := listpack.Get(lp, p)
			if !fn(elemString(s, v, isInt, scratch)) {
				return
			}
			if reverse {
				p = listpack.Prev(lp, p)
			} else {
				p = listpack.Next(lp, p)
			}
		}
		return
	}
	quicklist.FromHandle(root).Range(a, start, reverse, func(s []byte, v int64, isInt bool) bool {
		if !fn(elemString(s, v, isInt, scratch)) {
			return false
		}
		n--
		return n > 0
	})
}

// equal reports whether an element read as (s, v, isInt) equals elem (lpCompare: an integer
// entry equals only its canonical decimal form).
func equal(s []byte, v int64, isInt bool, elem []byte) bool {
	if isInt {
		w, ok := listpack.StringToInt64(elem)
		return ok && w == v
	}
	return bytes.Equal(s, elem)
}

// Pos is LPOS's search of list record rec for elem: from the head (rank > 0) or the tail
// (rank < 0), it skips the first |rank|-1 matches, then calls fn with the index (from the
// head) of each further match until fn returns false, examining at most maxlen elements
// (0: all).
func Pos(a *alloc.Arena, rec alloc.Handle, elem []byte, rank, maxlen int, fn func(index int) bool) {
	n := Len(a, rec)
	if n == 0 || rank == 0 {
		return
	}
	reverse := rank < 0
	if reverse {
		rank = -rank
	}
	start := 0
	if reverse {
		start = n - 1
	}
	limit := n
	if maxlen > 0 {
		limit = min(maxlen, n)
	}
	matches, seen := 0, 0
	visit := func(s []byte, v int64, isInt bool) bool {
		idx := seen
		if reverse {
			idx = n - 1 - seen
		}
		seen++
		if equal(s, v, isInt, elem) {
			matches++
			if matches >= rank && !fn(idx) {
				return false
			}
		}
		return seen < limit
	}
	enc, root := object.Root(a, rec)
	if enc == object.EncListpack {
		lp := listpack.FromHandle(root).Bytes(a)
		for p := listpack.Seek(lp, start); p >= 0; {
			s, v, isInt := listpack.Get(lp, p)
			if !visit(s, v, isInt) {
				return
			}
			if reverse {
				p = listpack.Prev(lp, p)
			} else {
				p = listpack.Next(lp, p)
			}
		}
		return
	}
	quicklist.FromHandle(root).Range(a, start, reverse, visit)
}
