// Package server is kvserver's network side: the listener, the clients, the command table and
// the handlers (one file per command family), the cron, and CONFIG/CLIENT. INFO is package
// info; the server supplies its figures through info.Source (info_source.go).
package server

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/evict"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/info"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/logging"
	"github.com/kvserver/kvserver/persist"
	"github.com/kvserver/kvserver/pubsub"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

// Versions reported by INFO and HELLO. Clients parse redis_version to decide what they may
// send, so it names the Redis release whose behaviour kvserver follows.
const (
	RedisVersion = config.RedisVersion
	Version      = info.Version
)

// Options are what the command line gives the server beyond its configuration.
type Options struct {
	Config     *config.Config
	Logger     *zap.Logger
	ConfigFile string // absolute path, "" if none
	Executable string // absolute path of the binary
	// LogLevel, when set, is the level of Logger, changed by CONFIG SET loglevel.
	LogLevel *zap.AtomicLevel
	// Clock, when set, replaces the system clock for what gives commands their meaning: the
	// keyspace's expiry, TTLs and LRU clock (OBJECT IDLETIME), TIME, and INFO's
	// server_time_usec and lru_clock. It returns unix ms. nil is the system clock. Tests run a
	// whole server on a fake clock with it; statistics (uptime, ops/sec, CLIENT LIST's ages),
	// the cron's timer and its time budgets stay on real time.
	Clock func() int64
	// Sleep, when set, replaces time.Sleep for DEBUG SLEEP: a test with a fake Clock makes it
	// advance that clock, so that nothing sleeps. nil is time.Sleep.
	Sleep func(time.Duration)
}

// Server is one kvserver instance.
type Server struct {
	cfg      *config.Config
	log      *zap.Logger
	ks       *keyspace.Keyspace
	cmds     *command.Table
	pipeline command.Pipeline
	// blocked is the blocked-command state of the clients that blocked (blocked.go).
	blocked blockedTable
	evictor *evict.Evictor     // the memory limit (memory_limit.go)
	persist *persist.Persister // saves and loads (persistence.go)
	// replConfs holds what clients declared with REPLCONF, by client id (cmd_sync.go).
	replConfs sync.Map
	// clientUsers holds the users of clients that authenticated as one other than default, by
	// client id (acl.go).
	clientUsers sync.Map
	// acl is the users, the ACL LOG and the pipeline's ACL step (acl.go); authNeeded says the
	// default user has a password or is off, so that new clients must authenticate.
	acl        serverACL
	authNeeded atomic.Bool
	// outputLimit is client-output-buffer-limit's normal class (output_limit.go).
	outputLimit atomic.Pointer[outputLimit]
	started     time.Time
	clock       func() int64        // Options.Clock: nil for the system clock (see now)
	sleep       func(time.Duration) // Options.Sleep: nil for a real sleep (debugHooks.Sleep)
	runID       string
	configFile  string
	executable  string

	// pubsubLimit is client-output-buffer-limit's pubsub class: subscribed clients
	// (output_limit.go).
	pubsubLimit atomic.Pointer[outputLimit]
	// hub is pub/sub's registry of channels and patterns (cmd_pubsub.go, pubsub_client.go).
	hub *pubsub.Hub

	listen listenState // the listening sockets (listen.go)
	mu     struct {
		sync.Mutex
		clients map[int64]*client
	}
	nextClientID atomic.Int64
	connected    atomic.Int64
	closing      atomic.Bool
	done         chan struct{} // closed when Shutdown begins
	abandoned    chan struct{} // closed by Abandon: commands that wait (DEBUG SLEEP) end
	abandonOnce  sync.Once
	wg           sync.WaitGroup
	shutdownOnce sync.Once

	stats      serverStats
	io         ioCounters // total_reads_processed, total_writes_processed
	cron       cronState
	debugState debugState // what DEBUG changed
	repl       replIDs    // the replication IDs (DEBUG CHANGE-REPL-ID)
	// startupMemory is used memory once New is done (MEMORY STATS' startup.allocated, INFO
	// used_memory_startup); set once, before any client.
	startupMemory int64
	observe       observeState   // slow log, latency monitor, command statistics (observe.go)
	scripting     scriptingState // Lua scripts and functions (scripting.go)

	logThrottles [numLogKinds]logging.Throttle // rate limits of the messages clients cause

	// readPool and replyPool are the shared 16 KiB buffers clients borrow for a read and for a
	// batch's replies (trimmed by the cron: trimBuffersCron).
	readPool, replyPool *querybuf.Pool
	// workers are the goroutines that serve clients taken from their loops (workers.go).
	workers handoffWorkers
	// bigReplies are the buffers a batch's replies grow into past the 16 KiB shared one
	// (replies.go).
	bigReplies *resp.BigBuffers
	// clientArena holds the clients' private query buffers, charged to the clients in
	// used_memory; clientArenaMu serialises its allocations (a client's own bytes are read and
	// written under the client's lock only).
	clientArena   *alloc.Arena
	clientArenaMu sync.Mutex

	activePool   chan *activeState        // see attachActiveLocked
	loops        []*readinessLoop         // the readiness loops that serve the sockets; set at Start
	loopsRunning sync.WaitGroup           // the loops' goroutines
	byFD         []atomic.Pointer[client] // client by socket fd, for the loops; sized at Start
	clientsLeft  sync.WaitGroup           // live clients, for stopping the loops after them
	parks        atomic.Int64             // goroutines that gave their client back, and states dropped
	limits       atomic.Pointer[querybuf.Limits]
	enableDebug  string // enable-debug-command: no, yes or local (immutable)
	inert        inertWarnings
}

// serverStats are counters INFO reports. Commands of live clients are summed from the
// clients; closedCmds keeps those of clients gone.
type serverStats struct {
	connectionsReceived         atomic.Int64
	rejectedConnections         atomic.Int64
	closedCmds                  atomic.Int64
	closedNetIn, closedNetOut   atomic.Int64
	queryBufLimitDisconnections atomic.Int64
	outputLimitDisconnections   atomic.Int64 // clients closed past an output limit (unauthenticated replies)
	evictedClients              atomic.Int64 // clients closed by maxmemory-clients (client_eviction.go)
	usedMemoryPeak              atomic.Int64
	closedHits, closedMisses    atomic.Int64
	bigArgAdoptions             atomic.Int64 // big values stored without a copy
	bigArgCopies                atomic.Int64 // big values that had to be copied
	expiredBase                 atomic.Int64 // CONFIG RESETSTAT offsets
	hitsBase, missesBase        atomic.Int64
	authFailures                atomic.Int64 // failed AUTH and HELLO AUTH (acl_access_denied_auth)
	// Active expiry runs the cron stopped at their time budget with due keys left, and the
	// time spent in active expiry (expired_time_cap_reached_count, expire_cycle_cpu_milliseconds).
	expireCapReached atomic.Int64
	expireCycleNanos atomic.Int64
}

// New makes a server from its configuration. Nothing listens until Start.
func New(opts Options) (*Server, error) {
	log := opts.Logger
	if log == nil {
		log = zap.NewNop()
	}
	// The keyspace reads its clock through a function either way (nil is time.Now's unix ms):
	// passing the fake one costs production nothing.
	ks, err := keyspace.New(keyspace.Options{Databases: opts.Config.Databases(), Clock: opts.Clock})
	if err != nil {
		return nil, err
	}
	clientArena, err := alloc.NewArena(0)
	if err != nil {
		ks.Close()
		return nil, err
	}
	var id [20]byte
	_, _ = rand.Read(id[:])
	s := &Server{
		cfg:        opts.Config,
		log:        log,
		ks:         ks,
		started:    time.Now(),
		clock:      opts.Clock,
		sleep:      opts.Sleep,
		runID:      hex.EncodeToString(id[:]),
		configFile: opts.ConfigFile,
		executable: opts.Executable,
		done:       make(chan struct{}),
		abandoned:  make(chan struct{}),
		// Two buffers per P: a goroutine holds one only between its read and its parse.
		readPool:    querybuf.NewPool(2*runtime.GOMAXPROCS(0), sharedBuffersMax),
		replyPool:   querybuf.NewPool(2*runtime.GOMAXPROCS(0), sharedBuffersMax),
		workers:     newHandoffWorkers(),
		bigReplies:  resp.NewBigBuffers(maxIdleBigReplies),
		clientArena: clientArena,
		activePool:  make(chan *activeState, activePoolSize),
	}
	s.enableDebug, _ = opts.Config.Value("enable-debug-command")
	s.cron.nowMs.Store(time.Now().UnixMilli()) // the cron keeps it from its first tick
	s.mu.clients = make(map[int64]*client)
	s.observe = newObserveState()
	s.pipeline = command.Pipeline{KS: ks, OnPanic: s.logCommandPanic}
	s.hub = pubsub.New()
	s.pipeline.Publisher = s.hub // keyspace notifications reach subscribers through the hub
	s.startPersistence()
	s.startScripting()
	s.cmds = command.New(s.commandFamilies()...)
	s.scriptingTableReady()
	if err := s.startACL(); err != nil {
		ks.Close()
		clientArena.Close()
		return nil, err
	}
	s.startObserving()
	if err := s.applyRenames(); err != nil {
		ks.Close()
		clientArena.Close()
		return nil, err
	}
	if err := s.adjustMaxClients(); err != nil {
		ks.Close()
		clientArena.Close()
		return nil, err
	}
	s.watchConfig(opts.LogLevel)
	s.watchInertDirectives()
	s.watchOutputLimit()
	s.startHashConfig()
	s.startListConfig()
	s.startZsetConfig()
	// After a collection, so that start-up's garbage does not count: used memory later is
	// measured against this (MEMORY STATS' net usage), and the heap of a server at rest is
	// its live part.
	runtime.GC()
	s.startupMemory = ks.UsedMemory() + clientArena.Used() + alloc.GoRuntimeLive()
	s.startMemoryLimit()
	s.startNotifications()
	s.startLazyFree()
	s.watchSetLimits()
	return s, nil
}

// now is the time commands see (TIME, INFO's server_time_usec): Options.Clock's when set, else
// the system's to the microsecond.
func (s *Server) now() time.Time {
	if s.clock != nil {
		return time.UnixMilli(s.clock())
	}
	return time.Now()
}

// applyRenames carries out the configuration's rename-command directives, in order; an error
// is a start-up error in Redis's FATAL CONFIG FILE ERROR form.
func (s *Server) applyRenames() error {
	for _, d := range s.cfg.Other() {
		if d[0] != "rename-command" {
			continue
		}
		if err := s.cmds.Rename(d[1], d[2]); err != nil {
			return &config.LoadError{Reason: err.Error()}
		}
	}
	return nil
}

// parserLimits are the protocol limits from the configuration, as last read (every client that
// is served picks them up: they are cached, not read from the configuration per request).
func (s *Server) parserLimits() querybuf.Limits {
	if l := s.limits.Load(); l != nil {
		return *l
	}
	return s.refreshParserLimits()
}

// refreshParserLimits reads the limits from the configuration (at start and on CONFIG SET).
func (s *Server) refreshParserLimits() querybuf.Limits {
	l := querybuf.DefaultLimits()
	l.MaxBulkLen = s.cfg.ProtoMaxBulkLen()
	l.QueryBufLimit = s.cfg.ClientQueryBufferLimit()
	s.limits.Store(&l)
	return l
}

// Start listens on every configured address (listen.go has the rules) and starts serving.
func (s *Server) Start() error {
	s.expectLoad()
	if err := s.openListeners(); err != nil {
		return err
	}
	s.byFD = make([]atomic.Pointer[client], fdTableSize())
	if err := s.startReadinessLoops(); err != nil {
		s.closeListeners()
		return fmt.Errorf("cannot start the readiness loops: %w", err)
	}
	s.listen.mu.Lock()
	s.startAcceptLoopsLocked(s.listen.mu.tcp)
	if ln := s.listen.mu.unixSock; ln != nil {
		s.startAcceptLoopsLocked([]*listener{ln})
	}
	s.listen.mu.Unlock()
	s.watchListeners()
	s.cron.goLive.Store(alloc.GoRuntimeLive())
	s.wg.Add(1)
	go s.runCron()
	return nil
}

// Done is closed when the server begins to shut down (SIGTERM or SHUTDOWN).
func (s *Server) Done() <-chan struct{} { return s.done }

// removeClient forgets a closed client.
func (s *Server) removeClient(c *client) {
	s.replConfs.Delete(c.id)
	s.clientUsers.Delete(c.id)
	s.mu.Lock()
	if _, ok := s.mu.clients[c.id]; ok {
		delete(s.mu.clients, c.id)
		s.connected.Add(-1)
		s.stats.closedCmds.Add(c.totCmds.Load())
		s.stats.closedNetIn.Add(c.netIn.Load())
		s.stats.closedNetOut.Add(c.netOut.Load())
		s.stats.closedHits.Add(c.keyStats.Hits.Load())
		s.stats.closedMisses.Add(c.keyStats.Misses.Load())
	}
	s.mu.Unlock()
	s.clientsLeft.Done()
	s.wg.Done()
}

// clientsSnapshot returns the live clients (for CLIENT LIST, INFO and the cron).
func (s *Server) clientsSnapshot() []*client {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*client, 0, len(s.mu.clients))
	for _, c := range s.mu.clients {
		out = append(out, c)
	}
	return out
}

// Shutdown stops accepting, stops running scripts, closes every client and waits for their
// goroutines. Safe to call more than once and from a client's own goroutine (SHUTDOWN), which
// it then does not wait for.
func (s *Server) Shutdown() {
	s.shutdownOnce.Do(func() {
		s.closing.Store(true)
		close(s.done)
		s.closeListeners()
		// Running scripts are stopped, written or not, so that their connections can close
		// (SHUTDOWN NOSAVE while a script is busy): without a save nothing they did lasts,
		// and a save waited for their locks, so none had begun before it.
		if sc := s.scripting.scripts; sc != nil {
			sc.KillAll()
		}
		for _, c := range s.clientsSnapshot() {
			c.killed.Store(true)
			if !s.closeParked(c) {
				c.shutdownSocket()
			}
		}
		// The loops run until the last client is gone: a goroutine may still wait for its
		// loop to report its socket writable (or shut down).
		s.loopsRunning.Add(1) // Close waits for this goroutine too
		go func() {
			defer s.loopsRunning.Done()
			s.clientsLeft.Wait()
			s.stopReadinessLoops()
		}()
	})
}

// Wait blocks until every goroutine of the server has ended after Shutdown.
func (s *Server) Wait() { s.wg.Wait() }

// Close frees the keyspace's memory. Call after Wait.
func (s *Server) Close() {
	s.loopsRunning.Wait()
	s.closeReadinessLoops()
	s.evictor.Close() // the background eviction uses the keyspace
	s.persist.Close() // so does a background save
	s.ks.Close()
	s.clientArena.Close()
}

// pid is the process id, for INFO.
var pid = os.Getpid()
