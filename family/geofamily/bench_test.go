package geofamily

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// benchSearch fills a geo set of n points around Sicily and runs one search per iteration:
// a 20 km radius, the nearest 10 with their distances.
func benchSearch(b *testing.B, n int) {
	h := newHarness(b)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		h.Do("GEOADD", "g", ftoa(13+rng.Float64()*2), ftoa(37+rng.Float64()*1.2), "p"+strconv.Itoa(i))
	}
	b.ReportAllocs()
	for b.Loop() {
		h.Do("GEOSEARCH", "g", "FROMLONLAT", "14", "37.6", "BYRADIUS", "20", "km", "WITHDIST", "COUNT", "10", "ASC")
	}
}

func BenchmarkGeosearch100(b *testing.B)  { benchSearch(b, 100) }
func BenchmarkGeosearch5000(b *testing.B) { benchSearch(b, 5000) }

func BenchmarkGeoadd(b *testing.B) {
	h := newHarness(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		h.Do("GEOADD", "g", ftoa(13+float64(i%100)*0.01), "37.5", "p"+strconv.Itoa(i%100))
	}
}

// BenchmarkGeoradius1000: GEORADIUS of 50 km over a skiplist of 1,000 points around Sicily
// (about 900 candidates decoded and measured).
func BenchmarkGeoradius1000(b *testing.B) {
	h := newHarness(b)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 1000 {
		h.Do("GEOADD", "g", ftoa(13+rng.Float64()*2), ftoa(37+rng.Float64()*1.2), "p"+strconv.Itoa(i))
	}
	b.ReportAllocs()
	for b.Loop() {
		h.Do("GEORADIUS", "g", "14", "37.6", "50", "km")
	}
}
