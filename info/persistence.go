package info

// writePersistence is # Persistence for a server without persistence: what is true of one that
// has never loaded, saved, forked or rewritten anything — no save in progress, none done
// (rdb_last_save_time 0 and rdb_last_bgsave_time_sec -1: never), nothing loaded, no AOF.
// Left out, because any value would claim work that did not happen or a count not kept:
// rdb_last_bgsave_status, aof_last_bgrewrite_status and aof_last_write_status ("ok" says a
// save or write succeeded), and rdb_changes_since_last_save (Redis's dirty counter, which the
// persistence work will bring). Redis's rdb_last_save_time is its start time when it has not
// saved; kvserver says 0, "never".
func writePersistence(_ *env, f fields) bool {
	f.int("loading", 0)
	f.int("async_loading", 0)
	f.int("current_cow_peak", 0)
	f.int("current_cow_size", 0)
	f.int("current_cow_size_age", 0)
	f.float2("current_fork_perc", 0)
	f.int("current_save_keys_processed", 0)
	f.int("current_save_keys_total", 0)
	f.int("rdb_bgsave_in_progress", 0)
	f.int("rdb_last_save_time", 0)
	f.int("rdb_last_bgsave_time_sec", -1)
	f.int("rdb_current_bgsave_time_sec", -1)
	f.int("rdb_saves", 0)
	f.int("rdb_last_cow_size", 0)
	f.int("rdb_last_load_keys_expired", 0)
	f.int("rdb_last_load_keys_loaded", 0)
	f.int("aof_enabled", 0)
	f.int("aof_rewrite_in_progress", 0)
	f.int("aof_rewrite_scheduled", 0)
	f.int("aof_last_rewrite_time_sec", -1)
	f.int("aof_current_rewrite_time_sec", -1)
	f.int("aof_rewrites", 0)
	f.int("aof_rewrites_consecutive_failures", 0)
	f.int("aof_last_cow_size", 0)
	f.int("module_fork_in_progress", 0)
	f.int("module_fork_last_cow_size", 0)
	return true
}
