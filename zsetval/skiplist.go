package zsetval

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// skiplistReady says whether the skiplist encoding exists yet. Until it does (zindex not
// merged), sets stay listpacks past the limits: New, Add and Builder.Finish never make one.
const skiplistReady = false

// skiplist is a view of a skiplist-encoded set (stand-in).
type skiplist struct {
	a    *alloc.Arena
	root alloc.Handle
}

func openSkiplist(a *alloc.Arena, root alloc.Handle) skiplist { return skiplist{a, root} }

func createSkiplist(a *alloc.Arena, sizeHint int) (alloc.Handle, error) {
	panic("zsetval: skiplist encoding not built yet")
}

func skiplistFromSorted(a *alloc.Arena, n int, at func(i int) ([]byte, float64)) (alloc.Handle, error) {
	panic("zsetval: skiplist encoding not built yet")
}

func freeSkiplist(a *alloc.Arena, root alloc.Handle) {
	panic("zsetval: skiplist encoding not built yet")
}

// convertToSkiplist would make the listpack of rec a skiplist sized for capHint; the stand-in
// keeps the listpack.
func convertToSkiplist(a *alloc.Arena, rec alloc.Handle, capHint int) error {
	_ = object.EncSkiplist
	return nil
}

func (z skiplist) len() int { panic("zsetval: skiplist") }
func (z skiplist) add(m []byte, s float64, f AddFlags) (float64, AddResult, error) {
	panic("zsetval: skiplist")
}
func (z skiplist) remove(m []byte) bool                                  { panic("zsetval: skiplist") }
func (z skiplist) removeRangeByRank(start, stop int) int                 { panic("zsetval: skiplist") }
func (z skiplist) removeRangeByScore(r *ScoreRange) int                  { panic("zsetval: skiplist") }
func (z skiplist) removeRangeByLex(r *LexRange) int                      { panic("zsetval: skiplist") }
func (z skiplist) pop(max bool, count int, fn func([]byte, float64)) int { panic("zsetval: skiplist") }
func (z skiplist) score(m []byte) (float64, bool)                        { panic("zsetval: skiplist") }
func (z skiplist) rank(m []byte) (int, float64, bool)                    { panic("zsetval: skiplist") }
func (z skiplist) rangeByRank(start, stop int, reverse bool, fn func([]byte, float64) bool) {
	panic("zsetval: skiplist")
}
func (z skiplist) rangeByScore(r *ScoreRange, reverse bool, offset, limit int, fn func([]byte, float64) bool) {
	panic("zsetval: skiplist")
}
func (z skiplist) rangeByLex(r *LexRange, reverse bool, offset, limit int, fn func([]byte, float64) bool) {
	panic("zsetval: skiplist")
}
func (z skiplist) countByScore(r *ScoreRange) int { panic("zsetval: skiplist") }
func (z skiplist) countByLex(r *LexRange) int     { panic("zsetval: skiplist") }
func (z skiplist) scan(cursor uint64, count int, fn func([]byte, float64)) uint64 {
	panic("zsetval: skiplist")
}
func (z skiplist) random() ([]byte, float64)                           { panic("zsetval: skiplist") }
func (z skiplist) randomMembers(count int64, fn func([]byte, float64)) { panic("zsetval: skiplist") }
func (z skiplist) allocSize() int                                      { panic("zsetval: skiplist") }
func (z skiplist) copyTo(dst *alloc.Arena) (alloc.Handle, error)       { panic("zsetval: skiplist") }
func (z skiplist) check() error                                        { panic("zsetval: skiplist") }
