package server

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/family/debugfamily"
)

// What DEBUG and MEMORY (family/debugfamily) ask of the server: debugHooks is its
// debugfamily.Server. The commands themselves live in the family.

// debugState is what DEBUG changes at run time.
type debugState struct {
	// activeExpireOff is DEBUG SET-ACTIVE-EXPIRE 0: the cron leaves due keys to lazy expiry.
	activeExpireOff atomic.Bool
	// expiring is held by the cron while it removes due keys, so that SET-ACTIVE-EXPIRE 0
	// returns only once no removal is under way: a test that turns active expiry off and then
	// sets keys with a short TTL must see them stay.
	expiring sync.Mutex
}

// replIDs are the instance's replication IDs (INFO replication's master_replid and
// master_replid2), changed by DEBUG CHANGE-REPL-ID. Guarded by mu; read by INFO.
type replIDs struct {
	mu       sync.Mutex
	id, id2  string
	assigned bool
}

// noReplID is Redis's cleared replication ID: 40 zeros.
const noReplID = "0000000000000000000000000000000000000000"

// replicationIDs returns master_replid and master_replid2. Until DEBUG CHANGE-REPL-ID the
// first is the run ID, as INFO has always shown it.
func (s *Server) replicationIDs() (id, id2 string) {
	s.repl.mu.Lock()
	defer s.repl.mu.Unlock()
	if !s.repl.assigned {
		return s.runID, noReplID
	}
	return s.repl.id, s.repl.id2
}

// debugAllowed is allowProtectedAction(enable-debug-command, c): yes allows every client,
// local only loopback and Unix-socket clients, no nobody. The directive is immutable: read once.
func (s *Server) debugAllowed(c *client) bool {
	switch s.enableDebug {
	case "yes":
		return true
	case "local":
		return c.IsLocal()
	}
	return false
}

// debug returns the server's debugState.
func (s *Server) debug() *debugState { return &s.debugState }

// activeExpireEnabled reports whether the cron removes due keys (DEBUG SET-ACTIVE-EXPIRE).
func (s *Server) activeExpireEnabled() bool { return !s.debug().activeExpireOff.Load() }

// debugHooks is debugfamily.Server on s.
type debugHooks struct{ s *Server }

var _ debugfamily.Server = debugHooks{}

// SaveLocked saves with every shard locked by the calling command (DEBUG RELOAD).
func (h debugHooks) SaveLocked() error { return h.s.persist.SaveHeld() }

// LoadLocked loads dbfilename with every shard locked by the calling command (DEBUG RELOAD);
// merge replaces keys that exist.
func (h debugHooks) LoadLocked(merge bool) error {
	_, err := h.s.persist.LoadFile(h.s.persistSettings().Path(), true, merge)
	if err != nil {
		h.s.log.Warn("DEBUG RELOAD: " + err.Error())
	}
	return err
}

// FlushFunctions removes every function library (DEBUG RELOAD's flush).
func (h debugHooks) FlushFunctions() { h.s.scripting.family.Functions.Flush() }

// Sleep is DEBUG SLEEP's: Options.Sleep when a test gave one (a fake clock advances), else a
// timer that the shutdown cuts short when it stops waiting for running commands (Abandon). A
// shutdown waits for it until then, up to shutdown-timeout, as for any command in progress.
func (h debugHooks) Sleep(d time.Duration) {
	if h.s.sleep != nil {
		h.s.sleep(d)
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-h.s.abandoned:
	}
}

// PauseCron is DEBUG PAUSE-CRON's: the cron's ticks skip their work while paused (the LRU
// clock goes on).
func (h debugHooks) PauseCron(paused bool) { h.s.cron.paused.Store(paused) }

// SetActiveExpire is DEBUG SET-ACTIVE-EXPIRE's. Turned off, it waits for a cycle already
// running to see the flag.
func (h debugHooks) SetActiveExpire(on bool) {
	d := h.s.debug()
	d.activeExpireOff.Store(!on)
	d.expiring.Lock()
	d.expiring.Unlock()
}

// Log is DEBUG LOG's: the server's rate-limited logger, the line cut at 1 KiB.
func (h debugHooks) Log(msg []byte) { h.s.debugLog(msg) }

// ChangeReplID is Redis's changeReplicationId and clearReplicationId2: a new random 40-hex ID,
// and the previous one forgotten.
func (h debugHooks) ChangeReplID() {
	var b [20]byte
	_, _ = rand.Read(b[:])
	r := &h.s.repl
	r.mu.Lock()
	r.id, r.id2, r.assigned = hex.EncodeToString(b[:]), noReplID, true
	r.mu.Unlock()
	h.s.log.Info("Changing replication IDs after receiving DEBUG change-repl-id")
}

// Memory is the server's part of MEMORY STATS.
func (h debugHooks) Memory() debugfamily.ServerMemory {
	s := h.s
	return debugfamily.ServerMemory{
		Used:      s.usedMemory(),
		Peak:      s.stats.usedMemoryPeak.Load(),
		Startup:   s.startupMemory,
		Clients:   s.clientsMemory(),
		NClients:  int(s.connected.Load()),
		RSS:       alloc.ProcessRSS(),
		GoRuntime: s.cron.goLive.Load(),
		// Read now: MEMORY STATS is a diagnostic, not a hot path.
		GoResident: alloc.GoRuntimeResident(),
	}
}

// WithClientArena runs fn on the clients' arena under its lock.
func (h debugHooks) WithClientArena(fn func(a *alloc.Arena)) {
	h.s.clientArenaMu.Lock()
	defer h.s.clientArenaMu.Unlock()
	fn(h.s.clientArena)
}
