package alloc

import (
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
)

// liveSampleNames are the runtime/metrics GoRuntimeLive reads. Reading them is cheap and does
// not stop the world (unlike runtime.ReadMemStats), but still belongs to the cron, not to a
// command path.
var liveSampleNames = [...]string{
	"/gc/heap/live:bytes",               // heap marked live by the last GC
	"/memory/classes/heap/stacks:bytes", // goroutine stacks
	"/memory/classes/os-stacks:bytes",   // stacks of threads the OS gave
}

// GoRuntimeLive is the Go runtime's part of used_memory (the sum of the arenas' Used and
// this): the heap the last collection found live, and stacks. Garbage awaiting collection is
// left out, so that used_memory — and eviction, which keeps it under maxmemory — does not rise
// and fall with each GC cycle. With the Go-heap backend (race builds) the arenas' spans are in
// that heap: they are left out too, as the arenas count them.
func GoRuntimeLive() int64 {
	samples := make([]metrics.Sample, len(liveSampleNames))
	for i, name := range liveSampleNames {
		samples[i].Name = name
	}
	metrics.Read(samples)
	var total int64
	for i, s := range samples {
		if s.Value.Kind() != metrics.KindUint64 {
			continue
		}
		v := int64(s.Value.Uint64())
		if i == 0 { // the live heap, less the arenas' spans when they are in it
			v = max(v-heapBackedBytes(), 0)
		}
		total += v
	}
	return total
}

// goResidentSampleNames are what GoRuntimeResident reads: everything the Go runtime has mapped,
// and the part of it returned to the OS.
var goResidentSampleNames = [...]string{
	"/memory/classes/total:bytes",
	"/memory/classes/heap/released:bytes",
}

// GoRuntimeResident is the memory the Go runtime holds from the OS and has not given back:
// its heap (in use, free and awaiting collection), stacks and its own metadata — the Go
// runtime's share of the process's resident set, as jemalloc's resident is Redis's (MEMORY
// STATS' allocator.resident). Like GoRuntimeInUse, for the cron and diagnostics, not a
// command's hot path.
func GoRuntimeResident() int64 {
	var samples [len(goResidentSampleNames)]metrics.Sample
	for i, name := range goResidentSampleNames {
		samples[i].Name = name
	}
	metrics.Read(samples[:])
	if samples[0].Value.Kind() != metrics.KindUint64 || samples[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(samples[0].Value.Uint64() - samples[1].Value.Uint64())
}

// ProcessRSS is the process's resident set size, from /proc/self/statm (0 if unavailable):
// INFO's used_memory_rss and MEMORY STATS' figures that derive from it.
func ProcessRSS() int64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fs := strings.Fields(string(data))
	if len(fs) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(fs[1], 10, 64)
	return pages * int64(os.Getpagesize())
}
