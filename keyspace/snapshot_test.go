package keyspace

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// testEncoder writes a record as db, key length, key, value length, value — enough for the
// test to read back which keys a snapshot held and with which values.
type testEncoder struct{}

func (testEncoder) AppendSelect(dst []byte, db int) []byte { return append(dst, 0xfe, byte(db)) }

func (testEncoder) AppendRecord(dst []byte, s *Shard, h alloc.Handle) []byte {
	a := s.Arena()
	k, v := object.Key(a, h), object.Value(a, h, nil)
	dst = append(dst, 0x01)
	dst = binary.AppendUvarint(dst, uint64(len(k)))
	dst = append(dst, k...)
	dst = binary.AppendUvarint(dst, uint64(len(v)))
	return append(dst, v...)
}

// decodeTestSnapshot reads chunks written by testEncoder into db → key → value, failing on a
// key written twice.
func decodeTestSnapshot(t *testing.T, chunks [][]byte) map[int]map[string]string {
	t.Helper()
	out := map[int]map[string]string{}
	for _, c := range chunks {
		db := -1
		for len(c) > 0 {
			switch c[0] {
			case 0xfe:
				db = int(c[1])
				c = c[2:]
			case 0x01:
				c = c[1:]
				n, w := binary.Uvarint(c)
				k := string(c[w : w+int(n)])
				c = c[w+int(n):]
				n, w = binary.Uvarint(c)
				v := string(c[w : w+int(n)])
				c = c[w+int(n):]
				if db < 0 {
					t.Fatalf("record %q before any select", k)
				}
				if out[db] == nil {
					out[db] = map[string]string{}
				}
				if _, dup := out[db][k]; dup {
					t.Fatalf("key %q of db %d written twice", k, db)
				}
				out[db][k] = v
			default:
				t.Fatalf("bad byte %#x", c[0])
			}
		}
	}
	return out
}

// state reads every database's keys and values as they are now.
func state(k *Keyspace) map[int]map[string]string {
	out := map[int]map[string]string{}
	for i := 0; i < k.NumShards(); i++ {
		s := k.Shard(i)
		s.Lock()
		for db := range k.Databases() {
			s.EachLocked(db, func(h alloc.Handle) {
				if out[db] == nil {
					out[db] = map[string]string{}
				}
				out[db][string(object.Key(s.Arena(), h))] = string(object.Value(s.Arena(), h, nil))
			})
		}
		s.Unlock()
	}
	return out
}

// runSnapshot begins a snapshot, then alternates walk steps of random shards with mutate, and
// returns the chunks written.
func runSnapshot(t *testing.T, k *Keyspace, rng *rand.Rand, mutate func()) [][]byte {
	t.Helper()
	k.LockAll()
	k.BeginSnapshotLocked(testEncoder{})
	k.UnlockAll()
	var chunks [][]byte
	left := map[int]bool{}
	for i := 0; i < k.NumShards(); i++ {
		left[i] = true
	}
	for len(left) > 0 {
		i := rng.Intn(k.NumShards())
		if !left[i] {
			continue
		}
		s := k.Shard(i)
		s.Lock()
		out, _, done := s.SnapshotStepLocked(nil, 1+rng.Intn(8))
		s.Unlock()
		chunks = append(chunks, out)
		if done {
			delete(left, i)
		}
		mutate()
	}
	// Every mark is clear again for the next snapshot.
	for i := 0; i < k.NumShards(); i++ {
		s := k.Shard(i)
		s.Lock()
		for db := range k.Databases() {
			s.EachLocked(db, func(h alloc.Handle) {
				if object.SnapshotMark(s.Arena(), h) {
					t.Errorf("a record of db %d is still marked after the snapshot", db)
				}
			})
		}
		s.Unlock()
	}
	return chunks
}

// TestSnapshotPointInTime: while every kind of change runs between walk steps — overwrites,
// in-place writes, deletes, new keys, expiry, FLUSHDB, SWAPDB, and enough inserts to resize the
// tables — the snapshot holds exactly the keys and values of its start, each once.
func TestSnapshotPointInTime(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			k, clk := newTestKeyspace(t, Options{Shards: 4, Databases: 4})
			for i := range 400 {
				exp := int64(0)
				if i%7 == 0 {
					exp = testEpoch + int64(1+rng.Intn(50))
				}
				set(t, k, i%3, fmt.Sprintf("k%d", i), fmt.Sprintf("v0-%d", i), exp)
			}
			want := state(k)
			next := 0
			mutate := func() {
				key := fmt.Sprintf("k%d", rng.Intn(500))
				db := rng.Intn(4)
				switch r := rng.Intn(100); {
				case r < 30:
					set(t, k, db, key, "v1", 0)
				case r < 45:
					del(k, db, key)
				case r < 55: // an in-place change after a write lookup (APPEND's way)
					s := k.Shard(k.ShardFor([]byte(key)))
					s.Lock()
					if h, ok := s.LookupFlagsLocked(db, []byte(key), LookupForWrite); ok {
						nh, _, err := object.Append(s.Arena(), h, []byte("+"))
						if err != nil {
							t.Fatal(err)
						}
						s.UpdateLocked(db, []byte(key), h, nh)
					}
					s.Unlock()
				case r < 62:
					s := k.Shard(k.ShardFor([]byte(key)))
					s.Lock()
					s.SetExpireLocked(db, []byte(key), testEpoch+1000)
					s.Unlock()
				case r < 66:
					s := k.Shard(k.ShardFor([]byte(key)))
					s.Lock()
					s.PersistLocked(db, []byte(key))
					s.Unlock()
				case r < 85: // new keys, enough to grow the tables mid-walk
					for range 10 {
						next++
						set(t, k, db, fmt.Sprintf("new%d", next), "v2", 0)
					}
				case r < 90:
					clk.advance(5)
					k.ActiveExpireCycle(20)
				case r < 92:
					k.LockAll()
					k.FlushDBLocked(db)
					k.UnlockAll()
				case r < 96: // MOVE: the record itself goes to another database
					s := k.Shard(k.ShardFor([]byte(key)))
					s.Lock()
					if h, ok := s.UnlinkLocked(db, []byte(key)); ok {
						if err := s.InsertLocked((db+1)%4, []byte(key), h); err != nil {
							object.Free(s.Arena(), h)
						}
					}
					s.Unlock()
				default:
					k.LockAll()
					k.SwapDBLocked(db, rng.Intn(4))
					k.UnlockAll()
				}
			}
			got := decodeTestSnapshot(t, runSnapshot(t, k, rng, mutate))
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("snapshot differs from the start:\n got %v\nwant %v", got, want)
			}
			// A second snapshot with no changes is the state after the first.
			want = state(k)
			got = decodeTestSnapshot(t, runSnapshot(t, k, rng, func() {}))
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("second snapshot differs:\n got %v\nwant %v", got, want)
			}
		})
	}
}

// TestSnapshotAbandoned: an abandoned snapshot writes nothing more but still walks to its end,
// so the next snapshot is whole.
func TestSnapshotAbandoned(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	k, _ := newTestKeyspace(t, Options{Shards: 4, Databases: 2})
	for i := range 300 {
		set(t, k, i%2, fmt.Sprintf("k%d", i), "v", 0)
	}
	k.LockAll()
	k.BeginSnapshotLocked(testEncoder{})
	k.UnlockAll()
	s := k.Shard(0)
	s.Lock()
	s.SnapshotStepLocked(nil, 5)
	s.Unlock()
	for i := 0; i < k.NumShards(); i++ {
		s := k.Shard(i)
		s.Lock()
		s.AbandonSnapshotLocked()
		for {
			out, _, done := s.SnapshotStepLocked(nil, 16)
			if len(out) != 0 {
				t.Fatal("an abandoned snapshot wrote records")
			}
			if done {
				break
			}
		}
		s.Unlock()
	}
	want := state(k)
	got := decodeTestSnapshot(t, runSnapshot(t, k, rng, func() {}))
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("snapshot after an abandoned one differs:\n got %v\nwant %v", got, want)
	}
}
