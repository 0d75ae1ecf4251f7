package info

// writeStats is # Stats. Replication, forks, defragmentation, client tracking, MIGRATE
// and RESTORE do not exist here, so their counters are truly 0, and so are
// the I/O threads'. Left out until they are measured: expired_stale_perc (kvserver's TTL index
// finds due keys exactly: there is no sampled estimate) and the eventloop_* figures of
// Redis 7.2 (the readiness loops do not time their cycles yet). total_error_replies and
// unexpected_error_replies come from the statistics package's hook. kvserver's own counters
// follow Redis's.
func writeStats(e *env, f fields) bool {
	s := e.src.Stats()
	f.int("total_connections_received", s.ConnectionsReceived)
	f.int("total_commands_processed", s.Commands)
	f.int("instantaneous_ops_per_sec", s.OpsPerSec)
	f.int("total_net_input_bytes", s.NetInput)
	f.int("total_net_output_bytes", s.NetOutput)
	f.int("total_net_repl_input_bytes", 0)
	f.int("total_net_repl_output_bytes", 0)
	f.float2("instantaneous_input_kbps", s.InputKbps)
	f.float2("instantaneous_output_kbps", s.OutputKbps)
	f.float2("instantaneous_input_repl_kbps", 0)
	f.float2("instantaneous_output_repl_kbps", 0)
	f.int("rejected_connections", s.Rejected)
	f.int("sync_full", 0)
	f.int("sync_partial_ok", 0)
	f.int("sync_partial_err", 0)
	f.int("expired_keys", s.ExpiredKeys)
	f.int("expired_time_cap_reached_count", s.ExpireCapReached)
	f.int("expire_cycle_cpu_milliseconds", s.ExpireCycleTime.Milliseconds())
	f.int("evicted_keys", s.EvictedKeys)
	f.int("evicted_clients", s.EvictedClients)
	f.int("total_eviction_exceeded_time", s.EvictionExceededTotal.Milliseconds())
	f.int("current_eviction_exceeded_time", s.EvictionExceededCurrent.Milliseconds())
	f.int("keyspace_hits", s.KeyspaceHits)
	f.int("keyspace_misses", s.KeyspaceMisses)
	f.int("pubsub_channels", s.PubsubChannels)
	f.int("pubsub_patterns", s.PubsubPatterns)
	f.int("pubsubshard_channels", s.PubsubShardChannels)
	f.int("latest_fork_usec", 0)
	f.int("total_forks", 0)
	f.int("migrate_cached_sockets", 0)
	f.int("slave_expires_tracked_keys", 0)
	f.int("active_defrag_hits", 0)
	f.int("active_defrag_misses", 0)
	f.int("active_defrag_key_hits", 0)
	f.int("active_defrag_key_misses", 0)
	f.int("total_active_defrag_time", 0)
	f.int("current_active_defrag_time", 0)
	f.int("tracking_total_keys", 0)
	f.int("tracking_total_items", 0)
	f.int("tracking_total_prefixes", 0)
	if e.hooks.ErrorReplies != nil {
		total, unexpected := e.hooks.ErrorReplies()
		f.int("unexpected_error_replies", unexpected)
		f.int("total_error_replies", total)
	}
	f.int("dump_payload_sanitizations", 0)
	f.int("total_reads_processed", s.ReadsProcessed)
	f.int("total_writes_processed", s.WritesProcessed)
	f.int("io_threaded_reads_processed", 0)
	f.int("io_threaded_writes_processed", 0)
	// No client's reply buffer is resized by the cron (Redis's clientsCronResizeOutputBuffer):
	// replies are written into shared 16 KiB buffers a client borrows for a batch.
	f.int("reply_buffer_shrinks", 0)
	f.int("reply_buffer_expands", 0)
	// Redis 7.2's ACL counters: the default user is the only one, so only authentication can
	// be denied.
	f.int("acl_access_denied_auth", s.AuthFailures)
	f.int("acl_access_denied_cmd", s.ACLDeniedCmd)
	f.int("acl_access_denied_key", s.ACLDeniedKey)
	f.int("acl_access_denied_channel", s.ACLDeniedChannel)
	// Redis 7.4's names, kept because clients of kvserver already read them.
	f.int("client_query_buffer_limit_disconnections", s.QueryBufLimitDisconnections)
	f.int("client_output_buffer_limit_disconnections", s.OutputLimitDisconnections)
	f.int("shared_read_buffers_out", s.SharedReadBuffersOut)
	f.int("shared_read_buffer_fallbacks", s.SharedReadBufferFallbacks)
	f.int("client_query_buffer_reallocs", s.QueryBufReallocs)
	f.int("big_argument_adoptions", s.BigArgAdoptions)
	f.int("big_argument_copies", s.BigArgCopies)
	// Handler panics the pipeline recovered, and the shards they poisoned (their commands
	// answer an error until a restart; the other shards serve).
	f.int("command_panics", s.CommandPanics)
	f.int("poisoned_shards", int64(e.ks.PoisonedShards()))
	return true
}
