package main

import (
	"math/rand/v2"
	"testing"
)

// within reports whether got is no more than the histogram's precision above want (bucket
// upper bounds never fall below the true value).
func within(got, want int64) bool {
	return got >= want && float64(got-want) <= float64(want)/subCount
}

func TestPercentilesOfKnownData(t *testing.T) {
	h := NewHistogram()
	// 1..100000 in a shuffled order: the q-th percentile is q*1000.
	vals := rand.New(rand.NewPCG(1, 2)).Perm(100000)
	for _, v := range vals {
		h.Record(int64(v + 1))
	}
	for _, tc := range []struct {
		q    float64
		want int64
	}{{50, 50000}, {90, 90000}, {99, 99000}, {99.9, 99900}, {100, 100000}} {
		if got := h.Percentile(tc.q); !within(got, tc.want) {
			t.Errorf("p%v = %d, want %d (+0.8%%)", tc.q, got, tc.want)
		}
	}
	if h.Count() != 100000 || h.Max() != 100000 || h.Mean() != 50000.5 {
		t.Errorf("count %d max %d mean %v", h.Count(), h.Max(), h.Mean())
	}
}

func TestSmallValuesAreExact(t *testing.T) {
	h := NewHistogram()
	for v := int64(0); v < subCount; v++ {
		h.Record(v)
	}
	if got := h.Percentile(50); got != subCount/2-1 {
		t.Errorf("p50 = %d, want %d", got, subCount/2-1)
	}
	if got := h.Percentile(0); got != 0 {
		t.Errorf("p0 = %d, want 0", got)
	}
}

func TestTailIsNotHiddenByTheBody(t *testing.T) {
	// 999 fast requests and one 50 ms stall: p99.9 is the stall, p99 is not.
	h := NewHistogram()
	for range 999 {
		h.Record(100_000)
	}
	h.Record(50_000_000)
	if got := h.Percentile(99); !within(got, 100_000) {
		t.Errorf("p99 = %d", got)
	}
	if got := h.Percentile(99.9); !within(got, 100_000) {
		t.Errorf("p99.9 = %d, want the body: 999 of 1000 values are 100µs", got)
	}
	if got := h.Percentile(99.95); got != 50_000_000 {
		t.Errorf("p99.95 = %d, want the stall", got)
	}
}

func TestBucketBoundsCoverEveryValue(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		v := int64(r.Uint64() >> (1 + r.IntN(63)))
		i := bucketOf(v)
		if hi := highest(i); v > hi || (i > 0 && v <= highest(i-1)) {
			t.Fatalf("value %d in bucket %d [%d, %d]", v, i, highest(i-1)+1, hi)
		}
	}
	if bucketOf(1<<63-1) >= len(Histogram{}.counts) {
		t.Fatal("largest int64 has no bucket")
	}
}

func TestMerge(t *testing.T) {
	a, b := NewHistogram(), NewHistogram()
	for v := int64(1); v <= 1000; v++ {
		if v%2 == 0 {
			a.Record(v * 1000)
		} else {
			b.Record(v * 1000)
		}
	}
	a.Merge(b)
	if a.Count() != 1000 || !within(a.Percentile(50), 500_000) || a.Max() != 1_000_000 {
		t.Errorf("merged: count %d p50 %d max %d", a.Count(), a.Percentile(50), a.Max())
	}
	if e := NewHistogram(); e.Percentile(99) != 0 || e.Max() != 0 {
		t.Error("empty histogram should report zeros")
	}
}
