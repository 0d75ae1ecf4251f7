package server

import (
	"strconv"

	"github.com/kvserver/kvserver/listval"
)

// startListConfig applies list-max-listpack-size (and its list-max-ziplist-size alias, the
// same parameter) to package listval now and on every change: later conversions use the new
// fill, and quicklists made afterwards take it; existing quicklists keep theirs, as in Redis.
func (s *Server) startListConfig() {
	apply := func(string) {
		v, _ := s.cfg.Value("list-max-listpack-size")
		f, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return // the table validated it: unreachable
		}
		listval.SetLimits(f)
	}
	apply("")
	s.cfg.OnChange("list-max-listpack-size", apply)
}
