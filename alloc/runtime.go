package alloc

import "runtime/metrics"

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
// and fall with each GC cycle.
func GoRuntimeLive() int64 {
	samples := make([]metrics.Sample, len(liveSampleNames))
	for i, name := range liveSampleNames {
		samples[i].Name = name
	}
	metrics.Read(samples)
	var total int64
	for _, s := range samples {
		if s.Value.Kind() == metrics.KindUint64 {
			total += int64(s.Value.Uint64())
		}
	}
	return total
}
