//go:build invariants

package alloc

import "fmt"

// invariantsOn compiles in the allocator's self-checks: every live slot is tracked, so a double
// free, a free of a foreign handle or a free with the wrong size panics; freed slots are
// poisoned, and released spans are made inaccessible (mmap backend) so a use after free faults.
const invariantsOn = true

// poisonByte fills freed slots: a value that is neither zero nor printable text.
const poisonByte = 0xdb

type invariantState struct {
	live map[Handle]int // slab class of each live slot
}

func (s *invariantState) init() { s.live = make(map[Handle]int) }

func (s *invariantState) allocated(a *Arena, h Handle, class int) {
	if _, dup := s.live[h]; dup {
		panic(fmt.Sprintf("alloc: slot %#x handed out twice", h))
	}
	s.live[h] = class
}

func (s *invariantState) freed(a *Arena, h Handle, class int) {
	c, ok := s.live[h]
	if !ok {
		panic(fmt.Sprintf("alloc: free of slot %#x that is not allocated (double free?)", h))
	}
	if c != class {
		panic(fmt.Sprintf("alloc: slot %#x of %d bytes freed as %d bytes", h, slabClassSize[c], slabClassSize[class]))
	}
	delete(s.live, h)
	b := a.Bytes(h, int(slabClassSize[c]))
	for i := range b {
		b[i] = poisonByte
	}
}
