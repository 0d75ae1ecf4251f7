package server

import (
	"slices"
	"strconv"
	"strings"

	"go.uber.org/zap"
)

// Client eviction (maxmemory-clients, Redis's evictClients): while the clients' buffers
// together pass the limit, the client using the most memory is closed, then the next, sparing
// CLIENT NO-EVICT ones. kvserver checks at each cron tick (Redis also before each command):
// between two ticks the clients may pass the limit by what they read in 1/hz seconds.

// clientEvictionLimit is maxmemory-clients in bytes, 0 for none: a size, or a percentage of
// maxmemory (none while maxmemory is 0), as Redis's getClientEvictionLimit.
func (s *Server) clientEvictionLimit() int64 {
	v, _ := s.cfg.Value("maxmemory-clients")
	if pct, ok := strings.CutSuffix(v, "%"); ok {
		p, _ := strconv.ParseInt(pct, 10, 64)
		return int64(float64(s.cfg.MaxMemory()) * float64(p) / 100)
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	return n
}

// evictClientsCron closes the biggest clients while the clients' memory is over the limit.
func (s *Server) evictClientsCron() {
	limit := s.clientEvictionLimit()
	if limit <= 0 {
		return
	}
	type use struct {
		c   *client
		mem int64
	}
	var total int64
	var uses []use
	for _, c := range s.clientsSnapshot() {
		mem := c.totalMemory()
		total += mem
		if mem > 0 && !c.switchOn(switchNoEvict) && !c.killed.Load() {
			uses = append(uses, use{c, mem})
		}
	}
	if total <= limit {
		return
	}
	slices.SortFunc(uses, func(a, b use) int { return int(b.mem - a.mem) })
	for _, u := range uses {
		if total <= limit {
			break
		}
		if ce := s.log.Check(zap.DebugLevel, "Evicting client"); ce != nil { // Redis: verbose
			ce.Write(zap.Int64("id", u.c.id), zap.String("addr", u.c.remoteAddr()), zap.Int64("tot-mem", u.mem))
		}
		s.killClients(func(o *client) bool { return o == u.c })
		s.stats.evictedClients.Add(1)
		total -= u.mem
	}
}
