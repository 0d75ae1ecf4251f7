package persist

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/rdb"
)

// LoadOptions say how Load inserts.
type LoadOptions struct {
	// Now is the time in unix ms: keys whose expire has passed are not loaded (counted as
	// expired), as Redis's master does. nil keeps every key.
	Now func() int64
	// KeyDelay is key-load-delay: microseconds slept per key loaded (Redis's test knob, which
	// makes loading slow enough to watch). 0 means none.
	KeyDelay int64
	// Workers is the number of inserting goroutines; 0 means GOMAXPROCS.
	Workers int
	// Progress, when set, counts the keys loaded so far (INFO loading_loaded_perc…).
	Progress *atomic.Int64
	// LocksHeld says the caller holds every shard's lock (DEBUG RELOAD): inserters do not lock.
	LocksHeld bool
	// Merge replaces a key that exists already instead of refusing the file (DEBUG RELOAD
	// MERGE, Redis's RDBFLAGS_ALLOW_DUP).
	Merge bool
}

// LoadResult is what Load read.
type LoadResult struct {
	Keys    int64             // keys loaded
	Expired int64             // keys skipped because their expire had passed
	Version int               // the file's RDB version
	Aux     map[string]string // its AUX fields
}

// ErrDuplicateKey wraps a key found twice in one database of a file (Redis refuses it too).
var ErrDuplicateKey = errors.New("duplicated key")

// batchBytes is the size of the batches the decoder hands to an inserter: large enough that
// the channel costs nothing per key, small enough to keep every inserter busy.
const batchBytes = 256 << 10

// Load reads an RDB file from r into ks, which should hold no keys that the file has. The
// decoder runs in the calling goroutine; inserters each own the shards i with i % workers ==
// their number. On error some keys may have been loaded: the caller must not serve them as a
// whole dataset (the server exits; DEBUG RELOAD flushes).
func Load(ks *keyspace.Keyspace, r io.Reader, opt LoadOptions) (LoadResult, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, ks.NumShards())
	var (
		wg       sync.WaitGroup
		firstErr atomic.Pointer[error]
		loaded   atomic.Int64
		queues   = make([]chan []byte, workers)
		free     = make(chan []byte, 2*workers)
	)
	fail := func(err error) { firstErr.CompareAndSwap(nil, &err) }
	for w := range queues {
		queues[w] = make(chan []byte, 2)
		wg.Add(1)
		go func(q chan []byte) {
			defer wg.Done()
			for b := range q {
				if firstErr.Load() == nil {
					n, err := insertBatch(ks, b, opt.LocksHeld, opt.Merge)
					loaded.Add(n)
					if opt.Progress != nil {
						opt.Progress.Add(n)
					}
					if err != nil {
						fail(err)
					}
				}
				select {
				case free <- b[:0]:
				default:
				}
			}
		}(queues[w])
	}

	res := LoadResult{}
	d := rdb.NewDecoder(r)
	d.ReuseBuffers = true // entries are copied into batches at once
	if !opt.LocksHeld {
		d.OnResizeDB = func(db int, keys, _ uint64) { ks.ExpandForLoad(db, int64(keys)) }
		defer ks.EndLoad()
	}
	batches := make([][]byte, workers)
	var owed time.Duration
	var err error
	for firstErr.Load() == nil {
		var ent rdb.Entry
		ent, err = d.Next()
		if err != nil {
			break
		}
		if ent.DB >= ks.Databases() {
			err = fmt.Errorf("FATAL: Data file was created with a Redis server configured to handle more than %d databases", ks.Databases())
			break
		}
		if ent.ExpireMs >= 0 && opt.Now != nil && ent.ExpireMs < opt.Now() {
			res.Expired++
			continue
		}
		w := ks.ShardFor(ent.Key) % workers
		if batches[w] == nil {
			select {
			case batches[w] = <-free:
			default:
				batches[w] = make([]byte, 0, batchBytes+4096)
			}
		}
		batches[w] = appendLoadEntry(batches[w], ent)
		if len(batches[w]) >= batchBytes {
			queues[w] <- batches[w]
			batches[w] = nil
		}
		if opt.KeyDelay > 0 {
			owed += time.Duration(opt.KeyDelay) * time.Microsecond
			if owed >= time.Millisecond {
				// A partial batch would wait for the delay too: hand it over first, so that
				// the keys read so far are visible at the pace the delay sets.
				for w, b := range batches {
					if len(b) > 0 {
						queues[w] <- b
						batches[w] = nil
					}
				}
				time.Sleep(owed)
				owed = 0
			}
		}
	}
	for w, b := range batches {
		if len(b) > 0 && firstErr.Load() == nil {
			queues[w] <- b
		}
		close(queues[w])
	}
	wg.Wait()
	res.Keys = loaded.Load()
	res.Version, res.Aux = d.Version(), d.Aux()
	if p := firstErr.Load(); p != nil {
		return res, *p
	}
	if err == io.EOF {
		err = nil
	}
	return res, err
}

// appendLoadEntry appends an entry to a batch: db, expire, idle and freq as varints, then the
// key and the value with their lengths.
func appendLoadEntry(b []byte, ent rdb.Entry) []byte {
	b = binary.AppendUvarint(b, uint64(ent.DB))
	b = binary.AppendVarint(b, ent.ExpireMs)
	b = binary.AppendVarint(b, ent.Idle)
	b = binary.AppendVarint(b, int64(ent.Freq))
	b = binary.AppendUvarint(b, uint64(len(ent.Key)))
	b = append(b, ent.Key...)
	b = binary.AppendUvarint(b, uint64(len(ent.Value)))
	return append(b, ent.Value...)
}

// insertBatch inserts the entries of a batch, each under its shard's lock unless locksHeld,
// and returns how many it inserted.
func insertBatch(ks *keyspace.Keyspace, b []byte, locksHeld, merge bool) (int64, error) {
	var n int64
	for len(b) > 0 {
		db, w := binary.Uvarint(b)
		b = b[w:]
		expire, w := binary.Varint(b)
		b = b[w:]
		idle, w := binary.Varint(b)
		b = b[w:]
		freq, w := binary.Varint(b)
		b = b[w:]
		kl, w := binary.Uvarint(b)
		key := b[w : w+int(kl)]
		b = b[w+int(kl):]
		vl, w := binary.Uvarint(b)
		val := b[w : w+int(vl)]
		b = b[w+int(vl):]

		s := ks.Shard(ks.ShardFor(key))
		if !locksHeld {
			s.Lock()
		}
		err := insertString(s, int(db), key, val, expire, idle, freq, merge)
		if !locksHeld {
			s.Unlock()
		}
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// insertString makes and inserts one string record, as SET would store it, with the file's
// access clock where the policy keeps one; merge replaces an existing key.
func insertString(s *keyspace.Shard, db int, key, val []byte, expire, idle, freq int64, merge bool) error {
	if expire < 0 {
		expire = 0 // object.NewString: 0 means no expire
	}
	h, err := object.NewString(s.Arena(), key, val, expire, object.WriteSet)
	if err != nil {
		return err
	}
	if merge {
		if _, err := s.ReplaceLocked(db, key, h); err != nil {
			object.Free(s.Arena(), h)
			return err
		}
	} else if err := s.InsertLocked(db, key, h); err != nil {
		object.Free(s.Arena(), h)
		if errors.Is(err, keyspace.ErrKeyExists) {
			return fmt.Errorf("%w: RDB has duplicated key '%s' in DB %d", ErrDuplicateKey, key, db)
		}
		return err
	}
	s.SetAccessLocked(h, idle, freq)
	return nil
}
