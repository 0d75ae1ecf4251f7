package stats

import (
	"fmt"
	"strings"
	"testing"
)

// TestHistogramMatchesRedis: percentiles and LATENCY HISTOGRAM's buckets of a few recordings,
// against what Redis 7.2's deps/hdr_histogram (hdr_init(1, 1e9, 2), hdr_value_at_percentile,
// hdr_iter_log_init(1024, 2) as fillCommandCDF walks it) prints for the same values.
func TestHistogramMatchesRedis(t *testing.T) {
	ramp := make([]int64, 100)
	for i := range ramp {
		ramp[i] = int64(i+1) * 1000
	}
	spread := make([]int64, 1000)
	for i := range spread {
		spread[i] = int64(i*i*37%10000000) + 1
	}
	cases := []struct {
		name     string
		values   []int64
		pct, cdf string // at 0, 50, 90, 99, 99.9, 100; "µs:cumulative" pairs
	}{
		{"one1000", []int64{1000}, "1000 1003 1003 1003 1003 1003", "1:1"},
		{"ramp", ramp, "1000 50175 90111 99327 100351 100351", "1:1 2:2 4:4 8:8 16:16 33:33 66:66 132:100"},
		{"mixed", []int64{0, 5, 999, 1024, 1031, 1032, 2047, 4607, 123456, 999999999, 5000000000, 536870912, 700000000},
			"1 2047 1002438655 1002438655 1002438655 1002438655", "1:5 2:7 8:8 132:9 541065:10 1073741:13"},
		{"spread", spread, "1 3457023 8355839 9830399 10027007 10027007",
			"1:6 2:8 4:11 8:16 16:23 33:31 66:47 132:68 264:101 528:151 1056:232 2113:362 4227:575 8454:906 16908:1000"},
	}
	for _, tc := range cases {
		var h histogram
		for _, v := range tc.values {
			recordGrowing(&h, v)
		}
		var s snapshot
		s.add(&h)
		var pct []string
		for _, p := range []float64{0, 50, 90, 99, 99.9, 100} {
			pct = append(pct, fmt.Sprint(s.valueAtPercentile(p)))
		}
		if got := strings.Join(pct, " "); got != tc.pct {
			t.Errorf("%s: percentiles %s, want %s", tc.name, got, tc.pct)
		}
		var cdf []string
		for _, b := range s.cdf(nil) {
			cdf = append(cdf, fmt.Sprintf("%d:%d", b[0], b[1]))
		}
		if got := strings.Join(cdf, " "); got != tc.cdf {
			t.Errorf("%s: cdf %s, want %s", tc.name, got, tc.cdf)
		}
	}
}

// TestHistogramIndexRoundTrip: every index's value maps back to that index, and values are
// ascending, over the whole 1 ns … 1 s range.
func TestHistogramIndexRoundTrip(t *testing.T) {
	prev := int64(-1)
	for i := 0; i < hdrCountsLen; i++ {
		v := hdrValueAtIndex(i)
		if v <= prev {
			t.Fatalf("index %d: value %d not above %d", i, v, prev)
		}
		prev = v
		if v >= hdrLowest && v <= hdrHighest {
			if got := hdrCountsIndex(v); got != i {
				t.Fatalf("value %d (index %d) maps to index %d", v, i, got)
			}
		}
	}
	if i := hdrCountsIndex(hdrHighest); i >= hdrCountsLen {
		t.Fatalf("1 s maps to index %d, beyond %d", i, hdrCountsLen)
	}
}

// recordGrowing records v, allocating its group of counts when needed.
func recordGrowing(h *histogram, v int64) {
	i := hdrCountsIndex(hdrClamp(v))
	inc(&h.group(i, new(countGroup), false)[i%hdrGroupLen], 1, false)
}
