package debugfamily

import (
	"time"

	"github.com/kvserver/kvserver/alloc"
)

// Server is what DEBUG and MEMORY ask of the server, beyond the keyspace the pipeline gives
// every handler.
type Server interface {
	// Sleep blocks the calling client for d (DEBUG SLEEP), or less if the server shuts down
	// meanwhile. With a test's fake clock it advances that clock instead.
	Sleep(d time.Duration)
	// PauseCron stops (true) or resumes the cron's periodic work (DEBUG PAUSE-CRON).
	PauseCron(paused bool)
	// SetActiveExpire switches the cron's removal of due keys on or off (DEBUG
	// SET-ACTIVE-EXPIRE); off returns once no removal is under way, so that keys set after it
	// stay until read.
	SetActiveExpire(on bool)
	// Log writes DEBUG LOG's message through the server's rate-limited logger.
	Log(msg []byte)
	// ChangeReplID gives the instance a new replication ID and clears the previous one (DEBUG
	// CHANGE-REPL-ID), as INFO replication's master_replid and master_replid2 show.
	ChangeReplID()
	// Memory is the server-wide part of MEMORY STATS and DOCTOR: what the process holds
	// beyond the keyspace's shards.
	Memory() ServerMemory
	// WithClientArena runs fn with the clients' arena under the lock that serialises it
	// (MEMORY MALLOC-STATS reads its span headers).
	WithClientArena(fn func(a *alloc.Arena))
	// SaveLocked writes the snapshot file while the caller holds every shard's lock (DEBUG
	// RELOAD); it fails while a background save runs.
	SaveLocked() error
	// LoadLocked loads the snapshot file into the keyspace while the caller holds every
	// shard's lock (DEBUG RELOAD); merge replaces keys that exist instead of failing.
	LoadLocked(merge bool) error
	// FlushFunctions removes every function library (DEBUG RELOAD empties them with the
	// keyspace, as Redis's emptyData).
	FlushFunctions()
}

// ServerMemory are the server's own memory figures, in bytes.
type ServerMemory struct {
	Used     int64 // used_memory: every arena's charge and the Go runtime's heap and stacks
	Peak     int64 // used_memory_peak
	Startup  int64 // used memory once the server had started, before any client
	Clients  int64 // mem_clients_normal: the buffers the clients hold
	NClients int   // connected clients
	RSS      int64 // the process's resident set
	// GoRuntime is the Go runtime's heap in use and stacks, part of Used.
	GoRuntime int64
	// GoResident is what the Go runtime holds from the OS (heap in use, free and awaiting
	// collection, stacks, its metadata): its part of the resident set.
	GoResident int64
}
