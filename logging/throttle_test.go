package logging

import (
	"testing"
	"time"
)

func TestThrottle(t *testing.T) {
	var th Throttle
	now := time.Unix(1000, 0)
	for i := 0; i < ThrottleBurst; i++ {
		if ok, _ := th.Allow(now); !ok {
			t.Fatalf("message %d of the burst refused", i)
		}
	}
	for i := 0; i < 5; i++ {
		if ok, _ := th.Allow(now); ok {
			t.Fatal("a message past the burst was allowed")
		}
	}
	// A tenth of a second later one token is back, and the five dropped ones are reported.
	ok, suppressed := th.Allow(now.Add(time.Second / ThrottleRate))
	if !ok || suppressed != 5 {
		t.Fatalf("after 100 ms: %v, suppressed %d; want true, 5", ok, suppressed)
	}
	if ok, _ := th.Allow(now.Add(time.Second / ThrottleRate)); ok {
		t.Fatal("two messages allowed from one token")
	}
	// A long pause refills no more than the burst.
	later := now.Add(time.Hour)
	n := 0
	for {
		ok, _ := th.Allow(later)
		if !ok {
			break
		}
		n++
	}
	if n != ThrottleBurst {
		t.Fatalf("after an hour %d messages allowed at once, want %d", n, ThrottleBurst)
	}
}
