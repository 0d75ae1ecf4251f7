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
