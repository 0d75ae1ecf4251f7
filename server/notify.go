package server

import (
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
)

// Keyspace notifications' wiring: notify-keyspace-events sets the classes the keyspace and the
// pipeline check, and the events raised outside any command — the cron's active expiry and
// eviction — are published through the pipeline's Publisher (pub/sub's hub) once their shard
// is unlocked. Commands' own events are the pipeline's (command/notify.go).

// startNotifications applies notify-keyspace-events now and on every change, and routes the
// `expired` events of active expiry and the `evicted` events of the memory limit. It runs
// after startMemoryLimit.
func (s *Server) startNotifications() {
	apply := func(v string) { s.ks.SetNotifyClasses(keyspace.ParseNotifyClasses(v)) }
	v, _ := s.cfg.Value("notify-keyspace-events")
	apply(v)
	s.cfg.OnChange("notify-keyspace-events", apply)
	s.ks.SetOnExpired(func(db int, key []byte) {
		s.pipeline.PublishKeyEvent(keyspace.NotifyExpired, command.EventExpired, db, key)
	})
	s.evictor.OnEvicted = func(db int, key []byte) {
		s.pipeline.PublishKeyEvent(keyspace.NotifyEvicted, command.EventEvicted, db, key)
	}
}
