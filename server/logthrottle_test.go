package server

import (
	"testing"
	"time"
)

func TestLogThrottle(t *testing.T) {
	var th logThrottle
	now := time.Unix(1000, 0)
	for i := 0; i < logBurst; i++ {
		if ok, _ := th.allow(now); !ok {
			t.Fatalf("message %d of the burst refused", i)
		}
	}
	for i := 0; i < 5; i++ {
		if ok, _ := th.allow(now); ok {
			t.Fatal("a message past the burst was allowed")
		}
	}
	// A tenth of a second later one token is back, and the five dropped ones are reported.
	ok, suppressed := th.allow(now.Add(time.Second / logRate))
	if !ok || suppressed != 5 {
		t.Fatalf("after 100 ms: %v, suppressed %d; want true, 5", ok, suppressed)
	}
	if ok, _ := th.allow(now.Add(time.Second / logRate)); ok {
		t.Fatal("two messages allowed from one token")
	}
	// A long pause refills no more than the burst.
	later := now.Add(time.Hour)
	n := 0
	for {
		ok, _ := th.allow(later)
		if !ok {
			break
		}
		n++
	}
	if n != logBurst {
		t.Fatalf("after an hour %d messages allowed at once, want %d", n, logBurst)
	}
}
