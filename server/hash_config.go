package server

import (
	"strconv"

	"github.com/kvserver/kvserver/hashval"
)

// startHashConfig applies hash-max-listpack-entries and hash-max-listpack-value (and their
// hash-max-ziplist-* aliases, the same parameters) to package hashval now and on every change:
// later writes convert at the new limits; hashes already encoded stay as they are, as in Redis.
func (s *Server) startHashConfig() {
	apply := func(string) {
		entries, _ := s.cfg.Value("hash-max-listpack-entries")
		value, _ := s.cfg.Value("hash-max-listpack-value")
		e, err1 := strconv.ParseInt(entries, 10, 64)
		v, err2 := strconv.ParseInt(value, 10, 64)
		if err1 != nil || err2 != nil {
			return // the table validated them: unreachable
		}
		hashval.SetLimits(e, v)
	}
	apply("")
	s.cfg.OnChange("hash-max-listpack-entries", apply)
	s.cfg.OnChange("hash-max-listpack-value", apply)
}
