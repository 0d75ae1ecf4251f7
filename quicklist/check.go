package quicklist

import (
	"fmt"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
)

// Check verifies the whole list: links consistent both ways, head and tail right, no empty
// node, each node's count that of its listpack (deep-validated), a plain node holding one
// entry, and the header's node and element counts exact. For tests, and after every write in
// invariants builds.
func (l List) Check(a *alloc.Arena) error {
	var prev alloc.Handle
	nodes, elems := 0, 0
	for h := l.head(a); h != 0; {
		nd := nodeAt(a, h)
		if nd.prev() != prev {
			return fmt.Errorf("quicklist: node %d: prev %d, want %d", nodes, nd.prev(), prev)
		}
		lp := nd.bytes(a)
		if err := listpack.Validate(lp, true, nil); err != nil {
			return fmt.Errorf("quicklist: node %d: %w", nodes, err)
		}
		c := nd.count()
		if c == 0 || listpack.Len(lp) != c {
			return fmt.Errorf("quicklist: node %d: count %d, listpack has %d", nodes, c, listpack.Len(lp))
		}
		if nd.plain() && c != 1 {
			return fmt.Errorf("quicklist: plain node %d has %d entries", nodes, c)
		}
		nodes++
		elems += c
		prev = h
		h = nd.next()
	}
	if l.tail(a) != prev {
		return fmt.Errorf("quicklist: tail %d, want %d", l.tail(a), prev)
	}
	if nodes != l.Nodes(a) || elems != l.Len(a) {
		return fmt.Errorf("quicklist: header says %d nodes %d elements, found %d and %d",
			l.Nodes(a), l.Len(a), nodes, elems)
	}
	return nil
}

// check panics when Check fails, in invariants builds.
func (l List) check(a *alloc.Arena) {
	if !invariantsOn {
		return
	}
	if err := l.Check(a); err != nil {
		panic(err)
	}
}
