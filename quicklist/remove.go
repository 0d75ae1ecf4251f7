package quicklist

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
)

// RemoveEqual removes the elements equal to s, from the head towards the tail or from the tail
// towards the head when fromTail, stopping after limit removals (0: all) — LREM's walk. It
// returns how many it removed. Emptied nodes are unlinked, and the remaining nodes are not
// merged (as Redis's iterator deletes). On ErrNoMemory the removals done so far stay.
func (l List) RemoveEqual(a *alloc.Arena, s []byte, limit int, fromTail bool) (int, error) {
	defer l.check(a)
	removed := 0
	h := l.head(a)
	if fromTail {
		h = l.tail(a)
	}
	for h != 0 && (limit == 0 || removed < limit) {
		nd := nodeAt(a, h)
		next := nd.next()
		if fromTail {
			next = nd.prev()
		}
		nl, k, err := RemoveEqualListpack(a, nd.lp(), s, limitLeft(limit, removed), fromTail)
		nd = nodeAt(a, h)
		if k > 0 {
			nd.setLP(nl)
			removed += k
			l.addLen(a, -k)
			if c := nd.count() - k; c == 0 {
				l.unlinkFree(a, h)
			} else {
				nd.setCount(c, nd.plain())
			}
		}
		if err != nil {
			return removed, err
		}
		h = next
	}
	return removed, nil
}

// limitLeft is what is left of limit (0: no limit) after removed removals.
func limitLeft(limit, removed int) int {
	if limit == 0 {
		return 0
	}
	return limit - removed
}

// RemoveEqualListpack removes from listpack l the entries equal to s, walking forwards or
// backwards (fromTail), at most limit of them (0: all), and returns the listpack (which may
// have moved) and how many it removed; it leaves an emptied listpack in place (the caller
// frees it). On ErrNoMemory the removals done so far stay and the listpack returned is valid.
func RemoveEqualListpack(a *alloc.Arena, l listpack.Listpack, s []byte, limit int, fromTail bool) (listpack.Listpack, int, error) {
	removed := 0
	lp := l.Bytes(a)
	p := listpack.First(lp)
	if fromTail {
		p = listpack.Last(lp)
	}
	for p >= 0 && (limit == 0 || removed < limit) {
		if !listpack.Equal(lp, p, s) {
			if fromTail {
				p = listpack.Prev(lp, p)
			} else {
				p = listpack.Next(lp, p)
			}
			continue
		}
		nl, next, err := l.DeleteEntries(a, p, 1)
		if err != nil {
			return l, removed, ErrNoMemory
		}
		l, removed = nl, removed+1
		lp = l.Bytes(a)
		if fromTail {
			p = listpack.Prev(lp, p) // p is now the offset of the deleted entry's successor
		} else {
			p = next
		}
	}
	return l, removed, nil
}
