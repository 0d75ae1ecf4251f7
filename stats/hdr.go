package stats

import (
	"math/bits"
	"sync/atomic"
)

// The per-command latency histograms are HdrHistograms with Redis's parameters (server.h:
// LATENCY_HISTOGRAM_MIN_VALUE 1 ns, _MAX_VALUE 1 s, _PRECISION 2 significant digits), so that
// percentiles and LATENCY HISTOGRAM's buckets come out as Redis's. With those parameters the
// layout of hdr_histogram.c's hdr_calculate_bucket_config is fixed: the constants below are
// what it computes.
const (
	hdrLowest  = 1             // ns
	hdrHighest = 1_000_000_000 // ns
	// largest value with single-unit resolution 2·10² = 200 → 2⁸ sub-buckets, half 2⁷.
	hdrSubBucketHalfCountMagnitude = 7
	hdrSubBucketCount              = 1 << (hdrSubBucketHalfCountMagnitude + 1) // 256
	hdrSubBucketHalfCount          = hdrSubBucketCount / 2                     // 128
	hdrSubBucketMask               = hdrSubBucketCount - 1                     // unit magnitude 0
	// buckets needed to cover 1e9: 256·2²² > 1e9 → 23.
	hdrBucketCount = 23
	hdrCountsLen   = (hdrBucketCount + 1) * hdrSubBucketHalfCount // 3072
)

// histogram is one stripe's counts of one command, written by one goroutine at a time (see
// stripe) and read by others. The counts come in groups of hdrGroupLen, allocated when a
// duration first falls in them: a command's durations span a few powers of two, so it holds a
// few KiB rather than the 24 KiB of every count (and there is one per command and P).
type histogram struct {
	groups [hdrCountsLen / hdrGroupLen]atomic.Pointer[countGroup]
}

// hdrGroupLen is the counts per group: one bucket's upper half (the layout's unit above the
// first bucket).
const hdrGroupLen = hdrSubBucketHalfCount

// countGroup is hdrGroupLen counts, written by addOwn or atomically, read atomically.
type countGroup [hdrGroupLen]int64

// hdrClamp clamps a duration to the histogram's range, as Redis's
// updateCommandLatencyHistogram does.
func hdrClamp(ns int64) int64 { return min(max(ns, hdrLowest), hdrHighest) }

// record counts one duration of ns nanoseconds and reports true, or reports false, counting
// nothing, when its group is not allocated yet (see Stats.recordSlow). shared: other
// goroutines may record into it at once.
func (h *histogram) record(ns int64, shared bool) bool {
	i := hdrCountsIndex(hdrClamp(ns))
	g := h.groups[i/hdrGroupLen].Load()
	if g == nil {
		return false
	}
	inc(&g[i%hdrGroupLen], 1, shared)
	return true
}

// group returns the group of count i, publishing fresh (unpublished, zeroed) when there is
// none: by a plain store from the stripe's one writer, or a compare-and-swap in the shared
// stripe.
func (h *histogram) group(i int, fresh *countGroup, shared bool) *countGroup {
	slot := &h.groups[i/hdrGroupLen]
	if g := slot.Load(); g != nil {
		return g
	}
	if shared && !slot.CompareAndSwap(nil, fresh) {
		return slot.Load()
	}
	slot.Store(fresh)
	return fresh
}

// hdrBucketIndex is get_bucket_index.
func hdrBucketIndex(v int64) int {
	pow2ceiling := 64 - bits.LeadingZeros64(uint64(v|hdrSubBucketMask))
	return pow2ceiling - (hdrSubBucketHalfCountMagnitude + 1)
}

// hdrCountsIndex is counts_index_for.
func hdrCountsIndex(v int64) int {
	b := hdrBucketIndex(v)
	sub := int(v >> b)
	return (b+1)<<hdrSubBucketHalfCountMagnitude + sub - hdrSubBucketHalfCount
}

// hdrValueAtIndex is hdr_value_at_index.
func hdrValueAtIndex(i int) int64 {
	b := i>>hdrSubBucketHalfCountMagnitude - 1
	sub := i&(hdrSubBucketHalfCount-1) + hdrSubBucketHalfCount
	if b < 0 {
		sub -= hdrSubBucketHalfCount
		b = 0
	}
	return int64(sub) << b
}

// hdrLowestEquivalent is lowest_equivalent_value.
func hdrLowestEquivalent(v int64) int64 {
	b := hdrBucketIndex(v)
	return (v >> b) << b
}

// hdrRangeSize is hdr_size_of_equivalent_value_range.
func hdrRangeSize(v int64) int64 {
	b := hdrBucketIndex(v)
	if v>>b >= hdrSubBucketCount {
		b++
	}
	return 1 << b
}

// hdrHighestEquivalent is highest_equivalent_value.
func hdrHighestEquivalent(v int64) int64 {
	return hdrLowestEquivalent(v) + hdrRangeSize(v) - 1
}

// snapshot is a histogram summed over the stripes, for reading.
type snapshot struct {
	counts [hdrCountsLen]int64
	total  int64
}

func (s *snapshot) add(h *histogram) {
	for gi := range h.groups {
		g := h.groups[gi].Load()
		if g == nil {
			continue
		}
		for j := range g {
			n := atomic.LoadInt64(&g[j])
			s.counts[gi*hdrGroupLen+j] += n
			s.total += n
		}
	}
}

// valueAtPercentile is hdr_value_at_percentile, in ns.
func (s *snapshot) valueAtPercentile(p float64) int64 {
	req := min(p, 100.0)
	want := int64(req/100*float64(s.total) + 0.5)
	want = max(want, 1)
	var v, sum int64
	for i, n := range s.counts {
		sum += n
		if sum >= want {
			v = hdrValueAtIndex(i)
			break
		}
	}
	if p == 0 {
		return hdrLowestEquivalent(v)
	}
	return hdrHighestEquivalent(v)
}

// cdf appends LATENCY HISTOGRAM's buckets as Redis's fillCommandCDF walks them with
// hdr_iter_log_init(1024, 2): at each power of two from 1024 ns, the highest value equivalent
// to where the walk stands (in µs) and the count of values up to there, when it grew.
func (s *snapshot) cdf(dst [][2]int64) [][2]int64 {
	const firstBucket, logBase = 1024, 2
	var (
		idx        = -1
		cumulative int64
		highest    int64
		value      int64
		prev       int64
		level      int64 = firstBucket
		levelLow         = hdrLowestEquivalent(firstBucket)
	)
	moveNext := func() bool {
		idx++
		if idx >= hdrCountsLen {
			return false
		}
		cumulative += s.counts[idx]
		value = hdrValueAtIndex(idx)
		highest = hdrLowestEquivalent(value) + hdrRangeSize(value) - 1
		return true
	}
	next := func() bool { // log_iter_next
		hasNext := cumulative < s.total
		beyond := idx < hdrCountsLen && hdrValueAtIndex(idx+1) > levelLow
		if !hasNext && !beyond {
			return false
		}
		for {
			if value >= levelLow {
				level *= logBase
				levelLow = hdrLowestEquivalent(level)
				return true
			}
			if !moveNext() {
				return true
			}
		}
	}
	for next() {
		if cumulative > prev {
			dst = append(dst, [2]int64{highest / 1000, cumulative})
		}
		prev = cumulative
	}
	return dst
}
