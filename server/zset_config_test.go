package server

import (
	"testing"

	"github.com/kvserver/kvserver/zsetval"
)

// TestZsetConfig: CONFIG SET of zset-max-listpack-entries/value (and the zset-max-ziplist-*
// aliases) reaches zsetval's limits. Not parallel: the limits are the process's.
func TestZsetConfig(t *testing.T) {
	s := newFakeClockServer(t, newFakeClock())
	t.Cleanup(func() {
		zsetval.SetLimits(zsetval.DefaultMaxListpackEntries, zsetval.DefaultMaxListpackValue)
	})
	if e, v := zsetval.Limits(); e != 128 || v != 64 {
		t.Fatalf("at start: %d %d", e, v)
	}
	for _, names := range [][2]string{
		{"zset-max-listpack-entries", "zset-max-listpack-value"},
		{"zset-max-ziplist-entries", "zset-max-ziplist-value"},
	} {
		if err := s.cfg.Set([2]string{names[0], "7"}, [2]string{names[1], "9"}); err != nil {
			t.Fatal(err)
		}
		if e, v := zsetval.Limits(); e != 7 || v != 9 {
			t.Fatalf("%v: %d %d", names, e, v)
		}
		if err := s.cfg.Set([2]string{names[0], "128"}, [2]string{names[1], "64"}); err != nil {
			t.Fatal(err)
		}
	}
}
