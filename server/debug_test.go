package server

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDebugSleepAbandoned: a client in DEBUG SLEEP is a running command to the shutdown
// until it gives up on it (Abandon): then the sleep ends and the server's goroutines with it
// (the test would hang, not fail on a time, if it did not).
func TestDebugSleepAbandoned(t *testing.T) {
	s, rdb := startInProcess(t)
	slept := make(chan error, 1)
	go func() { slept <- rdb.Do(context.Background(), "DEBUG", "SLEEP", "3600").Err() }()
	for !strings.Contains(rdb.Do(t.Context(), "CLIENT", "LIST").String(), "cmd=debug") {
		time.Sleep(time.Millisecond)
	}
	s.Shutdown()
	// The other clients go: a parked one at once, one still being served (the CLIENT LIST
	// caller may not have parked yet) once its server sees its socket shut. The sleeper stays.
	deadline := time.Now().Add(10 * time.Second)
	for s.ConnectedClients() > 1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := s.ConnectedClients(); n != 1 {
		t.Errorf("%d clients connected after Shutdown, want only the sleeper (still running its command)", n)
	}
	s.Abandon()
	s.Wait()
	<-slept
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
