package info

// writeClients is # Clients. No blocking commands, client tracking or client timeouts table
// exist yet, so their counts are truly 0; parked_clients is kvserver's own.
func writeClients(e *env, f fields) bool {
	c := e.src.Clients()
	f.int("connected_clients", c.Connected)
	f.int("cluster_connections", 0)
	f.int("maxclients", int64(e.cfg.MaxClients()))
	f.int("client_recent_max_input_buffer", c.RecentMaxInput)
	f.int("client_recent_max_output_buffer", c.RecentMaxOutput)
	f.int("blocked_clients", 0)
	f.int("tracking_clients", 0)
	f.int("clients_in_timeout_table", 0)
	f.int("total_blocking_keys", 0)
	f.int("total_blocking_keys_on_nokey", 0)
	f.int("parked_clients", c.Parked)
	return true
}
