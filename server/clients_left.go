package server

// ConnectedClients is the number of clients not yet closed. After Shutdown it counts those
// still running a command (the others close at once): the bounded shutdown names them when
// shutdown-timeout passes.
func (s *Server) ConnectedClients() int { return int(s.connected.Load()) }
