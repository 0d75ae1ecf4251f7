package persist

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/rdb"
)

func newKS(t testing.TB) *keyspace.Keyspace {
	t.Helper()
	ks, err := keyspace.New(keyspace.Options{Shards: 16, Databases: 4, ArenaReserve: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ks.Close)
	return ks
}

func put(t testing.TB, ks *keyspace.Keyspace, db int, key, val string, expire int64) {
	t.Helper()
	s := ks.Shard(ks.ShardFor([]byte(key)))
	s.Lock()
	defer s.Unlock()
	h, err := object.NewString(s.Arena(), []byte(key), []byte(val), expire, object.WriteSet)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReplaceLocked(db, []byte(key), h); err != nil {
		t.Fatal(err)
	}
}

// dump reads every key of ks as "db key=value@expire".
func dump(ks *keyspace.Keyspace) map[string]bool {
	out := map[string]bool{}
	for i := 0; i < ks.NumShards(); i++ {
		s := ks.Shard(i)
		s.Lock()
		for db := range ks.Databases() {
			s.EachLocked(db, func(h alloc.Handle) {
				a := s.Arena()
				when, _ := object.Expire(a, h)
				out[fmt.Sprintf("%d %s=%s@%d", db, object.Key(a, h), object.Value(a, h, nil), when)] = true
			})
		}
		s.Unlock()
	}
	return out
}

// TestSnapshotRoundTrip: a snapshot decodes with package rdb's decoder and loads into an empty
// keyspace with every key, value and expire of the source, in every database.
func TestSnapshotRoundTrip(t *testing.T) {
	src := newKS(t)
	for i := range 5000 {
		exp := int64(0)
		if i%5 == 0 {
			exp = 4_000_000_000_000 + int64(i)
		}
		val := fmt.Sprintf("value-%d-%s", i, bytes.Repeat([]byte("x"), i%300))
		if i%3 == 0 {
			val = fmt.Sprint(i * 7919)
		}
		put(t, src, i%4, fmt.Sprintf("key:%d", i), val, exp)
	}
	var buf bytes.Buffer
	res, err := WriteSnapshot(src, &buf, SnapshotOptions{Compress: true, Checksum: true, RedisVer: "7.2.4"})
	if err != nil || res.Keys != 5000 {
		t.Fatalf("WriteSnapshot: %v, %d keys", err, res.Keys)
	}
	n := 0
	if err := rdb.Decode(bytes.NewReader(buf.Bytes()), func(rdb.Entry) error { n++; return nil }); err != nil || n != 5000 {
		t.Fatalf("rdb.Decode: %v, %d entries", err, n)
	}
	dst := newKS(t)
	lr, err := Load(dst, bytes.NewReader(buf.Bytes()), LoadOptions{})
	if err != nil || lr.Keys != 5000 || lr.Version != 11 {
		t.Fatalf("Load: %v %+v", err, lr)
	}
	if a, b := dump(src), dump(dst); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatal("loaded keyspace differs from the saved one")
	}
}

// TestLoadRefuses: a duplicate key, a bad checksum and a truncated file are errors.
func TestLoadRefuses(t *testing.T) {
	var b bytes.Buffer
	e := rdb.NewEncoder(&b)
	e.WriteHeader()
	e.SelectDB(0)
	e.WriteString(rdb.Entry{Key: []byte("a"), Value: []byte("1"), ExpireMs: -1, Idle: -1, Freq: -1})
	e.WriteString(rdb.Entry{Key: []byte("a"), Value: []byte("2"), ExpireMs: -1, Idle: -1, Freq: -1})
	e.Finish()
	if _, err := Load(newKS(t), bytes.NewReader(b.Bytes()), LoadOptions{}); !errors.Is(err, ErrDuplicateKey) {
		t.Fatalf("duplicate key: %v", err)
	}
	src := newKS(t)
	put(t, src, 0, "k", "v", 0)
	var good bytes.Buffer
	WriteSnapshot(src, &good, SnapshotOptions{Checksum: true})
	bad := bytes.Clone(good.Bytes())
	bad[len(bad)-12] ^= 1
	if _, err := Load(newKS(t), bytes.NewReader(bad), LoadOptions{}); err == nil {
		t.Fatal("a flipped byte loaded")
	}
	if _, err := Load(newKS(t), bytes.NewReader(good.Bytes()[:good.Len()-5]), LoadOptions{}); err == nil {
		t.Fatal("a truncated file loaded")
	}
}

// TestSnapshotUnderWrites: writers change every key while a snapshot runs; the file holds each
// key once, with the value it had at the start (the writers only ever write a later
// generation). Run under -race to check the walkers and the hooks share the shards safely.
func TestSnapshotUnderWrites(t *testing.T) {
	ks := newKS(t)
	const keys = 20000
	for i := range keys {
		put(t, ks, 0, fmt.Sprintf("k%d", i), "gen0", 0)
	}
	// The snapshot's instant comes before any write: a writer started earlier could change a
	// key before it, and that change belongs in the file.
	sn := StartSnapshot(ks, SnapshotOptions{Checksum: true, Workers: 2})
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; !stop.Load(); i = (i + 4) % keys {
				put(t, ks, 0, fmt.Sprintf("k%d", i), "gen1", 0)
				put(t, ks, 0, fmt.Sprintf("new%d-%d", w, i), "x", 0)
			}
		}()
	}
	var buf bytes.Buffer
	_, err := sn.Encode(&buf)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	err = rdb.Decode(bytes.NewReader(buf.Bytes()), func(e rdb.Entry) error {
		if seen[string(e.Key)] {
			return fmt.Errorf("key %s twice", e.Key)
		}
		seen[string(e.Key)] = true
		if string(e.Value) != "gen0" {
			return fmt.Errorf("key %s = %s, not its value at the start", e.Key, e.Value)
		}
		return nil
	})
	if err != nil || len(seen) != keys {
		t.Fatalf("%v; %d keys of %d", err, len(seen), keys)
	}
}
