package evict

import (
	"testing"

	"github.com/kvserver/kvserver/config"
)

// Follow applies the configuration at once and on every CONFIG SET of the limit's directives.
func TestFollow(t *testing.T) {
	w := newWorld(t)
	cfg := config.New()
	w.e.Follow(cfg)
	if w.e.MaxMemory() != 0 || w.e.Policy() != NoEviction || w.ks.LFU() {
		t.Fatalf("defaults: maxmemory %d, policy %v, LFU %v", w.e.MaxMemory(), w.e.Policy(), w.ks.LFU())
	}
	if err := cfg.Set([2]string{"maxmemory", "1mb"}, [2]string{"maxmemory-policy", "allkeys-lfu"}); err != nil {
		t.Fatal(err)
	}
	if w.e.MaxMemory() != 1<<20 || w.e.Policy() != AllKeysLFU || !w.ks.LFU() {
		t.Fatalf("after CONFIG SET: maxmemory %d, policy %v, LFU %v", w.e.MaxMemory(), w.e.Policy(), w.ks.LFU())
	}
	if err := cfg.Set([2]string{"maxmemory", "0"}, [2]string{"maxmemory-policy", "volatile-ttl"}); err != nil {
		t.Fatal(err)
	}
	if w.e.MaxMemory() != 0 || w.e.Policy() != VolatileTTL || w.ks.LFU() {
		t.Fatalf("after the second CONFIG SET: maxmemory %d, policy %v, LFU %v", w.e.MaxMemory(), w.e.Policy(), w.ks.LFU())
	}
}
