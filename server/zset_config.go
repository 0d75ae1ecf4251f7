package server

import (
	"strconv"

	"github.com/kvserver/kvserver/zsetval"
)

// startZsetConfig applies zset-max-listpack-entries and zset-max-listpack-value (and their
// zset-max-ziplist-* aliases, the same parameters) to package zsetval now and on every change:
// later writes convert at the new limits; sorted sets already encoded stay as they are, as in
// Redis.
func (s *Server) startZsetConfig() {
	apply := func(string) {
		entries, _ := s.cfg.Value("zset-max-listpack-entries")
		value, _ := s.cfg.Value("zset-max-listpack-value")
		e, err1 := strconv.ParseInt(entries, 10, 64)
		v, err2 := strconv.ParseInt(value, 10, 64)
		if err1 != nil || err2 != nil {
			return // the table validated them: unreachable
		}
		zsetval.SetLimits(e, v)
	}
	apply("")
	s.cfg.OnChange("zset-max-listpack-entries", apply)
	s.cfg.OnChange("zset-max-listpack-value", apply)
}
