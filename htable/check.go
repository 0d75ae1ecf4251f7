package htable

import (
	"fmt"
	"math/bits"
)

// Check verifies a table's invariants: every entry in the chain its hash selects with its
// hash's tag, no entry where the slot is not usable, moved buckets empty, counts exact. It reads
// every entry: for tests.
func (t *Table) Check() error {
	var entries, children int64
	for a := range t.hdr.ht {
		arr := &t.hdr.ht[a]
		if a == 1 && !t.Moving() {
			continue
		}
		for i := uint64(0); i < arr.size; i++ {
			if t.moved(a, i) {
				if t.segment(a, int(i>>segmentShift)) != 0 && (t.at(a, i).presence != 0 || t.at(a, i).chained != 0) {
					return fmt.Errorf("bucket %d/%d: not empty below rehashIdx %d", a, i, t.hdr.rehashIdx)
				}
				continue
			}
			for b := t.at(a, i); b != nil; b = t.next(b) {
				if b != t.at(a, i) {
					children++
				}
				if b.presence&^b.usable() != 0 {
					return fmt.Errorf("bucket %d/%d: presence %#x outside usable slots", a, i, b.presence)
				}
				for m := b.presence; m != 0; m &= m - 1 {
					s := bits.TrailingZeros16(m)
					hash := Hash(t.keyOf(t.arena, b.handles[s]))
					if hash&arr.mask() != i || Tag(hash) != b.tags[s] {
						return fmt.Errorf("bucket %d/%d slot %d: entry of hash %#x", a, i, s, hash)
					}
					entries++
				}
			}
		}
	}
	if entries != t.Len() {
		return fmt.Errorf("%d entries in buckets, count %d", entries, t.Len())
	}
	if children != int64(t.hdr.children) {
		return fmt.Errorf("%d child buckets, counted %d", children, t.hdr.children)
	}
	return nil
}
