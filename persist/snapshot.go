package persist

import (
	"errors"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/rdb"
)

// SnapshotOptions say how WriteSnapshot writes.
type SnapshotOptions struct {
	Compress bool   // rdbcompression: LZF for strings over 20 bytes where it saves space
	Checksum bool   // rdbchecksum: the CRC-64 footer, else 8 zero bytes
	Version  int    // the header's RDB version; 0 means rdb.Version (11)
	RedisVer string // the redis-ver AUX field
	UsedMem  int64  // the used-mem AUX field
	Access   Access // the access clock written with each key
	// KeyDelay is rdb-key-save-delay: microseconds slept per key written (Redis's test knob,
	// which makes a save slow enough to watch). 0 means none.
	KeyDelay int64
	// Workers is the number of walker goroutines; 0 means GOMAXPROCS.
	Workers int
	// Progress, when set, counts the keys written so far (INFO current_save_keys_processed).
	Progress *atomic.Int64
	// Now is the time written as the ctime AUX field; nil means time.Now.
	Now func() time.Time
	// LocksHeld says the caller holds every shard's lock (a shutdown's save, DEBUG RELOAD):
	// nothing changes meanwhile, and the walkers do not lock.
	LocksHeld bool
	// Cancel, when set and true, abandons the snapshot (a shutdown does not wait for a
	// background save): WriteSnapshot returns ErrCancelled once every walk has ended.
	Cancel *atomic.Bool
	// Functions are the codes of the function libraries, written before the databases as
	// Redis does (opcode 245).
	Functions [][]byte
}

// ErrCancelled is WriteSnapshot's error when SnapshotOptions.Cancel was set.
var ErrCancelled = errors.New("the save was cancelled")

// SnapshotResult is what a snapshot wrote.
type SnapshotResult struct {
	Keys  int64 // keys written
	Bytes int64 // file size
	// StartPause is how long every shard was locked to start the snapshot (0 when the caller
	// held the locks).
	StartPause time.Duration
}

// walkBudget is the number of records a walker encodes per lock: about 50 KB of RDB for
// 100-byte keys and values, and some tens of microseconds of lock hold — short next to a
// command's latency, long enough that taking the lock costs nothing in comparison.
const walkBudget = 512

// Snapshot is a snapshot that has started: its instant is fixed, its records not written yet.
// Encode must be called once, to write it and end every shard's walk.
type Snapshot struct {
	ks    *keyspace.Keyspace
	opt   SnapshotOptions
	sizes []keyspace.SnapshotSizes
	ctime time.Time
	pause time.Duration
}

// StartSnapshot fixes the instant of a snapshot of ks (keyspace/snapshot.go): every shard is
// locked for a moment, unless the caller holds them (opt.LocksHeld). A command answered after
// it returns is not part of the snapshot — BGSAVE starts it before its reply, as Redis forks
// before its own. Only one snapshot runs at a time: the caller (Persister) sees to it.
func StartSnapshot(ks *keyspace.Keyspace, opt SnapshotOptions) *Snapshot {
	enc := &recordEncoder{ks: ks, compress: opt.Compress, access: opt.Access}
	sn := &Snapshot{ks: ks, opt: opt, ctime: time.Now()}
	if opt.Now != nil {
		sn.ctime = opt.Now()
	}
	if opt.LocksHeld {
		sn.sizes = ks.BeginSnapshotLocked(enc)
	} else {
		start := time.Now()
		ks.LockAll()
		sn.sizes = ks.BeginSnapshotLocked(enc)
		ks.UnlockAll()
		sn.pause = time.Since(start)
	}
	return sn
}

// WriteSnapshot starts a snapshot and writes it to w (StartSnapshot, then Encode).
func WriteSnapshot(ks *keyspace.Keyspace, w io.Writer, opt SnapshotOptions) (SnapshotResult, error) {
	return StartSnapshot(ks, opt).Encode(w)
}

// Abandon ends a started snapshot without writing it: every shard's walk runs to its end,
// encoding nothing, so that the next snapshot can start.
func (sn *Snapshot) Abandon() {
	var cancel atomic.Bool
	cancel.Store(true)
	sn.opt.Cancel = &cancel
	sn.Encode(io.Discard)
}

// drainPendingAt is how many bytes of records written before they changed may wait in the
// shards the walk has not reached before the writer takes them from every shard: it bounds a
// save's extra memory under a write load, whatever the order of the walk.
const drainPendingAt = 4 << 20

// Encode writes the snapshot to w as an RDB file, while commands go on. It returns when the
// file is whole, or with the first write error (or ErrCancelled); either way every shard's
// walk has ended, so the next snapshot can start.
func (sn *Snapshot) Encode(w io.Writer) (SnapshotResult, error) {
	ks, opt, sizes, pause := sn.ks, sn.opt, sn.sizes, sn.pause
	now := func() time.Time { return sn.ctime }
	cw := &countingWriter{w: w}
	out := rdb.NewEncoder(cw)
	out.Compress, out.Checksum = opt.Compress, opt.Checksum
	if opt.Version != 0 {
		out.Version = opt.Version
	}
	out.WriteHeader()
	out.WriteStandardAux(opt.RedisVer, now().Unix(), opt.UsedMem)
	for _, code := range opt.Functions {
		out.WriteFunction(code)
	}
	for db, sz := range sizes {
		if sz.Keys > 0 {
			out.SelectDB(db)
			out.ResizeDB(uint64(sz.Keys), uint64(sz.Expires))
		}
	}
	err := out.WriteRaw(nil)

	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, ks.NumShards())
	var (
		abandon  atomic.Bool // the file failed: walks go on, writing nothing
		draining atomic.Bool // a walker is taking the pending records of every shard
		next     atomic.Int64
		keys     atomic.Int64
		wg       sync.WaitGroup
		chunks   = make(chan []byte, 2*workers)
		free     = make(chan []byte, 4*workers)
	)
	if err != nil {
		abandon.Store(true)
	}
	budget := walkBudget
	if opt.KeyDelay > 0 {
		budget = 16
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var owed time.Duration // key delay not yet slept: sleeps shorter than 1 ms overshoot
			for {
				i := int(next.Add(1) - 1)
				if i >= ks.NumShards() {
					return
				}
				s := ks.Shard(i)
				for done := false; !done; {
					var buf []byte
					select {
					case buf = <-free:
					default:
					}
					var n int
					if !opt.LocksHeld {
						s.Lock()
					}
					if opt.Cancel != nil && opt.Cancel.Load() {
						abandon.Store(true)
					}
					if abandon.Load() {
						s.AbandonSnapshotLocked()
					}
					buf, n, done = s.SnapshotStepLocked(buf[:0], budget)
					if !opt.LocksHeld {
						s.Unlock()
					}
					keys.Add(int64(n))
					if opt.Progress != nil {
						opt.Progress.Add(int64(n))
					}
					if len(buf) > 0 {
						chunks <- buf
					}
					if !opt.LocksHeld && ks.SnapshotPending() > drainPendingAt && draining.CompareAndSwap(false, true) {
						for j := 0; j < ks.NumShards(); j++ {
							sh := ks.Shard(j)
							sh.Lock()
							b := sh.TakeSnapshotPendingLocked(nil)
							sh.Unlock()
							if len(b) > 0 {
								chunks <- b
							}
						}
						draining.Store(false)
					}
					if opt.KeyDelay > 0 && !abandon.Load() {
						owed += time.Duration(n) * time.Duration(opt.KeyDelay) * time.Microsecond
						if owed >= time.Millisecond {
							time.Sleep(owed)
							owed = 0
						}
					}
				}
			}
		}()
	}
	go func() { wg.Wait(); close(chunks) }()
	for c := range chunks {
		if err == nil {
			if err = out.WriteRaw(c); err != nil {
				abandon.Store(true)
			}
		}
		select {
		case free <- c:
		default:
		}
	}
	if err == nil && abandon.Load() {
		err = ErrCancelled
	}
	if err == nil {
		err = out.Finish()
	}
	return SnapshotResult{Keys: keys.Load(), Bytes: cw.n, StartPause: pause}, err
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
