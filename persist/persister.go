package persist

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/keyspace"
)

// The latency monitor's events of saves (OnLatency).
const (
	EventSnapshotStart = "snapshot-start"
	EventStoppedSave   = "stopped-save"
)

// Replies of SAVE and BGSAVE, as Redis words them.
var (
	ErrSaveInProgress = errors.New("ERR Background save already in progress")
)

// SavePoint is one save rule: a background save after Seconds if at least Changes changes.
type SavePoint struct {
	Seconds int64
	Changes int64
}

// Settings are the configuration a save reads when it starts (dir, dbfilename, rdb*, save).
type Settings struct {
	Dir, DBFilename   string
	Compress          bool  // rdbcompression
	Checksum          bool  // rdbchecksum
	IncrementalFsync  bool  // rdb-save-incremental-fsync
	KeyDelay          int64 // rdb-key-save-delay, µs per key
	LoadDelay         int64 // key-load-delay, µs per key
	SavePoints        []SavePoint
	StopWritesOnError bool // stop-writes-on-bgsave-error
	Access            Access
	RedisVer          string
	UsedMem           int64
}

// Path is the snapshot file's path: dbfilename in dir.
func (s Settings) Path() string { return filepath.Join(s.Dir, s.DBFilename) }

// bgsaveRetryDelay is how long after a failed background save the save points wait before
// trying again (Redis's CONFIG_BGSAVE_RETRY_DELAY), so that a full disk is not hammered.
const bgsaveRetryDelay = 5 * time.Second

// Persister runs the server's saves — one snapshot at a time — and keeps what INFO
// persistence reports about them and about the last load.
type Persister struct {
	ks       *keyspace.Keyspace
	settings func() Settings
	log      *zap.Logger
	// OnLatency, when set, is told of the pauses a save makes commands wait for, as latency
	// monitor events (kvserver's own names, as there is no fork): EventSnapshotStart, the
	// instant every shard is locked to start a snapshot; EventStoppedSave, a save with every
	// shard locked throughout (a shutdown's, DEBUG RELOAD's).
	OnLatency func(event string, d time.Duration)
	// OnChange, when set, is called after a background save ends and when a load starts or
	// ends: what WritesRefused and Loading answer may have changed.
	OnChange func()

	snapMu sync.Mutex  // held for the whole of a snapshot: one at a time
	cancel atomic.Bool // set to cancel the background save (a shutdown's)

	mu           sync.Mutex
	bgRunning    bool
	bgScheduled  bool
	bgDone       *sync.Cond // signalled when a background save ends
	bgStart      time.Time
	lastSave     time.Time // the last successful save's end (LASTSAVE); the start time before any
	lastBgStatus error     // the last background save's error, nil when it succeeded
	lastBgTry    time.Time
	lastBgSecs   int64 // rdb_last_bgsave_time_sec, -1 before any
	saves        int64
	dirtyAtSave  int64        // the keyspace's dirty count at the start of the last successful save
	progress     atomic.Int64 // keys written by the running save
	totalKeys    atomic.Int64 // keys the running save will write

	loading      atomic.Bool
	loadStart    atomic.Int64 // unix s
	loadTotal    atomic.Int64 // the file's size
	loadProgress atomic.Int64 // keys loaded so far
	loadBytes    atomic.Int64 // bytes of the file read so far
	lastLoadKeys atomic.Int64
	lastLoadExp  atomic.Int64
}

// New returns a Persister for ks; settings is read at the start of every save and load.
func New(ks *keyspace.Keyspace, settings func() Settings, log *zap.Logger) *Persister {
	p := &Persister{ks: ks, settings: settings, log: log, lastSave: time.Now(), lastBgSecs: -1}
	p.bgDone = sync.NewCond(&p.mu)
	return p
}

// Save is SAVE: a snapshot written now, the caller waiting. It fails at once while a
// background save runs, as Redis's does.
func (p *Persister) Save() error {
	p.mu.Lock()
	if p.bgRunning {
		p.mu.Unlock()
		return ErrSaveInProgress
	}
	p.mu.Unlock()
	return p.save(false)
}

// SaveStopped is the save of a shutdown: with the world stopped, as Redis's is. A background
// save is cancelled ("There is a child saving an .rdb. Killing it!") and waited for; then stop
// takes every shard's lock (LockAll) and the snapshot is written under them. The caller
// releases the locks — or, once saved, freezes the shards first.
func (p *Persister) SaveStopped(stop func()) error {
	p.mu.Lock()
	if p.bgRunning {
		p.log.Warn("There is a child saving an .rdb. Killing it!")
		p.cancel.Store(true)
	}
	p.mu.Unlock()
	p.WaitBackground()
	p.snapMu.Lock()
	defer p.snapMu.Unlock()
	stop()
	return p.saveSnap(false, true)
}

// SaveHeld is a save by a command that holds every shard's lock already (DEBUG RELOAD). It
// fails while another snapshot runs, which would need those locks to end.
func (p *Persister) SaveHeld() error {
	if !p.snapMu.TryLock() {
		return ErrSaveInProgress
	}
	defer p.snapMu.Unlock()
	return p.saveSnap(false, true)
}

// BGSave is BGSAVE [SCHEDULE]: it starts a background save and returns Redis's status reply,
// or schedules one for when the running one ends.
func (p *Persister) BGSave(schedule bool) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bgRunning {
		if schedule {
			p.bgScheduled = true
			return "Background saving scheduled", nil
		}
		return "", ErrSaveInProgress
	}
	p.startBackgroundLocked()
	return "Background saving started", nil
}

// startBackgroundLocked starts a background save. Requires p.mu.
func (p *Persister) startBackgroundLocked() {
	p.bgRunning, p.bgScheduled = true, false
	p.bgStart, p.lastBgTry = time.Now(), time.Now()
	p.log.Info(fmt.Sprintf("Background saving started by pid %d", os.Getpid()))
	go func() {
		err := p.save(true)
		p.mu.Lock()
		p.bgRunning = false
		cancelled := errors.Is(err, ErrCancelled)
		if !cancelled {
			// A cancelled save says nothing about the disk (Redis's child killed by SIGUSR1).
			p.lastBgStatus = err
			p.lastBgSecs = int64(time.Since(p.bgStart).Round(time.Second) / time.Second)
		}
		p.cancel.Store(false)
		p.bgDone.Broadcast()
		p.mu.Unlock()
		if p.OnChange != nil {
			p.OnChange()
		}
		switch {
		case err == nil:
			p.log.Info("Background saving terminated with success")
		case cancelled:
			p.log.Warn("Background saving cancelled")
		default:
			p.log.Warn("Background saving error")
		}
	}()
}

// save writes a snapshot to the configured file, one snapshot at a time.
func (p *Persister) save(background bool) error {
	p.snapMu.Lock()
	defer p.snapMu.Unlock()
	return p.saveSnap(background, false)
}

// saveSnap writes a snapshot to the configured file. Requires snapMu.
func (p *Persister) saveSnap(background, locksHeld bool) error {
	st := p.settings()
	dirty := p.ks.Dirty()
	start := time.Now()
	p.progress.Store(0)
	var total int64
	for db := range p.ks.Databases() {
		total += p.ks.Keys(db)
	}
	p.totalKeys.Store(total)
	tmp := filepath.Join(st.Dir, fmt.Sprintf("temp-%d.rdb", os.Getpid()))
	res, err := SaveFile(p.ks, st.Path(), tmp, st.IncrementalFsync, SnapshotOptions{
		Compress: st.Compress, Checksum: st.Checksum, RedisVer: st.RedisVer, UsedMem: st.UsedMem,
		Access: st.Access, KeyDelay: st.KeyDelay, Progress: &p.progress, LocksHeld: locksHeld,
		Cancel: cancelOf(background, &p.cancel), Workers: walkers(locksHeld),
	})
	p.totalKeys.Store(0)
	if p.OnLatency != nil {
		p.OnLatency(EventSnapshotStart, res.StartPause)
		if locksHeld {
			p.OnLatency(EventStoppedSave, time.Since(start))
		}
	}
	if err != nil {
		p.log.Warn(err.Error())
		return err
	}
	if !background {
		p.log.Info("DB saved on disk")
	}
	p.mu.Lock()
	p.lastSave = time.Now()
	p.saves++
	p.dirtyAtSave = dirty
	p.mu.Unlock()
	return nil
}

// WaitBackground waits until no background save runs.
func (p *Persister) WaitBackground() {
	p.mu.Lock()
	for p.bgRunning {
		p.bgDone.Wait()
	}
	p.mu.Unlock()
}

// Cron is the save points' check, run by the server's cron about once a second: a scheduled
// BGSAVE starts when the running one has ended, and a save point that is due starts one
// (Redis's serverCron). A failed background save is retried only after bgsaveRetryDelay.
func (p *Persister) Cron(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bgRunning {
		return
	}
	if p.bgScheduled {
		p.startBackgroundLocked()
		return
	}
	st := p.settings()
	changes := p.ks.Dirty() - p.dirtyAtSave
	for _, sp := range st.SavePoints {
		if changes >= sp.Changes && now.Sub(p.lastSave) > time.Duration(sp.Seconds)*time.Second &&
			(p.lastBgStatus == nil || now.Sub(p.lastBgTry) > bgsaveRetryDelay) {
			p.log.Info(fmt.Sprintf("%d changes in %d seconds. Saving...", sp.Changes, sp.Seconds))
			p.startBackgroundLocked()
			return
		}
	}
}

// WritesRefused reports whether writes must be refused with MISCONF: the last background save
// failed, stop-writes-on-bgsave-error is on and save points exist (Redis's
// writeCommandsDeniedByDiskError for RDB).
func (p *Persister) WritesRefused() bool {
	p.mu.Lock()
	failed := p.lastBgStatus != nil
	p.mu.Unlock()
	if !failed {
		return false
	}
	st := p.settings()
	return st.StopWritesOnError && len(st.SavePoints) > 0
}

// LastSave is LASTSAVE: the unix time of the last successful save, the server's start before
// any.
func (p *Persister) LastSave() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastSave.Unix()
}

// Loading reports whether a load is in progress (commands answer -LOADING).
func (p *Persister) Loading() bool { return p.loading.Load() }

// LoadFile loads the snapshot file at path into the keyspace, marking the server as loading
// meanwhile. A missing file is no error (nothing is loaded, as Redis starts empty).
func (p *Persister) LoadFile(path string, locksHeld, merge bool) (LoadResult, error) {
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return LoadResult{}, nil
		}
		return LoadResult{}, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil {
		p.loadTotal.Store(fi.Size())
	}
	st := p.settings()
	p.loadStart.Store(time.Now().Unix())
	p.loadProgress.Store(0)
	p.loadBytes.Store(0)
	p.loading.Store(true)
	if p.OnChange != nil {
		p.OnChange()
	}
	defer func() {
		p.loading.Store(false)
		if p.OnChange != nil {
			p.OnChange()
		}
	}()
	res, err := Load(p.ks, &progressReader{r: f, n: &p.loadBytes}, LoadOptions{
		Now: p.ks.Now, KeyDelay: st.LoadDelay, Progress: &p.loadProgress, LocksHeld: locksHeld, Merge: merge,
	})
	p.lastLoadKeys.Store(res.Keys)
	p.lastLoadExp.Store(res.Expired)
	if err == nil {
		// What was just loaded is what the file holds: no changes since the last save.
		p.mu.Lock()
		p.dirtyAtSave = p.ks.Dirty()
		p.mu.Unlock()
	}
	return res, err
}

// Stats is what INFO persistence reports.
type Stats struct {
	Loading              bool
	LoadingStart         int64 // unix s
	LoadingTotalBytes    int64
	LoadingLoadedBytes   int64
	LoadingRDBUsedMem    int64 // the file's used-mem: not known before its end here, so 0
	LoadingETASeconds    int64
	LoadingKeys          int64
	ChangesSinceLastSave int64
	BgsaveInProgress     bool
	LastSaveTime         int64 // unix s
	LastBgsaveOK         bool
	LastBgsaveTimeSec    int64 // -1 before any
	CurrentBgsaveTimeSec int64 // -1 when none runs
	Saves                int64
	CurrentSaveKeys      int64 // keys written by the running save
	CurrentSaveKeysTotal int64
	LastLoadKeysLoaded   int64
	LastLoadKeysExpired  int64
}

// Stats returns the figures INFO persistence prints.
func (p *Persister) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := Stats{
		Loading:              p.loading.Load(),
		LoadingStart:         p.loadStart.Load(),
		LoadingTotalBytes:    p.loadTotal.Load(),
		LoadingKeys:          p.loadProgress.Load(),
		ChangesSinceLastSave: p.ks.Dirty() - p.dirtyAtSave,
		BgsaveInProgress:     p.bgRunning,
		LastSaveTime:         p.lastSave.Unix(),
		LastBgsaveOK:         p.lastBgStatus == nil,
		LastBgsaveTimeSec:    p.lastBgSecs,
		CurrentBgsaveTimeSec: -1,
		Saves:                p.saves,
		LastLoadKeysLoaded:   p.lastLoadKeys.Load(),
		LastLoadKeysExpired:  p.lastLoadExp.Load(),
	}
	if p.bgRunning {
		s.CurrentBgsaveTimeSec = int64(time.Since(p.bgStart) / time.Second)
	}
	if s.Loading {
		s.LoadingLoadedBytes = p.loadBytes.Load()
		elapsed := time.Now().Unix() - s.LoadingStart
		if s.LoadingLoadedBytes > 0 {
			s.LoadingETASeconds = elapsed * (s.LoadingTotalBytes - s.LoadingLoadedBytes) / s.LoadingLoadedBytes
		}
	}
	if p.totalKeys.Load() > 0 {
		s.CurrentSaveKeys, s.CurrentSaveKeysTotal = p.progress.Load(), p.totalKeys.Load()
	}
	return s
}

// cancelOf is the cancel flag a save watches: a background save's only.
func cancelOf(background bool, flag *atomic.Bool) *atomic.Bool {
	if background {
		return flag
	}
	return nil
}

// progressReader counts the bytes read through it (INFO loading_loaded_bytes).
type progressReader struct {
	r io.Reader
	n *atomic.Int64
}

func (r *progressReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.n.Add(int64(n))
	return n, err
}

// StreamSnapshot writes a snapshot of this instant to w, after any running save (one snapshot
// at a time): SYNC's transfer. It is not a save: LASTSAVE and the save counters stay.
func (p *Persister) StreamSnapshot(w io.Writer) (SnapshotResult, error) {
	p.snapMu.Lock()
	defer p.snapMu.Unlock()
	st := p.settings()
	return WriteSnapshot(p.ks, w, SnapshotOptions{
		Compress: st.Compress, Checksum: st.Checksum, RedisVer: st.RedisVer, UsedMem: st.UsedMem,
		Access: st.Access, KeyDelay: st.KeyDelay, Workers: walkers(false),
	})
}

// walkers is how many goroutines encode a snapshot: every core when the world is stopped (a
// shutdown's save), else half of them, at least one, so that commands keep cores to run on
// while a save runs beside them (Redis's forked child takes one core).
func walkers(worldStopped bool) int {
	if worldStopped {
		return runtime.GOMAXPROCS(0)
	}
	return max(1, runtime.GOMAXPROCS(0)/2)
}
