//go:build !race && (amd64 || arm64)

package stats

// addOwn adds d to a counter of the caller's own stripe (pinned to its P: the only writer) with
// a plain load and store. Go's atomic store is an XCHG on amd64, a locked instruction that
// costs as much as the rest of the bookkeeping together; a plain aligned 64-bit store is
// single-copy atomic on amd64 and arm64, and readers load the counters atomically, so they see
// the old value or the new one. Under the race detector, or elsewhere, store_atomic.go's
// atomic version is used instead.
func addOwn(c *int64, d int64) { *c += d }

// storeOwn sets a counter of the caller's own stripe (see addOwn).
func storeOwn(c *int64, v int64) { *c = v }
