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
	"github.com/kvserver/kvserver/rdb"
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

// Persister runs the server's snapshots — BGSAVE, SAVE, SYNC's, a shutdown's, DEBUG RELOAD's,
// one at a time — and keeps what INFO persistence reports about them and about the last load.
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
	// Functions, when set, are the function libraries every snapshot writes and every load
	// reads (functions.go); set it before the first save or load.
	Functions Functions

	mu       sync.Mutex
	idle     *sync.Cond  // signalled when no snapshot runs any more
	active   kind        // the snapshot running, kindNone when none
	cancel   atomic.Bool // set to cancel the running background save or SYNC snapshot
	flushSeq uint64      // files FLUSHALL wrote: a save begun before one must not rename over it
	bgStart  time.Time
	// lastSave is the last successful save's end (LASTSAVE); the start time before any.
	lastSave     time.Time
	lastBgStatus error // the last background save's error, nil when it succeeded
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

// kind is what a running snapshot is for.
type kind uint8

const (
	kindNone    kind = iota
	kindBG           // BGSAVE or a save point
	kindSave         // SAVE
	kindSync         // SYNC's transfer (counts as a background save in INFO, as Redis's child)
	kindStopped      // with every shard locked: a shutdown's, DEBUG RELOAD's
)

// errSuperseded refuses the rename of a save begun before FLUSHALL wrote its empty file.
var errSuperseded = errors.New("superseded by FLUSHALL's save")

// New returns a Persister for ks; settings is read at the start of every save and load.
func New(ks *keyspace.Keyspace, settings func() Settings, log *zap.Logger) *Persister {
	p := &Persister{ks: ks, settings: settings, log: log, lastSave: time.Now(), lastBgSecs: -1}
	p.idle = sync.NewCond(&p.mu)
	return p
}

// begin claims the right to run a snapshot of kind k: at once, or with wait after the
// running one ends. It returns the FLUSHALL count the save starts at.
func (p *Persister) begin(k kind, wait bool) (uint64, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for wait && p.active != kindNone {
		p.idle.Wait()
	}
	if p.active != kindNone {
		return 0, ErrSaveInProgress
	}
	p.active = k
	p.cancel.Store(false)
	switch k {
	case kindBG:
		p.bgStart, p.lastBgTry = time.Now(), time.Now()
	case kindSync:
		p.bgStart = time.Now()
	}
	return p.flushSeq, nil
}

// end releases what begin claimed.
func (p *Persister) end() {
	p.mu.Lock()
	p.active = kindNone
	p.cancel.Store(false)
	p.idle.Broadcast()
	p.mu.Unlock()
}

// options are a snapshot's options from the settings.
func (p *Persister) options(st Settings, locksHeld bool, cancel *atomic.Bool, progress *atomic.Int64) SnapshotOptions {
	return SnapshotOptions{
		Compress: st.Compress, Checksum: st.Checksum, RedisVer: st.RedisVer, UsedMem: st.UsedMem,
		Access: st.Access, KeyDelay: st.KeyDelay, Progress: progress, LocksHeld: locksHeld,
		Cancel: cancel, Workers: walkers(locksHeld), Functions: p.functionCodes(),
	}
}

// start fixes a save's instant: the keys it will write, its dirty count, its snapshot.
func (p *Persister) start(st Settings, locksHeld, cancellable bool) (*Snapshot, int64) {
	dirty := p.dirty()
	var total int64
	for db := range p.ks.Databases() {
		total += p.ks.Keys(db)
	}
	p.progress.Store(0)
	p.totalKeys.Store(total)
	var cancel *atomic.Bool
	if cancellable {
		cancel = &p.cancel
	}
	sn := StartSnapshot(p.ks, p.options(st, locksHeld, cancel, &p.progress))
	if p.OnLatency != nil && sn.pause > 0 {
		p.OnLatency(EventSnapshotStart, sn.pause)
	}
	return sn, dirty
}

// write writes a started save to the file, renaming it over the last one unless it was
// cancelled or superseded (commit, under p.mu), and records its success.
func (p *Persister) write(sn *Snapshot, st Settings, seq uint64, dirty int64, background bool) error {
	start := time.Now()
	tmp := filepath.Join(st.Dir, fmt.Sprintf("temp-%d.rdb", os.Getpid()))
	_, err := SaveFile(sn, st.Path(), tmp, st.IncrementalFsync, func(rename func() error) error {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch {
		case background && p.cancel.Load():
			return ErrCancelled
		case p.flushSeq != seq:
			return errSuperseded
		}
		if err := rename(); err != nil {
			return err
		}
		p.lastSave = time.Now()
		p.saves++
		p.dirtyAtSave = dirty
		if !background {
			p.lastBgStatus = nil // Redis's rdbSave sets lastbgsave_status ok too
		}
		return nil
	})
	p.totalKeys.Store(0)
	if sn.opt.LocksHeld && p.OnLatency != nil {
		p.OnLatency(EventStoppedSave, time.Since(start))
	}
	switch {
	case err == nil:
		if !background {
			p.log.Info("DB saved on disk")
		}
	case errors.Is(err, ErrCancelled), errors.Is(err, errSuperseded):
	default:
		p.log.Warn(err.Error())
	}
	return err
}

// Save is SAVE: a snapshot of this instant written before the reply. It fails at once while
// another snapshot runs, as Redis's does while its child saves. A FLUSHALL that saved an
// empty file meanwhile wins: the older snapshot is dropped, and SAVE succeeds (the file is
// newer than its instant).
func (p *Persister) Save() error {
	seq, err := p.begin(kindSave, false)
	if err != nil {
		return err
	}
	defer p.end()
	st := p.settings()
	sn, dirty := p.start(st, false, false)
	err = p.write(sn, st, seq, dirty, false)
	if errors.Is(err, errSuperseded) {
		return nil
	}
	return err
}

// BGSave is BGSAVE: the snapshot's instant is fixed before it returns (so a command after the
// reply is not in it, as after Redis's fork), and it is written by a goroutine. With no
// append-only file, SCHEDULE changes nothing: Redis's schedules only past an AOF rewrite.
func (p *Persister) BGSave() (string, error) {
	seq, err := p.begin(kindBG, false)
	if err != nil {
		return "", err
	}
	st := p.settings()
	sn, dirty := p.start(st, false, true)
	p.log.Info(fmt.Sprintf("Background saving started by pid %d", os.Getpid()))
	go func() {
		err := p.write(sn, st, seq, dirty, true)
		cancelled := errors.Is(err, ErrCancelled) || errors.Is(err, errSuperseded)
		p.mu.Lock()
		if !cancelled {
			// A cancelled save says nothing about the disk (Redis's child killed by SIGUSR1).
			p.lastBgStatus = err
			p.lastBgSecs = int64(time.Since(p.bgStart).Round(time.Second) / time.Second)
		}
		p.mu.Unlock()
		p.end()
		if p.OnChange != nil {
			p.OnChange()
		}
		switch {
		case err == nil:
			p.log.Info("Background saving terminated with success")
		case cancelled:
			p.log.Warn("Background saving terminated by signal 10") // Redis's words for a killed child
		default:
			p.log.Warn("Background saving error")
		}
	}()
	return "Background saving started", nil
}

// SaveStopped is the save of a shutdown: with the world stopped, as Redis's is. A background
// save or SYNC transfer is cancelled ("There is a child saving an .rdb. Killing it!") and
// waited for; then stop takes every shard's lock (LockAll) and the snapshot is written under
// them. The caller releases the locks — or, once saved, freezes the shards first.
func (p *Persister) SaveStopped(stop func()) error {
	p.cancelBackground()
	seq, _ := p.begin(kindStopped, true)
	defer p.end()
	stop()
	st := p.settings()
	sn, dirty := p.start(st, true, false)
	return p.write(sn, st, seq, dirty, false)
}

// SaveHeld is a save by a command that holds every shard's lock already (DEBUG RELOAD). It
// fails while another snapshot runs, which would need those locks to end.
func (p *Persister) SaveHeld() error {
	seq, err := p.begin(kindStopped, false)
	if err != nil {
		return err
	}
	defer p.end()
	st := p.settings()
	sn, dirty := p.start(st, true, false)
	return p.write(sn, st, seq, dirty, false)
}

// StreamSnapshot writes a snapshot of this instant to w, after the running one if any: SYNC's
// transfer. It is not a save (LASTSAVE and rdb_saves stay), but INFO shows it as a background
// save in progress, as Redis's child, and BGSAVE waits for it.
func (p *Persister) StreamSnapshot(w io.Writer) (SnapshotResult, error) {
	if _, err := p.begin(kindSync, true); err != nil {
		return SnapshotResult{}, err
	}
	defer p.end()
	st := p.settings()
	sn := StartSnapshot(p.ks, p.options(st, false, &p.cancel, nil))
	return sn.Encode(w)
}

// cancelBackground cancels a running background save or SYNC transfer.
func (p *Persister) cancelBackground() {
	p.mu.Lock()
	if p.active == kindBG || p.active == kindSync {
		p.log.Warn("There is a child saving an .rdb. Killing it!")
		p.cancel.Store(true)
	}
	p.mu.Unlock()
}

// Close cancels a running background save and waits for every snapshot to end: the keyspace
// may then be freed.
func (p *Persister) Close() {
	p.cancelBackground()
	p.mu.Lock()
	for p.active != kindNone {
		p.idle.Wait()
	}
	p.mu.Unlock()
}

// FlushedAll is FLUSHALL's part, called with every shard locked and the dataset empty: a
// running BGSAVE is cancelled, as Redis kills its child; and while save points exist an empty
// file is written at once (Redis 7's flushAllDataAndResetRDB), which a save begun before
// cannot rename over. The count of changes starts again from 0, as Redis's.
func (p *Persister) FlushedAll() error {
	p.mu.Lock()
	if p.active == kindBG {
		p.log.Warn("There is a child saving an .rdb. Killing it!")
		p.cancel.Store(true)
	}
	p.mu.Unlock()
	st := p.settings()
	if len(st.SavePoints) == 0 {
		return nil
	}
	tmp := filepath.Join(st.Dir, fmt.Sprintf("temp-flush-%d.rdb", os.Getpid()))
	err := writeFile(st.Path(), tmp, false, func(w io.Writer) error {
		e := rdb.NewEncoder(w)
		e.Compress, e.Checksum = st.Compress, st.Checksum
		e.WriteHeader()
		e.WriteStandardAux(st.RedisVer, time.Now().Unix(), st.UsedMem)
		for _, code := range p.functionCodes() { // FLUSHALL keeps the libraries
			e.WriteFunction(code)
		}
		return e.Finish()
	}, func(rename func() error) error {
		p.mu.Lock()
		defer p.mu.Unlock()
		if err := rename(); err != nil {
			return err
		}
		p.flushSeq++
		p.lastSave = time.Now()
		p.saves++
		p.dirtyAtSave = p.dirty()
		p.lastBgStatus = nil
		return nil
	})
	if err != nil {
		p.log.Warn(err.Error())
		return err
	}
	p.log.Info("DB saved on disk")
	return nil
}

// Cron is the save points' check, run by the server's cron: a save point that is due starts a
// background save (Redis's serverCron). After a failed one the next try waits
// bgsaveRetryDelay, so that a full disk is not hammered.
func (p *Persister) Cron(now time.Time) {
	p.mu.Lock()
	if p.active != kindNone {
		p.mu.Unlock()
		return
	}
	st := p.settings()
	changes := p.dirty() - p.dirtyAtSave
	due := false
	for _, sp := range st.SavePoints {
		if changes >= sp.Changes && now.Sub(p.lastSave) > time.Duration(sp.Seconds)*time.Second &&
			(p.lastBgStatus == nil || now.Sub(p.lastBgTry) > bgsaveRetryDelay) {
			p.log.Info(fmt.Sprintf("%d changes in %d seconds. Saving...", sp.Changes, sp.Seconds))
			due = true
			break
		}
	}
	p.mu.Unlock()
	if due {
		p.BGSave() // another save may have begun meanwhile: then this one is not needed
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

// MarkLoading says that a load is about to begin (the server calls it before it listens, when
// the file exists): commands answer -LOADING from the first one.
func (p *Persister) MarkLoading() {
	p.loading.Store(true)
	if p.OnChange != nil {
		p.OnChange()
	}
}

// LoadFile loads the snapshot file at path into the keyspace, marking the server as loading
// meanwhile. A missing file is an error that fs.ErrNotExist matches. A failed start-up load
// (locksHeld false) leaves the server marked as loading: it must exit without serving part of
// the file.
func (p *Persister) LoadFile(path string, locksHeld, merge bool) (LoadResult, error) {
	f, err := os.Open(path)
	if err != nil {
		if !locksHeld {
			p.setLoading(false)
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
	p.setLoading(true)
	res, err := Load(p.ks, &progressReader{r: f, n: &p.loadBytes}, LoadOptions{
		Now: p.ks.Now, KeyDelay: st.LoadDelay, Progress: &p.loadProgress, LocksHeld: locksHeld, Merge: merge,
		OnFunction: p.onFunction(merge),
	})
	p.lastLoadKeys.Store(res.Keys)
	p.lastLoadExp.Store(res.Expired)
	if err == nil {
		// What was just loaded is what the file holds: no changes since the last save.
		p.mu.Lock()
		p.dirtyAtSave = p.dirty()
		p.mu.Unlock()
	}
	if err == nil || locksHeld {
		p.setLoading(false)
	}
	return res, err
}

// setLoading marks a load as running or not, and tells OnChange.
func (p *Persister) setLoading(on bool) {
	p.loading.Store(on)
	if p.OnChange != nil {
		p.OnChange()
	}
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
		ChangesSinceLastSave: p.dirty() - p.dirtyAtSave,
		BgsaveInProgress:     p.active == kindBG || p.active == kindSync,
		LastSaveTime:         p.lastSave.Unix(),
		LastBgsaveOK:         p.lastBgStatus == nil,
		LastBgsaveTimeSec:    p.lastBgSecs,
		CurrentBgsaveTimeSec: -1,
		Saves:                p.saves,
		LastLoadKeysLoaded:   p.lastLoadKeys.Load(),
		LastLoadKeysExpired:  p.lastLoadExp.Load(),
	}
	if s.BgsaveInProgress {
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

// walkers is how many goroutines encode a snapshot: every core when the world is stopped (a
// shutdown's save), else half of them, at least one, so that commands keep cores to run on
// while a save runs beside them (Redis's forked child takes one core).
func walkers(worldStopped bool) int {
	if worldStopped {
		return runtime.GOMAXPROCS(0)
	}
	return max(1, runtime.GOMAXPROCS(0)/2)
}
