package command

import (
	"testing"
	"time"
)

// TestTicks: the command clock's durations agree with the runtime's monotonic clock, whichever
// it reads.
func TestTicks(t *testing.T) {
	t.Logf("time-stamp counter used: %v (ns per tick %.4f)", useTSC, float64(tscMult)/(1<<32))
	// A busy machine may preempt the test between two readings: the comparison is retried.
	for _, d := range []time.Duration{2 * time.Millisecond, 20 * time.Millisecond} {
		var got, want int64
		ok := false
		for try := 0; try < 5 && !ok; try++ {
			t0, n0 := Ticks(), Nanotime()
			time.Sleep(d)
			t1, n1 := Ticks(), Nanotime()
			got, want = TicksToNanos(t1-t0), n1-n0
			diff := got - want
			ok = diff >= -want/100-20_000 && diff <= want/100+20_000
		}
		if !ok {
			t.Errorf("slept %v: ticks say %d ns, Nanotime %d ns", d, got, want)
		}
	}
	if TicksToNanos(-5) != 0 {
		t.Error("a negative difference is not 0")
	}
	// A long duration does not overflow the conversion.
	if useTSC {
		ticks := int64(float64(10*time.Second) * (1 << 32) / float64(tscMult))
		if ns := TicksToNanos(ticks); ns < int64(9*time.Second) || ns > int64(11*time.Second) {
			t.Errorf("10 s of ticks: %d ns", ns)
		}
	}
}

func BenchmarkTicks(b *testing.B) {
	var sink int64
	for b.Loop() {
		sink += Ticks()
	}
	_ = sink
}

func BenchmarkNanotime(b *testing.B) {
	var sink int64
	for b.Loop() {
		sink += Nanotime()
	}
	_ = sink
}
