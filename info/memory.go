package info

import (
	"sync"
	"syscall"

	"github.com/kvserver/kvserver/alloc"
)

// writeMemory is # Memory. used_memory is every arena's charge plus the Go runtime's live heap and
// stacks; used_memory_dataset is the keyspace's charge, exact. Replication, AOF and cluster
// memory are 0 because none of them exists here. Left out: jemalloc's own
// figures (allocator_allocated, _active, _resident and the ratios and byte counts derived from
// them: allocator_frag_*, allocator_rss_*, rss_overhead_*), which kvserver's allocator does
// not keep — mem_fragmentation_ratio relates RSS to used_memory as Redis's does.
func writeMemory(e *env, f fields) bool {
	m := e.src.Memory()
	used := m.Used
	rss := alloc.ProcessRSS()
	peak := max(m.Peak, used)
	dataset := e.ks.UsedMemory()
	startup := min(m.Startup, used)
	maxmem := int64(e.cfg.MaxMemory())
	f.bytes("used_memory", used)
	f.bytes("used_memory_rss", rss)
	f.bytes("used_memory_peak", peak)
	f.str("used_memory_peak_perc", percent(used, peak))
	f.int("used_memory_overhead", used-dataset)
	f.int("used_memory_startup", startup)
	f.int("used_memory_dataset", dataset)
	f.str("used_memory_dataset_perc", percent(dataset, used-startup))
	f.bytes("total_system_memory", totalSystemMemory())
	// Scripting (Redis's names, the deprecated used_memory_lua included): the VMs are the
	// pooled Lua states, the scripts the caches of EVAL scripts and function libraries.
	sc := m.Scripting
	f.int("used_memory_lua", sc.VMEval)
	f.int("used_memory_vm_eval", sc.VMEval)
	f.str("used_memory_lua_human", bytesHuman(sc.VMEval))
	f.int("used_memory_scripts_eval", sc.ScriptsEval)
	f.int("number_of_cached_scripts", sc.CachedScripts)
	f.int("number_of_functions", sc.NumFunctions)
	f.int("number_of_libraries", sc.NumLibraries)
	f.int("used_memory_vm_functions", sc.VMFunctions)
	f.bytes("used_memory_vm_total", sc.VMEval+sc.VMFunctions)
	f.int("used_memory_functions", sc.Functions)
	f.bytes("used_memory_scripts", sc.ScriptsEval+sc.Functions)
	f.bytes("maxmemory", maxmem)
	f.str("maxmemory_policy", e.cfg.MaxMemoryPolicy())
	f.float2("mem_fragmentation_ratio", float64(rss)/float64(max(used, 1)))
	f.int("mem_fragmentation_bytes", rss-used)
	f.int("mem_not_counted_for_evict", 0)
	f.int("mem_replication_backlog", 0)
	f.int("mem_total_replication_buffers", 0)
	f.int("mem_clients_slaves", 0)
	f.int("mem_clients_normal", m.Clients)
	f.int("mem_cluster_links", 0)
	f.int("mem_aof_buffer", 0)
	f.str("mem_allocator", "kvserver-slab-"+alloc.Backend)
	f.int("active_defrag_running", 0)
	// Big hashes and sets deleted lazily (UNLINK, FLUSHALL ASYNC, the lazyfree-* directives)
	// wait in their shard's queue until the cron has freed them (keyspace/lazyfree.go).
	f.int("lazyfree_pending_objects", e.ks.LazyFreePending())
	f.int("lazyfreed_objects", e.ks.LazyFreed())
	f.int("used_memory_go_runtime", m.GoRuntime)
	return true
}

// totalSystemMemory is the machine's physical memory (Redis's zmalloc_get_memory_size), read
// once.
var totalSystemMemory = sync.OnceValue(func() int64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
})
