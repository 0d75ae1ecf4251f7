package main

import (
	"math"
	"math/bits"
)

// subBits sets the histogram's precision: each power of two is split into 2^subBits linear
// buckets, so a reported percentile is within 1/128 (0.8%) of a recorded value.
const subBits = 7

const subCount = 1 << subBits

// Histogram is a log-linear (HDR-style) histogram of non-negative int64 values: values below
// subCount are counted exactly, larger ones in buckets whose width is 1/subCount of their
// power of two. It is not safe for concurrent use; give each goroutine its own and Merge.
type Histogram struct {
	counts [(64 - subBits + 1) * subCount]uint64
	total  uint64
	max    int64
	sum    float64
}

// NewHistogram returns an empty histogram.
func NewHistogram() *Histogram { return new(Histogram) }

// bucketOf returns the index of the bucket that counts v (v >= 0).
func bucketOf(v int64) int {
	u := uint64(v)
	if u < subCount {
		return int(u)
	}
	shift := bits.Len64(u) - 1 - subBits
	return (shift+1)*subCount + int(u>>shift) - subCount
}

// highest returns the largest value counted by bucket i.
func highest(i int) int64 {
	if i < subCount {
		return int64(i)
	}
	shift := i/subCount - 1
	lo := uint64(subCount+i%subCount) << shift
	return int64(lo + 1<<shift - 1)
}

// Record counts one value; negative values count as 0.
func (h *Histogram) Record(v int64) {
	if v < 0 {
		v = 0
	}
	h.counts[bucketOf(v)]++
	h.total++
	h.sum += float64(v)
	h.max = max(h.max, v)
}

// Merge adds o's counts to h.
func (h *Histogram) Merge(o *Histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.total += o.total
	h.sum += o.sum
	h.max = max(h.max, o.max)
}

// Count returns the number of recorded values.
func (h *Histogram) Count() uint64 { return h.total }

// Max returns the largest recorded value (0 when empty).
func (h *Histogram) Max() int64 { return h.max }

// Mean returns the mean of the recorded values (0 when empty).
func (h *Histogram) Mean() float64 {
	if h.total == 0 {
		return 0
	}
	return h.sum / float64(h.total)
}

// Percentile returns the value below or at which q percent of the recorded values lie (the
// highest value of that bucket, capped at Max), for q in [0, 100]; 0 when empty.
func (h *Histogram) Percentile(q float64) int64 {
	if h.total == 0 {
		return 0
	}
	// The epsilon keeps 99.9% of 1000 at rank 999: 99.9/100*1000 is 999.0000000000001.
	rank := max(uint64(math.Ceil(q/100*float64(h.total)-1e-9)), 1)
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return min(highest(i), h.max)
		}
	}
	return h.max
}
