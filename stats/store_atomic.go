//go:build race || !(amd64 || arm64)

package stats

import "sync/atomic"

// addOwn adds d to a counter of the caller's own stripe: atomically here, so that the race
// detector sees the single writer's stores ordered with the readers' loads (see store_plain.go
// for the builds that use a plain store).
func addOwn(c *int64, d int64) { atomic.StoreInt64(c, atomic.LoadInt64(c)+d) }

// storeOwn sets a counter of the caller's own stripe.
func storeOwn(c *int64, v int64) { atomic.StoreInt64(c, v) }
