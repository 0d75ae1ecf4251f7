package server

import (
	"sync"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/config"
)

// Directives accepted for compatibility with no effect (config's Inert rows) say so: the first
// time one is set to a value other than its default — by the configuration at start-up or by
// CONFIG SET later — the server logs a warning naming it and what is missing. Once per
// directive per process: a client looping on CONFIG SET must not flood the log.

// inertWarnings remembers which inert directives have been warned about.
type inertWarnings struct {
	mu     sync.Mutex
	warned map[string]bool
}

// watchInertDirectives warns about the inert directives the configuration sets now, and
// registers a warning for each one CONFIG SET changes later. save is left to
// warnNothingSaved, which says more.
func (s *Server) watchInertDirectives() {
	s.inert.warned = map[string]bool{}
	for _, d := range config.Directives() {
		if d.Support != config.Inert || !d.Param || d.Name == "save" {
			continue
		}
		p, _ := config.Lookup(d.Name)
		if v, _ := s.cfg.Value(d.Name); v != p.Default {
			s.warnInert(d)
		}
		s.cfg.OnChange(d.Name, func(v string) {
			if v != p.Default {
				s.warnInert(d)
			}
		})
	}
}

func (s *Server) warnInert(d config.DirectiveSupport) {
	s.inert.mu.Lock()
	first := !s.inert.warned[d.Name]
	s.inert.warned[d.Name] = true
	s.inert.mu.Unlock()
	if first {
		s.log.Warn("'"+d.Name+"' is accepted for compatibility and has no effect: "+d.Note,
			zap.String("directive", d.Name))
	}
}
