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

// WriteSnapshot writes the keyspace as it is at this instant to w as an RDB file, while
// commands go on (keyspace/snapshot.go). It returns when the file is whole, or with the
// first write error; either way every shard's walk has ended, so the next snapshot can start.
// Only one snapshot runs at a time: the caller (Persister) sees to it.
func WriteSnapshot(ks *keyspace.Keyspace, w io.Writer, opt SnapshotOptions) (SnapshotResult, error) {
	enc := &recordEncoder{ks: ks, compress: opt.Compress, access: opt.Access}
	now := time.Now
	if opt.Now != nil {
		now = opt.Now
	}
	var pause time.Duration
	var sizes []keyspace.SnapshotSizes
	if opt.LocksHeld {
		sizes = ks.BeginSnapshotLocked(enc)
	} else {
		start := time.Now()
		ks.LockAll()
		sizes = ks.BeginSnapshotLocked(enc)
		ks.UnlockAll()
		pause = time.Since(start)
	}

	cw := &countingWriter{w: w}
	out := rdb.NewEncoder(cw)
	out.Compress, out.Checksum = opt.Compress, opt.Checksum
	if opt.Version != 0 {
		out.Version = opt.Version
	}
	out.WriteHeader()
	out.WriteStandardAux(opt.RedisVer, now().Unix(), opt.UsedMem)
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
		abandon atomic.Bool // the file failed: walks go on, writing nothing
		next    atomic.Int64
		keys    atomic.Int64
		wg      sync.WaitGroup
		chunks  = make(chan []byte, 2*workers)
		free    = make(chan []byte, 4*workers)
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
