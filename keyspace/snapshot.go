package keyspace

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// A snapshot is point in time without fork (DESIGN §7): all shards start it at one instant
// (BeginSnapshotLocked, under every lock), then a snapshot goroutine walks each shard with
// SnapshotStepLocked, a few records per lock, while commands go on. A record present at the
// start is written exactly once, as it was at the start:
//
//   - Every record carries a mark bit (object.SnapshotMark), clear between snapshots: a new
//     record is built with it clear, so the write path pays nothing for it. Writing a record
//     into the snapshot sets it. A record stored while a snapshot writes (a new key, a record
//     rebuilt by APPEND or EXPIRE) is marked at once: it is not part of the snapshot.
//   - When a shard's walk has written everything, a second walk clears the marks again (the
//     cleaning phase: no hook fires, new records stay clear), so that the next snapshot finds
//     every record unwritten. The walk is over when the cleaning is.
//   - Before anything changes or removes an unwritten record — a write lookup (APPEND, INCR,
//     SETRANGE change records in place), an overwrite, DEL, RENAME, MOVE, EXPIRE, PERSIST,
//     expiry, eviction, FLUSHDB/FLUSHALL — the record is written first, as it still is, into
//     the shard's pending bytes (beforeChange). This is copy-on-write at record granularity:
//     the marks make the walk's order irrelevant, so rehashing needs no hook.
//   - The walk is SCAN's: every entry present for the whole walk is visited at least once even
//     while tables resize between steps, and the mark makes "at least once" exactly once.
//     Entries removed during the walk were written by beforeChange.
//   - SWAPDB exchanges database structs between indexes; the snapshot walks the structs it
//     found at the start and writes each record under the index its database had then.
//
// Memory grows by the pending bytes of records changed before the walk reached them — bounded
// by the serialized size of the shard — not by a copy of the dataset.

// SnapshotEncoder turns records into snapshot bytes (package persist writes Redis's RDB).
// Its methods run under the shard's lock and must not change the keyspace.
type SnapshotEncoder interface {
	// AppendSelect appends the marker that the records after it belong to database db.
	AppendSelect(dst []byte, db int) []byte
	// AppendRecord appends record h of shard s: key, value, expire, access clock.
	AppendRecord(dst []byte, s *Shard, h alloc.Handle) []byte
}

// shardSnapshot is one shard's part of a running snapshot. Guarded by the shard's lock.
type shardSnapshot struct {
	enc      SnapshotEncoder // nil: the snapshot was abandoned; the walk only sets marks
	dbs      []*database     // the databases as they were at the start, by their index then
	db       int             // the start-database the walk is in
	cursor   uint64          // the walk's SCAN cursor in that database's table
	cleaning bool            // the cleaning phase: the walk is clearing marks
	pending  []byte          // records written before they changed, not yet taken by a step
	pendDB   int             // the database pending's last record belongs to (-1: none)
	records  int64           // records written so far, walked and pending
}

// SnapshotSizes are a database's counts at the start of a snapshot (RDB's RESIZEDB hint).
type SnapshotSizes struct{ Keys, Expires int64 }

// SnapshotRunning reports whether a snapshot is walking this shard. Requires the lock.
func (s *Shard) SnapshotRunning() bool { return s.snap != nil }

// BeginSnapshotLocked starts a snapshot in every shard at this instant and returns each
// database's key and expire counts then. The caller holds every lock (LockAll) and no
// snapshot is running. enc writes the records; it is kept until each shard's walk ends.
func (k *Keyspace) BeginSnapshotLocked(enc SnapshotEncoder) []SnapshotSizes {
	sizes := make([]SnapshotSizes, k.databases)
	for _, s := range k.shards {
		if s.snap != nil {
			panic("keyspace: a snapshot is already running")
		}
		sn := &shardSnapshot{enc: enc, dbs: make([]*database, len(s.dbs)), pendDB: -1}
		for i := range s.dbs {
			d := s.db(i)
			sn.dbs[i] = d
			sizes[i].Keys += d.keys.Len()
			sizes[i].Expires += d.expires.len()
		}
		s.snap = sn
	}
	return sizes
}

// AbandonSnapshotLocked stops writing this shard's part of the running snapshot (a save that
// failed or was cancelled): the walk must still be stepped to its end, so that every mark is
// clear again before the next snapshot, but encodes nothing. Requires the lock.
func (s *Shard) AbandonSnapshotLocked() {
	if s.snap != nil {
		s.snap.enc = nil
		s.ks.snapPending.Add(-int64(len(s.snap.pending)))
		s.snap.pending = nil
	}
}

// SnapshotStepLocked walks this shard's part of the running snapshot for about budget
// records: it appends to dst the records written before they changed (pending), then the next
// unwritten records of the walk, each run of them after its database's select marker. It
// returns dst, the records appended, and whether the shard's walk is over — written and
// cleaned (the snapshot then leaves the shard). Requires the lock.
func (s *Shard) SnapshotStepLocked(dst []byte, budget int) (out []byte, records int, done bool) {
	sn := s.snap
	if sn == nil {
		return dst, 0, true
	}
	if sn.cleaning {
		return dst, 0, s.cleanStep(budget)
	}
	dstDB := -1
	if len(sn.pending) > 0 {
		dstDB = sn.pendDB
		dst = s.takePending(dst)
	}
	visit := func(h alloc.Handle) {
		if object.SnapshotMark(s.arena, h) {
			return
		}
		object.SetSnapshotMark(s.arena, h, true)
		records++
		if sn.enc == nil {
			return
		}
		if dstDB != sn.db {
			dst = sn.enc.AppendSelect(dst, sn.db)
			dstDB = sn.db
		}
		dst = sn.enc.AppendRecord(dst, s, h)
	}
	for steps := 0; sn.db < len(sn.dbs) && records < budget && steps < 4*budget; steps++ {
		sn.cursor = sn.dbs[sn.db].keys.Scan(sn.cursor, visit)
		if sn.cursor == 0 {
			sn.db++
		}
	}
	sn.records += int64(records)
	if sn.db == len(sn.dbs) {
		// The cleaning walks the databases as they are now (SWAPDB may have moved them since
		// the start), each struct to its end even if SWAPDB moves it meanwhile.
		sn.cleaning, sn.db, sn.cursor, sn.pending = true, 0, 0, nil
		for i := range sn.dbs {
			sn.dbs[i] = s.db(i)
		}
	}
	return dst, records, false
}

// cleanStep clears the marks of up to about 4 × budget entries (clearing is cheaper than
// encoding) and reports whether the cleaning is over. A record entering a table meanwhile
// (MOVE, RENAME) is cleared by markNew.
func (s *Shard) cleanStep(budget int) bool {
	sn := s.snap
	visited := 0
	clear := func(h alloc.Handle) {
		object.SetSnapshotMark(s.arena, h, false)
		visited++
	}
	for steps := 0; sn.db < len(sn.dbs) && visited < 4*budget && steps < 4*budget; steps++ {
		sn.cursor = sn.dbs[sn.db].keys.Scan(sn.cursor, clear)
		if sn.cursor == 0 {
			sn.db++
		}
	}
	if sn.db == len(sn.dbs) {
		s.snap = nil
		return true
	}
	return false
}

// beforeChange writes record h of database d into the snapshot's pending bytes if a snapshot
// is running and has not written it yet: called before anything changes, moves or frees an
// existing record. Requires the lock.
func (s *Shard) beforeChange(d *database, h alloc.Handle) {
	if s.snap == nil || s.snap.cleaning || object.SnapshotMark(s.arena, h) {
		return
	}
	s.snap.early(s, d, h)
}

// early writes record h of d into pending, under the index d had when the snapshot began.
func (sn *shardSnapshot) early(s *Shard, d *database, h alloc.Handle) {
	object.SetSnapshotMark(s.arena, h, true)
	sn.records++
	if sn.enc == nil {
		return
	}
	for db, start := range sn.dbs {
		if start != d {
			continue
		}
		before := len(sn.pending)
		if sn.pendDB != db {
			sn.pending = sn.enc.AppendSelect(sn.pending, db)
			sn.pendDB = db
		}
		sn.pending = sn.enc.AppendRecord(sn.pending, s, h)
		s.ks.snapPending.Add(int64(len(sn.pending) - before))
		return
	}
}

// takePending appends the pending bytes to dst and empties them.
func (s *Shard) takePending(dst []byte) []byte {
	sn := s.snap
	dst = append(dst, sn.pending...)
	s.ks.snapPending.Add(-int64(len(sn.pending)))
	sn.pending, sn.pendDB = sn.pending[:0], -1
	return dst
}

// TakeSnapshotPendingLocked appends to dst the records this shard wrote before they changed
// and that no step has taken yet, and empties them: the snapshot's writer drains them from
// every shard when they add up (SnapshotPending), rather than keep them until the walk
// reaches their shard. Requires the lock.
func (s *Shard) TakeSnapshotPendingLocked(dst []byte) []byte {
	if s.snap == nil || len(s.snap.pending) == 0 {
		return dst
	}
	return s.takePending(dst)
}

// SnapshotPending is the size of the records written before they changed that the running
// snapshot holds in memory, not yet taken by its writer.
func (k *Keyspace) SnapshotPending() int64 { return k.snapPending.Load() }

// beforeFlush writes every unwritten record of d before FLUSHDB or FLUSHALL frees them.
func (s *Shard) beforeFlush(d *database) {
	if s.snap == nil || s.snap.cleaning {
		return
	}
	d.keys.Each(func(h alloc.Handle) { s.beforeChange(d, h) })
}

// markNew sets the mark of a record entering a table while a snapshot writes: it is not part
// of the snapshot (a new key), or its predecessor was written before it changed. While the
// marks are cleaned it clears it (a record MOVEd from a database not cleaned yet). Outside a
// snapshot every mark is clear, a new record's too: one nil check on the write path.
func (s *Shard) markNew(h alloc.Handle) {
	if s.snap != nil {
		object.SetSnapshotMark(s.arena, h, !s.snap.cleaning)
	}
}
