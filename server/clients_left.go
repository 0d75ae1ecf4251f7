package server

// ConnectedClients is the number of clients not yet closed. After Shutdown it counts those
// still running a command (the others close at once): the bounded shutdown names them when
// shutdown-timeout passes.
func (s *Server) ConnectedClients() int { return int(s.connected.Load()) }

// Abandon ends the commands that are only waiting — a DEBUG SLEEP in progress — at once: the
// shutdown has given up waiting for them (shutdown-timeout passed). Until then a sleeping
// client counts as running a command, as in Redis, where DEBUG SLEEP holds the server. Safe to
// call more than once, before or after Shutdown.
func (s *Server) Abandon() { s.abandonOnce.Do(func() { close(s.abandoned) }) }
