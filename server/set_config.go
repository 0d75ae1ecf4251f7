package server

import (
	"strconv"

	"github.com/kvserver/kvserver/setval"
)

// setLimitParams are the set encodings' limits, in setval.SetLimits's order.
var setLimitParams = [3]string{"set-max-intset-entries", "set-max-listpack-entries", "set-max-listpack-value"}

// watchSetLimits applies the set encodings' limits (setval.SetLimits) now and on every CONFIG
// SET of one of them. The limits are process-wide: the last server started (or changed) in a
// process sets them.
func (s *Server) watchSetLimits() {
	apply := func(string) {
		var v [3]int64
		for i, name := range setLimitParams {
			text, _ := s.cfg.Value(name)
			v[i], _ = strconv.ParseInt(text, 10, 64)
		}
		setval.SetLimits(v[0], v[1], v[2])
	}
	apply("")
	for _, name := range setLimitParams {
		s.cfg.OnChange(name, apply)
	}
}
