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

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/listval"
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
	// OnFunction, when set, is given the code of each function library of the file (see
	// rdb.Decoder.OnFunction); its error fails the load. Without it a library fails the load as
	// an unsupported opcode.
	OnFunction func(code []byte) error
}

// LoadResult is what Load read.
type LoadResult struct {
	Keys    int64             // keys loaded
	Expired int64             // keys skipped because their expire had passed
	Empty   int64             // empty collections skipped, as Redis skips them
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
		empty    atomic.Int64 // lists found empty by the inserters (every node empty)
		queues   = make([]chan []byte, workers)
		free     = make(chan []byte, 2*workers)
	)
	fail := func(err error) { firstErr.CompareAndSwap(nil, &err) }
	for w := range queues {
		queues[w] = make(chan []byte, 2)
		wg.Add(1)
		go func(q chan []byte) {
			defer wg.Done()
			var st building
			defer func() { st.abort(opt.LocksHeld) }() // a value left half-built by an error
			defer func() { empty.Add(st.empty) }()
			for b := range q {
				if firstErr.Load() == nil {
					n, err := insertBatch(ks, b, opt.LocksHeld, opt.Merge, &st)
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
	d.OnFunction = opt.OnFunction
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
		batch := func() {
			if batches[w] == nil {
				select {
				case batches[w] = <-free:
				default:
					batches[w] = make([]byte, 0, batchBytes+4096)
				}
			}
		}
		send := func() {
			if len(batches[w]) >= batchBytes {
				queues[w] <- batches[w]
				batches[w] = nil
			}
		}
		batch()
		batches[w] = appendLoadEntry(batches[w], ent)
		if ent.Type == rdb.TypeListQuicklist2 {
			// A list's nodes follow, one record each, as elements do.
			for err == nil {
				send()
				batch()
				var node []byte
				var plain bool
				if node, plain, err = d.NextNode(); err == nil {
					kind := kindNode
					if plain {
						kind = kindPlain
					}
					batches[w] = appendElem(append(batches[w], kind), node)
				}
			}
			if err != io.EOF {
				break
			}
			err = nil
			batches[w] = append(batches[w], kindEnd)
		} else if isElems(ent.Type) {
			// The elements follow in as many batches as they fill: the inserter keeps the
			// record it is building from one batch to the next.
			for err == nil {
				send()
				batch()
				var f, v []byte
				if ent.Type == rdb.TypeHash {
					if f, v, err = d.NextPair(); err == nil {
						batches[w] = appendElem(appendElem(append(batches[w], kindElem), f), v)
					}
				} else if ent.Type == rdb.TypeZSet2 {
					var score float64
					if f, score, err = d.NextZSetMember(); err == nil {
						batches[w] = appendZSetElem(batches[w], f, score)
					}
				} else {
					next := d.NextMember
					if ent.Type == rdb.TypeList {
						next = d.NextListElem
					}
					if f, err = next(); err == nil {
						batches[w] = appendElem(append(batches[w], kindElem), f)
					}
				}
			}
			if err != io.EOF {
				break
			}
			err = nil
			batches[w] = append(batches[w], kindEnd)
		}
		send()
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
	res.Version, res.Aux, res.Empty = d.Version(), d.Aux(), d.EmptyKeys+empty.Load()
	if p := firstErr.Load(); p != nil {
		return res, *p
	}
	if err == io.EOF {
		err = nil
	}
	return res, err
}

// Records of a batch: a string, a blob (a listpack or intset), or the start of a value stored
// as elements or nodes, its elements (one member or list element, or a field and a value) or
// nodes (a list's, validated) and its end.
const (
	kindString byte = iota // db, expire, idle, freq, key, value
	kindBlob               // type, db, expire, idle, freq, key, blob
	kindBegin              // type, db, expire, idle, freq, key, count
	kindElem               // a member or list element, a field and a value, or a sorted set's member and score (8 bytes)
	kindNode               // a list's packed node: its listpack
	kindPlain              // a list's plain node: its element
	kindEnd                // the value is complete
)

// isElems reports whether an entry of type typ is stored as elements, read after it.
func isElems(typ byte) bool {
	return typ == rdb.TypeHash || typ == rdb.TypeSet || typ == rdb.TypeList || typ == rdb.TypeZSet2
}

// isStreamed reports whether an entry of type typ is followed by its elements or nodes.
func isStreamed(typ byte) bool { return isElems(typ) || typ == rdb.TypeListQuicklist2 }

// appendLoadEntry appends an entry to a batch: its kind, type (but a string's), db, expire,
// idle and freq as varints, the key with its length, then the value (a string's or blob's
// bytes with their length) or, for a value stored as elements, the count.
func appendLoadEntry(b []byte, ent rdb.Entry) []byte {
	switch {
	case ent.Type == rdb.TypeString:
		b = append(b, kindString)
	case isStreamed(ent.Type):
		b = append(b, kindBegin, ent.Type)
	default:
		b = append(b, kindBlob, ent.Type)
	}
	b = binary.AppendUvarint(b, uint64(ent.DB))
	b = binary.AppendVarint(b, ent.ExpireMs)
	b = binary.AppendVarint(b, ent.Idle)
	b = binary.AppendVarint(b, int64(ent.Freq))
	b = appendElem(b, ent.Key)
	if isStreamed(ent.Type) {
		return binary.AppendUvarint(b, ent.Len)
	}
	return appendElem(b, ent.Value)
}

// appendElem appends s with its length.
func appendElem(b, s []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// readElem reads what appendElem wrote at the start of b and returns it and the rest.
func readElem(b []byte) ([]byte, []byte) {
	n, w := binary.Uvarint(b)
	return b[w : w+int(n)], b[w+int(n):]
}

// building is an inserter's value stored as elements or nodes, built across batches.
type building struct {
	s                 *keyspace.Shard
	db                int
	key               []byte // owned: the batch it came in is reused
	typ               byte
	expire, idle, frq int64
	b                 Builder          // a hash or set
	lb                *listval.Builder // a list (made under the shard's lock: it allocates at once)
	zb                *zsetBuilder     // a sorted set (nothing in the arena before its end)
	active            bool
	empty             int64 // lists skipped because no node had an element, as Redis skips them
}

// abort frees the record being built, after an error (under the shard's lock unless held).
func (st *building) abort(locksHeld bool) {
	if !st.active {
		return
	}
	if !locksHeld {
		st.s.Lock()
	}
	switch {
	case st.lb != nil:
		st.lb.Abort()
		st.lb = nil
	case st.zb != nil:
		st.zb.abort()
		st.zb = nil
	default:
		st.b.Abort()
	}
	if !locksHeld {
		st.s.Unlock()
	}
	st.active = false
}

// insertBatch inserts the entries of a batch, each under its shard's lock unless locksHeld,
// and returns how many it inserted. st is the value being built from its elements, carried
// from one batch to the next.
func insertBatch(ks *keyspace.Keyspace, b []byte, locksHeld, merge bool, st *building) (int64, error) {
	var n int64
	lock := func(s *keyspace.Shard) func() {
		if locksHeld {
			return func() {}
		}
		s.Lock()
		return s.Unlock
	}
	for len(b) > 0 {
		kind := b[0]
		b = b[1:]
		switch kind {
		case kindElem, kindNode, kindPlain:
			// A run of elements or nodes under one lock.
			unlock := lock(st.s)
			var err error
			for {
				var f, v []byte
				f, b = readElem(b)
				switch {
				case kind == kindNode:
					err = st.lb.AppendListpack(f)
				case kind == kindPlain:
					err = st.lb.AppendPlain(f)
				case st.lb != nil:
					err = st.lb.AppendElem(f)
				case st.zb != nil:
					v, b = readElem(b)
					err = st.zb.add(f, zsetElemScore(v))
				case st.typ == rdb.TypeHash:
					v, b = readElem(b)
					err = st.b.AddPair(f, v)
				default:
					err = st.b.AddMember(f)
				}
				if err != nil || len(b) == 0 || b[0] != kindElem && b[0] != kindNode && b[0] != kindPlain {
					break
				}
				kind = b[0]
				b = b[1:]
			}
			unlock()
			if err != nil {
				return n, loadElemErr(err, st)
			}
			continue
		case kindEnd:
			unlock := lock(st.s)
			var h alloc.Handle
			var err error
			if st.lb != nil {
				h, err = st.lb.Finish()
				st.lb, st.active = nil, false
				if errors.Is(err, listval.ErrEmpty) {
					// Every node was empty: skipped, as Redis's loader skips an empty key.
					unlock()
					st.empty++
					continue
				}
			} else if st.zb != nil {
				h, err = st.zb.finish()
				st.zb = nil
				if err != nil && err != object.ErrOOM {
					err = loadElemErr(err, st)
				}
			} else if h = st.b.Finish(); h == 0 {
				err = fmt.Errorf("%w: empty value of key '%s'", rdb.ErrCorrupt, st.key)
			}
			st.active = false
			if err == nil {
				err = insertRecord(st.s, st.db, st.key, h, st.idle, st.frq, merge)
			}
			unlock()
			if err != nil {
				return n, err
			}
			n++
			continue
		}
		typ := byte(rdb.TypeString)
		if kind != kindString {
			typ = b[0]
			b = b[1:]
		}
		db, w := binary.Uvarint(b)
		b = b[w:]
		expire, w := binary.Varint(b)
		b = b[w:]
		idle, w := binary.Varint(b)
		b = b[w:]
		freq, w := binary.Varint(b)
		b = b[w:]
		var key []byte
		key, b = readElem(b)
		if expire < 0 {
			expire = 0 // records: 0 means no expire
		}
		s := ks.Shard(ks.ShardFor(key))
		if kind == kindBegin {
			count, w := binary.Uvarint(b)
			b = b[w:]
			st.key = append(st.key[:0], key...)
			*st = building{s: s, db: int(db), key: st.key, typ: typ, expire: expire, idle: idle, frq: freq,
				b: NewBuilder(s.Arena(), st.key, typ, count, expire), active: true, empty: st.empty}
			if typ == rdb.TypeList || typ == rdb.TypeListQuicklist2 {
				unlock := lock(s)
				st.lb = listval.NewBuilder(s.Arena(), st.key, expire)
				unlock()
			}
			if typ == rdb.TypeZSet2 {
				st.zb = newZSetBuilder(s.Arena(), st.key, count, expire)
			}
			continue
		}
		var val []byte
		val, b = readElem(b)
		unlock := lock(s)
		var h alloc.Handle
		var err error
		if kind == kindString {
			h, err = object.NewString(s.Arena(), key, val, expire, object.WriteSet)
		} else {
			h, err = NewBlobRecord(s.Arena(), key, typ, val, expire)
		}
		if err == nil {
			err = insertRecord(s, int(db), key, h, idle, freq, merge)
		}
		unlock()
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// loadElemErr words an element's error: a duplicate names the key, as Redis's loader does.
func loadElemErr(err error, st *building) error {
	if errors.Is(err, ErrDuplicateElement) {
		what := "hash fields"
		switch st.typ {
		case rdb.TypeSet:
			what = "set members"
		case rdb.TypeZSet2:
			what = "zset fields"
		}
		return fmt.Errorf("%w: duplicate %s in key '%s'", rdb.ErrCorrupt, what, st.key)
	}
	return err
}

// insertRecord inserts record h (freed on error) as key with the file's access clock where
// the policy keeps one; merge replaces an existing key.
func insertRecord(s *keyspace.Shard, db int, key []byte, h alloc.Handle, idle, freq int64, merge bool) error {
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
