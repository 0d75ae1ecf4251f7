package listval

import (
	"sync/atomic"

	"github.com/kvserver/kvserver/quicklist"
)

// DefaultFill is list-max-listpack-size's default: 8 KB nodes.
const DefaultFill = quicklist.DefaultFill

// fill is list-max-listpack-size. CONFIG SET writes it from its own goroutine while shards
// read it under their locks, hence an atomic; a change applies to later conversions and to
// quicklists made afterwards (a quicklist keeps the fill it was made with).
var fill atomic.Int64

func init() { SetLimits(DefaultFill) }

// SetLimits sets list-max-listpack-size (Redis's range is -5…2^31; quicklist clamps).
func SetLimits(f int64) { fill.Store(f) }

func curFill() int { return int(fill.Load()) }

// exceedsListpack is quicklistNodeExceedsLimit under the current fill.
func exceedsListpack(sz, count int) bool { return quicklist.ExceedsLimit(curFill(), sz, count) }

// withinShrink reports whether a single node of sz bytes and count entries may become a
// listpack list: within quicklistNodeLimit's limits, halved when shrinking.
func withinShrink(sz, count int, shrinking bool) bool {
	bl, cl := quicklist.NodeLimit(curFill()) // -1: no such limit
	if shrinking {
		if bl > 0 {
			bl /= 2
		}
		if cl > 0 {
			cl /= 2
		}
	}
	return (bl < 0 || sz <= bl) && (cl < 0 || count <= cl)
}
