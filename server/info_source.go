package server

import (
	"github.com/kvserver/kvserver/persist"
	"time"

	"github.com/kvserver/kvserver/info"
)

// infoSource is the server's side of INFO (package info): the facts only the server holds —
// its clients, listeners, counters and the memory of the client buffers.
type infoSource Server

var _ info.Source = (*infoSource)(nil)

// Process is # Server's run id, paths, start time, clock and listeners.
func (src *infoSource) Process() info.Process {
	s := (*Server)(src)
	p := info.Process{RunID: s.runID, Executable: s.executable, ConfigFile: s.configFile,
		Started: s.started, Now: s.now()}
	p.ReplID, p.ReplID2 = s.replicationIDs()
	s.listen.mu.Lock()
	// Redis prints the configured bind addresses, as many as it has sockets for (listener0);
	// the Unix socket is listener1, with its path as its one address.
	if n := len(s.listen.mu.tcp); n > 0 {
		binds := s.cfg.Bind()
		p.Listeners = append(p.Listeners, info.Listener{Index: 0, Name: "tcp",
			Binds: binds[:min(n, len(binds))], Port: s.listen.mu.tcp[0].port})
	}
	if ln := s.listen.mu.unixSock; ln != nil {
		p.Listeners = append(p.Listeners, info.Listener{Index: 1, Name: "unix", Binds: []string{ln.addr}})
	}
	s.listen.mu.Unlock()
	return p
}

// Clients is # Clients: the connections and the largest buffers they hold now.
func (src *infoSource) Clients() info.Clients {
	s := (*Server)(src)
	c := info.Clients{Connected: s.connected.Load(), Blocked: s.pipeline.BlockedClients(),
		BlockingKeys: s.ks.BlockingKeys(), InTimeoutTable: s.pipeline.BlockedWithDeadline()}
	for _, cl := range s.clientsSnapshot() {
		c.RecentMaxInput = max(c.RecentMaxInput, cl.qbufCap.Load()+cl.argvMem.Load())
		c.RecentMaxOutput = max(c.RecentMaxOutput, cl.replyBufSize.Load())
		if st := cl.state.Load(); st == clientParked || st == clientBlocked {
			c.Parked++
		}
	}
	return c
}

// Memory is used_memory and the parts the server keeps.
func (src *infoSource) Memory() info.Memory {
	s := (*Server)(src)
	used := s.usedMemory()
	return info.Memory{Used: used, Peak: max(s.stats.usedMemoryPeak.Load(), used),
		Startup: s.startupMemory, GoRuntime: s.cron.goLive.Load(), Clients: s.clientsMemory(),
		Scripting: s.scriptingInfo()}
}

// clientsMemory is mem_clients_normal: the buffers the clients hold.
func (s *Server) clientsMemory() int64 {
	var n int64
	for _, c := range s.clientsSnapshot() {
		n += c.totalMemory()
	}
	return n
}

// Stats are the server's counters, CONFIG RESETSTAT's offsets applied.
func (src *infoSource) Stats() info.Stats {
	s := (*Server)(src)
	st := &s.stats
	in, out := s.netBytes()
	reads, writes := s.ioTotals()
	rp := s.readPool.Stats()
	s.clientArenaMu.Lock()
	qbReallocs := s.clientArena.Stats().Reallocs
	s.clientArenaMu.Unlock()
	exceededTotal, exceededNow := s.evictor.ExceededTime()
	return info.Stats{
		ConnectionsReceived:         st.connectionsReceived.Load(),
		Commands:                    s.totalCommands(),
		OpsPerSec:                   s.cron.opsPerSec.Load(),
		NetInput:                    in,
		NetOutput:                   out,
		InputKbps:                   float64(s.cron.inputBps.Load()) / 1024,
		OutputKbps:                  float64(s.cron.outputBps.Load()) / 1024,
		Rejected:                    st.rejectedConnections.Load(),
		ReadsProcessed:              reads,
		WritesProcessed:             writes,
		ExpiredKeys:                 s.ks.ExpiredKeys() - st.expiredBase.Load(),
		ExpireCapReached:            st.expireCapReached.Load(),
		ExpireCycleTime:             time.Duration(st.expireCycleNanos.Load()),
		KeyspaceHits:                s.keyspaceHits() - st.hitsBase.Load(),
		KeyspaceMisses:              s.keyspaceMisses() - st.missesBase.Load(),
		EvictedKeys:                 s.evictor.Evicted(),
		EvictedClients:              st.evictedClients.Load(),
		EvictionExceededTotal:       exceededTotal,
		EvictionExceededCurrent:     exceededNow,
		AuthFailures:                st.authFailures.Load(),
		ACLDeniedCmd:                s.acl.step.DeniedCmd.Load(),
		ACLDeniedKey:                s.acl.step.DeniedKey.Load(),
		ACLDeniedChannel:            s.acl.step.DeniedChannel.Load(),
		QueryBufLimitDisconnections: st.queryBufLimitDisconnections.Load(),
		OutputLimitDisconnections:   st.outputLimitDisconnections.Load(),
		SharedReadBuffersOut:        int64(rp.Gets - rp.Puts),
		SharedReadBufferFallbacks:   int64(rp.Fallbacks),
		QueryBufReallocs:            int64(qbReallocs),
		BigArgAdoptions:             st.bigArgAdoptions.Load(),
		BigArgCopies:                st.bigArgCopies.Load(),
		CommandPanics:               s.pipeline.Panics(),
		PubsubChannels:              int64(s.hub.NumChannels()),
		PubsubPatterns:              int64(s.hub.NumPat()),
		PubsubShardChannels:         int64(s.hub.NumShardChannels()),
	}
}

// Hooks are the statistics package's sections (stats.Stats): commandstats, errorstats,
// latencystats and the error-reply totals.
func (src *infoSource) Hooks() info.Hooks {
	st := src.observe.cmdStats
	return info.Hooks{
		CommandStats: st.WriteCommandStats,
		ErrorStats:   st.WriteErrorStats,
		LatencyStats: st.WriteLatencyStats,
		ErrorReplies: func() (total, unexpected int64) {
			return st.TotalErrorReplies(), st.UnexpectedErrorReplies()
		},
	}
}

// Persistence is # Persistence's figures, from the persister.
func (src *infoSource) Persistence() persist.Stats { return src.persist.Stats() }
