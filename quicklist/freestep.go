package quicklist

import "github.com/kvserver/kvserver/alloc"

// FreeStep frees up to budget nodes from the head of l, a list nobody reads any more (its record
// is gone: lazy freeing), and reports whether the whole list, root included, is freed. The list
// stays well formed between steps (a shorter list), so a step may stop anywhere.
func (l List) FreeStep(a *alloc.Arena, budget int) bool {
	for ; budget > 0; budget-- {
		h := l.head(a)
		if h == 0 {
			a.Free(l.h, headerSize)
			return true
		}
		l.addLen(a, -nodeAt(a, h).count())
		l.unlinkFree(a, h)
	}
	return false
}
