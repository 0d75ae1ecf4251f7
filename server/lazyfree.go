package server

import (
	"time"

	"github.com/kvserver/kvserver/keyspace"
)

// Lazy freeing's wiring (keyspace/lazyfree.go): the lazyfree-* directives the keyspace acts on,
// and the cron's share of freeing queued values — Redis's lazyfree thread, here a bounded
// amount per shard lock, within a time budget per tick. lazyfree-lazy-eviction is accepted
// only: eviction deletes as Redis's dbDelete does, under lazyfree-lazy-server-del.

// Lazy free budgets: entries freed per shard lock (about 0.5 ms: 130 ns an entry measured,
// the table's walk, the batch and the type's free), and the time a tick may spend — a tenth of
// a tick at hz 10, less than the 25% Redis's active expiry may take. A 200,000-field hash is
// freed in three ticks.
const (
	lazyFreeEntriesPerLock = 4096
	cronLazyFreeBudget     = 10 * time.Millisecond
)

// lazyFreeDirectives are the lazyfree-* directives the keyspace acts on.
var lazyFreeDirectives = []string{
	"lazyfree-lazy-user-del", "lazyfree-lazy-user-flush", "lazyfree-lazy-server-del", "lazyfree-lazy-expire",
}

// startLazyFree applies the lazyfree-* directives now and on every CONFIG SET.
func (s *Server) startLazyFree() {
	apply := func(string) {
		yes := func(name string) bool { v, _ := s.cfg.Value(name); return v == "yes" }
		s.ks.SetLazyFree(keyspace.LazyFreeOptions{
			UserDel:   yes("lazyfree-lazy-user-del"),
			UserFlush: yes("lazyfree-lazy-user-flush"),
			ServerDel: yes("lazyfree-lazy-server-del"),
			Expire:    yes("lazyfree-lazy-expire"),
		})
	}
	apply("")
	for _, name := range lazyFreeDirectives {
		s.cfg.OnChange(name, apply)
	}
}

// lazyFreeCron frees queued values until none is left or the tick's budget is spent.
func (s *Server) lazyFreeCron() {
	if s.ks.LazyFreePending() == 0 {
		return
	}
	deadline := time.Now().Add(cronLazyFreeBudget)
	for s.ks.LazyFreeStep(lazyFreeEntriesPerLock) && time.Now().Before(deadline) {
	}
}
