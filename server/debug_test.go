package server

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDebugSleepEndsAtShutdown: a DEBUG SLEEP in progress returns when the server shuts down
// (the test would hang, not fail on a time, if it did not).
func TestDebugSleepEndsAtShutdown(t *testing.T) {
	s, _ := startInProcess(t)
	done := make(chan struct{})
	go func() {
		debugHooks{s}.Sleep(time.Hour)
		close(done)
	}()
	s.Shutdown()
	<-done
}

// TestDebugChangeReplID: CHANGE-REPL-ID gives a new 40-hex ID each time and clears the second.
func TestDebugChangeReplID(t *testing.T) {
	s, rdb := startInProcess(t)
	id, id2 := s.replicationIDs()
	if id != s.runID || id2 != noReplID {
		t.Fatalf("before: %s %s", id, id2)
	}
	hex40 := regexp.MustCompile(`^[0-9a-f]{40}$`)
	seen := map[string]bool{id: true}
	for range 2 {
		if err := rdb.Do(t.Context(), "DEBUG", "CHANGE-REPL-ID").Err(); err != nil {
			t.Fatal(err)
		}
		id, id2 = s.replicationIDs()
		if !hex40.MatchString(id) || seen[id] || id2 != noReplID {
			t.Fatalf("after CHANGE-REPL-ID: %s %s", id, id2)
		}
		seen[id] = true
	}
}

// TestMemoryStatsInProcess: the server's figures reach MEMORY STATS, and MALLOC-STATS reads
// the clients' arena under its lock while other clients run (go test -race).
func TestMemoryStatsInProcess(t *testing.T) {
	s, rdb := startInProcess(t)
	ctx := t.Context()
	for i := range 100 {
		rdb.Set(ctx, "k"+strings.Repeat("x", i), strings.Repeat("v", i*10), 0)
	}
	st, err := rdb.Do(ctx, "MEMORY", "STATS").Result() // RESP3: a map
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	for k, v := range st.(map[any]any) {
		m[k.(string)] = v
	}
	if m["startup.allocated"] != s.startupMemory || m["keys.count"] != int64(100) || m["clients.normal"].(int64) <= 0 ||
		m["total.allocated"].(int64) <= 0 || m["dataset.bytes"].(int64) <= 0 {
		t.Errorf("MEMORY STATS: %v", m)
	}
	if _, ok := m["db.0"]; !ok {
		t.Errorf("MEMORY STATS has no db.0: %v", m)
	}
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				rdb.Set(ctx, "busy", strings.Repeat("b", 40000), 0)
			}
		}
	}()
	defer close(stop)
	for range 5 {
		txt, err := rdb.Do(ctx, "MEMORY", "MALLOC-STATS").Text()
		if err != nil || !strings.Contains(txt, "Arena clients:") {
			t.Fatalf("MALLOC-STATS: %v %q", err, txt)
		}
	}
}
