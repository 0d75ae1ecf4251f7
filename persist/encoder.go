package persist

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/rdb"
)

// Access says which access clock a snapshot writes with each key, as Redis does by
// maxmemory-policy: the LRU idle time under an LRU policy, the LFU counter under an LFU one,
// none otherwise.
type Access uint8

const (
	AccessNone Access = iota // no clock written
	AccessLRU                // RDB's IDLE opcode: seconds since the last access
	AccessLFU                // RDB's FREQ opcode: the logarithmic counter, decayed
)

// AccessFor is the Access of a maxmemory-policy name.
func AccessFor(policy string) Access {
	switch policy {
	case "allkeys-lru", "volatile-lru":
		return AccessLRU
	case "allkeys-lfu", "volatile-lfu":
		return AccessLFU
	}
	return AccessNone
}

// lruClockMax is the LRU clock's range (24 bits of seconds), as in package keyspace.
const lruClockMax = 1<<24 - 1

// recordEncoder writes records as RDB entries (keyspace.SnapshotEncoder). Its methods
// run under a shard's lock, in several walkers at once: they keep no state.
type recordEncoder struct {
	ks       *keyspace.Keyspace
	compress bool
	access   Access
}

// AppendSelect appends RDB's SELECTDB.
func (e *recordEncoder) AppendSelect(dst []byte, db int) []byte { return rdb.AppendSelectDB(dst, db) }

// AppendRecord appends record h as an RDB entry: a string, or a hash or set (values.go).
func (e *recordEncoder) AppendRecord(dst []byte, s *keyspace.Shard, h alloc.Handle) []byte {
	a := s.Arena()
	var scratch [24]byte
	ent := rdb.Entry{Key: object.Key(a, h), ExpireMs: -1, Idle: -1, Freq: -1}
	if when, ok := object.Expire(a, h); ok {
		ent.ExpireMs = when
	}
	switch e.access {
	case AccessLRU:
		now, lru := int64(e.ks.LRUClock()), int64(object.LRU(a, h))
		if now >= lru {
			ent.Idle = now - lru
		} else {
			ent.Idle = now + lruClockMax - lru
		}
	case AccessLFU:
		ent.Freq = int(e.ks.LFUDecayed(object.LRU(a, h)))
	}
	if object.TypeOf(a, h) != object.TypeString {
		return appendValue(dst, a, h, ent, e.compress)
	}
	ent.Value = object.Value(a, h, scratch[:0])
	return rdb.AppendString(dst, ent, e.compress)
}
