package info

// writeClients is # Clients. No client tracking exists yet, so its count is truly 0; nor does a
// command that blocks until a key is deleted (total_blocking_keys_on_nokey: XREADGROUP's, with
// streams); clients_in_timeout_table counts the blocked clients with a deadline (the pipeline's
// heap, Redis's timeout table); parked_clients is kvserver's own.
func writeClients(e *env, f fields) bool {
	c := e.src.Clients()
	f.int("connected_clients", c.Connected)
	f.int("cluster_connections", 0)
	f.int("maxclients", int64(e.cfg.MaxClients()))
	f.int("client_recent_max_input_buffer", c.RecentMaxInput)
	f.int("client_recent_max_output_buffer", c.RecentMaxOutput)
	f.int("blocked_clients", c.Blocked)
	f.int("tracking_clients", 0)
	f.int("clients_in_timeout_table", c.InTimeoutTable)
	f.int("total_blocking_keys", c.BlockingKeys)
	f.int("total_blocking_keys_on_nokey", 0)
	f.int("parked_clients", c.Parked)
	return true
}
