package info

// writePersistence is # Persistence in Redis 7.2's order, from package persist's figures.
// kvserver never forks, so the copy-on-write and fork fields are 0: a snapshot's extra memory is
// the records written before they changed, not copied pages. There is no append-only file: its
// status fields ("ok" would say a write succeeded) are left out, the others say none ran.
// rdb_last_save_time is the server's start until a save succeeds, as in Redis.
func writePersistence(e *env, f fields) bool {
	p := e.src.Persistence()
	f.int("loading", b2i(p.Loading))
	f.int("async_loading", 0)
	f.int("current_cow_peak", 0)
	f.int("current_cow_size", 0)
	f.int("current_cow_size_age", 0)
	f.float2("current_fork_perc", 0)
	f.int("current_save_keys_processed", p.CurrentSaveKeys)
	f.int("current_save_keys_total", p.CurrentSaveKeysTotal)
	f.int("rdb_changes_since_last_save", p.ChangesSinceLastSave)
	f.int("rdb_bgsave_in_progress", b2i(p.BgsaveInProgress))
	f.int("rdb_last_save_time", p.LastSaveTime)
	if p.LastBgsaveOK {
		f.str("rdb_last_bgsave_status", "ok")
	} else {
		f.str("rdb_last_bgsave_status", "err")
	}
	f.int("rdb_last_bgsave_time_sec", p.LastBgsaveTimeSec)
	f.int("rdb_current_bgsave_time_sec", p.CurrentBgsaveTimeSec)
	f.int("rdb_saves", p.Saves)
	f.int("rdb_last_cow_size", 0)
	f.int("rdb_last_load_keys_expired", p.LastLoadKeysExpired)
	f.int("rdb_last_load_keys_loaded", p.LastLoadKeysLoaded)
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
	if p.Loading {
		f.int("loading_start_time", p.LoadingStart)
		f.int("loading_total_bytes", p.LoadingTotalBytes)
		f.int("loading_rdb_used_mem", p.LoadingRDBUsedMem)
		f.int("loading_loaded_bytes", p.LoadingLoadedBytes)
		perc := 0.0
		if p.LoadingTotalBytes > 0 {
			perc = float64(p.LoadingLoadedBytes) * 100 / float64(p.LoadingTotalBytes)
		}
		f.float2("loading_loaded_perc", perc)
		f.int("loading_eta_seconds", p.LoadingETASeconds)
	}
	return true
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
