package alloc

import "runtime/metrics"

// runtimeSamples are the runtime/metrics read by GoRuntimeInUse. Reading them is cheap and does
// not stop the world (unlike runtime.ReadMemStats), but still belongs to the cron, not to a
// command path.
var runtimeSampleNames = [...]string{
	"/memory/classes/heap/objects:bytes", // live and not yet swept objects
	"/memory/classes/heap/unused:bytes",  // free space inside in-use heap spans
	"/memory/classes/heap/stacks:bytes",  // goroutine stacks
	"/memory/classes/os-stacks:bytes",    // stacks of threads the OS gave
}

// GoRuntimeInUse is the memory the Go runtime holds for the process's own Go objects: heap in
// use (objects and the free space of their spans) and stacks. used_memory is the sum of the
// arenas' Used and this.
func GoRuntimeInUse() int64 {
	samples := make([]metrics.Sample, len(runtimeSampleNames))
	for i, name := range runtimeSampleNames {
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
