package setval

import "sync/atomic"

// The conversion limits, Redis 7.2's defaults: set-max-intset-entries 512,
// set-max-listpack-entries 128, set-max-listpack-value 64.
var (
	maxIntsetEntries   atomic.Int64
	maxListpackEntries atomic.Int64
	maxListpackValue   atomic.Int64
)

// intsetHardLimit is intsetMaxEntries's cap: an intset never holds more than 2^30 members,
// whatever set-max-intset-entries says.
const intsetHardLimit = 1 << 30

func init() { SetLimits(512, 128, 64) }

// SetLimits sets the conversion limits (set-max-intset-entries, set-max-listpack-entries,
// set-max-listpack-value). Sets already converted stay as they are.
func SetLimits(intsetEntries, listpackEntries, listpackValue int64) {
	maxIntsetEntries.Store(min(intsetEntries, intsetHardLimit))
	maxListpackEntries.Store(listpackEntries)
	maxListpackValue.Store(listpackValue)
}

// Limits returns the limits in force, in SetLimits's order.
func Limits() (intsetEntries, listpackEntries, listpackValue int64) {
	return maxIntsetEntries.Load(), maxListpackEntries.Load(), maxListpackValue.Load()
}
