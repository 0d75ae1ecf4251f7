package persist

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/rdb"
	"github.com/kvserver/kvserver/setval"
)

func putHash(t testing.TB, ks *keyspace.Keyspace, db int, key string, expire int64, pairs ...string) {
	t.Helper()
	s := ks.Shard(ks.ShardFor([]byte(key)))
	s.Lock()
	defer s.Unlock()
	h, err := hashval.New(s.Arena(), []byte(key), expire)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(pairs); i += 2 {
		if _, err := hashval.Set(s.Arena(), h, []byte(pairs[i]), []byte(pairs[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.InsertLocked(db, []byte(key), h); err != nil {
		t.Fatal(err)
	}
}

func putSet(t testing.TB, ks *keyspace.Keyspace, db int, key string, expire int64, members ...string) {
	t.Helper()
	s := ks.Shard(ks.ShardFor([]byte(key)))
	s.Lock()
	defer s.Unlock()
	h, err := setval.New(s.Arena(), []byte(key), []byte(members[0]), len(members), expire)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		if _, err := setval.Add(s.Arena(), h, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.InsertLocked(db, []byte(key), h); err != nil {
		t.Fatal(err)
	}
}

// describe reads every key of ks as "db key type/encoding@expire: sorted contents".
func describe(ks *keyspace.Keyspace) []string {
	var out []string
	for i := 0; i < ks.NumShards(); i++ {
		s := ks.Shard(i)
		s.Lock()
		a := s.Arena()
		for db := range ks.Databases() {
			s.EachLocked(db, func(h alloc.Handle) {
				when, _ := object.Expire(a, h)
				var elems []string
				enc := "raw"
				switch object.TypeOf(a, h) {
				case object.TypeHash:
					e, _ := object.Root(a, h)
					enc = "hash/" + e.Name()
					hashval.Each(a, h, nil, func(f, v []byte) bool {
						elems = append(elems, string(f)+"="+string(v))
						return true
					})
				case object.TypeSet:
					e, _ := object.Root(a, h)
					enc = "set/" + e.Name()
					setval.Each(a, h, nil, func(m []byte) bool {
						elems = append(elems, string(m))
						return true
					})
				case object.TypeList:
					e, _ := object.Root(a, h)
					enc = "list/" + e.Name()
					elems = []string{listContents(a, h)} // in order
				case object.TypeZSet:
					e, _ := object.Root(a, h)
					enc = "zset/" + e.Name()
					elems = []string{zsetContents(a, h)} // in order
				default:
					elems = append(elems, string(object.Value(a, h, nil)))
				}
				slices.Sort(elems)
				out = append(out, fmt.Sprintf("%d %s %s@%d: %s", db, object.Key(a, h), enc, when, strings.Join(elems, ",")))
			})
		}
		s.Unlock()
	}
	slices.Sort(out)
	return out
}

// arenaUsed is the bytes every shard's arena has allocated.
func arenaUsed(ks *keyspace.Keyspace) int64 {
	var n int64
	for i := 0; i < ks.NumShards(); i++ {
		n += ks.Shard(i).Arena().Used()
	}
	return n
}

// hashSetKeyspace fills ks with hashes and sets of every encoding, in several databases.
func hashSetKeyspace(t testing.TB, ks *keyspace.Keyspace) {
	var big, bigSet, ints, bigInts []string
	for i := range 1000 {
		big = append(big, fmt.Sprintf("field:%d", i), fmt.Sprint(i*31))
		bigSet = append(bigSet, fmt.Sprintf("member:%d", i))
		bigInts = append(bigInts, fmt.Sprint(i*1000003))
	}
	for i := range 100 {
		ints = append(ints, fmt.Sprint(i-50))
	}
	putHash(t, ks, 0, "h:small", 0, "a", "1", "b", "two", "c", "")
	putHash(t, ks, 1, "h:exp", 4_000_000_000_000, "f", "v")
	putHash(t, ks, 0, "h:big", 0, big...)
	putHash(t, ks, 2, "h:longvalue", 0, "f", strings.Repeat("long", 30), "g", "1")
	putSet(t, ks, 0, "s:ints", 0, ints...)
	putSet(t, ks, 1, "s:bigints", 4_000_000_000_001, bigInts...)
	putSet(t, ks, 0, "s:small", 0, "a", "b", "3")
	putSet(t, ks, 3, "s:big", 0, bigSet...)
	putSet(t, ks, 0, "s:longmember", 0, "x", strings.Repeat("m", 100))
	put(t, ks, 0, "str", "plain", 0)
}

func TestHashSetSnapshotRoundTrip(t *testing.T) {
	src := newKS(t)
	hashSetKeyspace(t, src)
	want := describe(src)
	for _, enc := range []string{"hash/listpack", "hash/hashtable", "set/intset", "set/listpack", "set/hashtable"} {
		if !strings.Contains(strings.Join(want, "\n"), enc) {
			t.Fatalf("the dataset has no %s", enc)
		}
	}
	for _, compress := range []bool{false, true} {
		var buf bytes.Buffer
		res, err := WriteSnapshot(src, &buf, SnapshotOptions{Compress: compress, Checksum: true})
		if err != nil || res.Keys != int64(len(want)) {
			t.Fatalf("WriteSnapshot: %v, %d keys", err, res.Keys)
		}
		types := map[byte]int{}
		rdb.Decode(bytes.NewReader(buf.Bytes()), func(e rdb.Entry) error { types[e.Type]++; return nil })
		if types[rdb.TypeHashListpack] != 2 || types[rdb.TypeHash] != 2 || types[rdb.TypeSetIntset] != 1 ||
			types[rdb.TypeSetListpack] != 1 || types[rdb.TypeSet] != 3 {
			t.Errorf("types written: %v", types)
		}
		dst := newKS(t)
		lr, err := Load(dst, bytes.NewReader(buf.Bytes()), LoadOptions{Workers: 3})
		if err != nil || lr.Keys != int64(len(want)) {
			t.Fatalf("Load: %v %+v", err, lr)
		}
		if got := describe(dst); !slices.Equal(got, want) {
			t.Fatalf("loaded keyspace differs:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// A hash and a set far larger than a batch load through many batches, with others between.
func TestLoadBigValues(t *testing.T) {
	src := newKS(t)
	var fields, members []string
	n, vlen := 60000, 32
	if invariantsBuild {
		n, vlen = 2000, 400 // still several batches
	}
	for i := range n {
		fields = append(fields, fmt.Sprintf("field:%010d", i), strings.Repeat("v", vlen))
		members = append(members, fmt.Sprintf("member:%010d", i))
	}
	putHash(t, src, 0, "bighash", 0, fields...)
	putSet(t, src, 0, "bigset", 0, members...)
	for i := range 200 {
		putHash(t, src, 0, fmt.Sprint("h", i), 0, "f", fmt.Sprint(i))
	}
	var buf bytes.Buffer
	if _, err := WriteSnapshot(src, &buf, SnapshotOptions{Checksum: true}); err != nil {
		t.Fatal(err)
	}
	dst := newKS(t)
	if _, err := Load(dst, bytes.NewReader(buf.Bytes()), LoadOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(describe(dst), describe(src)) {
		t.Fatal("loaded keyspace differs")
	}
}

// rdbFile writes a file of raw entries (rdb.Append* output) in database 0.
func rdbFile(entries ...[]byte) []byte {
	var b bytes.Buffer
	e := rdb.NewEncoder(&b)
	e.WriteHeader()
	e.SelectDB(0)
	for _, ent := range entries {
		e.WriteRaw(ent)
	}
	e.Finish()
	return b.Bytes()
}

func elems(typ byte, key string, n uint64, el ...string) []byte {
	b := rdb.AppendCollection(nil, rdb.Entry{Key: []byte(key), ExpireMs: -1, Idle: -1, Freq: -1}, typ, n, true)
	for _, e := range el {
		b = rdb.AppendElement(b, []byte(e), true)
	}
	return b
}

// Redis's conversions on load: a type-4 hash or type-2 set within the listpack limits is a
// listpack (an intset for integers) again; past them a hash table.
func TestLoadConverts(t *testing.T) {
	var long []string
	for i := range 600 {
		long = append(long, fmt.Sprint("f", i), "v")
	}
	data := rdbFile(
		elems(rdb.TypeHash, "h4", 2, "a", "1", "b", "2"),
		elems(rdb.TypeHash, "h4long", 1, "a", strings.Repeat("x", 65)),
		elems(rdb.TypeHash, "h4big", 600, long...),
		elems(rdb.TypeSet, "s2ints", 3, "1", "2", "3"),
		elems(rdb.TypeSet, "s2strs", 3, "a", "b", "1"),
		elems(rdb.TypeSet, "s2long", 2, "a", strings.Repeat("y", 65)),
	)
	ks := newKS(t)
	if _, err := Load(ks, bytes.NewReader(data), LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"h4": "hash/listpack", "h4long": "hash/hashtable", "h4big": "hash/hashtable",
		"s2ints": "set/intset", "s2strs": "set/listpack", "s2long": "set/hashtable"}
	for _, d := range describe(ks) {
		f := strings.Fields(d)
		if enc := strings.Split(f[2], "@")[0]; want[f[1]] != enc {
			t.Errorf("%s: %s, want %s", f[1], enc, want[f[1]])
		}
	}
}

// A duplicate element or a corrupt blob fails the load and leaves nothing allocated.
func TestLoadRefusesCorruptValues(t *testing.T) {
	lp := listpack.NewSlice(0)
	for _, s := range []string{"a", "1", "a", "2"} {
		lp, _ = listpack.AppendSlice(lp, []byte(s))
	}
	var many []string
	for i := range 700 {
		many = append(many, fmt.Sprint("m", i))
	}
	many = append(many, "m3")
	cases := map[string][]byte{
		"dup field":       elems(rdb.TypeHash, "h", 2, "a", "1", "a", "2"),
		"dup member":      elems(rdb.TypeSet, "s", 2, "x", "x"),
		"dup member big":  elems(rdb.TypeSet, "s", uint64(len(many)), many...),
		"dup listpack":    rdb.AppendBlob(nil, rdb.Entry{Key: []byte("h"), ExpireMs: -1, Idle: -1, Freq: -1}, rdb.TypeHashListpack, lp, false),
		"short elements":  elems(rdb.TypeSet, "s", 5, "a", "b"),
		"huge count hint": elems(rdb.TypeHash, "h", 1<<40, "a", "b"),
	}
	for name, ent := range cases {
		ks := newKS(t)
		base := arenaUsed(ks)
		_, err := Load(ks, bytes.NewReader(rdbFile(rdb.AppendString(nil, rdb.Entry{Key: []byte("str"), Value: []byte("v"), ExpireMs: -1, Idle: -1, Freq: -1}, false), ent)), LoadOptions{})
		if err == nil {
			t.Errorf("%s: loaded", name)
			continue
		}
		if strings.HasPrefix(name, "dup") && !errors.Is(err, rdb.ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
		ks.Shard(ks.ShardFor([]byte("str"))).Lock()
		ks.Shard(ks.ShardFor([]byte("str"))).DeleteLocked(0, []byte("str"))
		ks.Shard(ks.ShardFor([]byte("str"))).Unlock()
		if used := arenaUsed(ks); used != base {
			t.Errorf("%s: %d bytes left allocated", name, used-base)
		}
	}
}

// BenchmarkLoadBigCollections loads a file of one hash of 1,000,000 fields (field:%010d, 32-byte
// values) and one set of 1,000,000 members (member:%010d): the shapes. ns/op is the
// whole load; allocs/op shows that no Go value is made per element.
func BenchmarkLoadBigCollections(b *testing.B) {
	const n = 1000000
	value := []byte(strings.Repeat("v", 32))
	h := rdb.AppendCollection(nil, rdb.Entry{Key: []byte("bighash"), ExpireMs: -1, Idle: -1, Freq: -1}, rdb.TypeHash, n, true)
	for i := range n {
		h = rdb.AppendElement(rdb.AppendElement(h, fmt.Appendf(nil, "field:%010d", i), true), value, true)
	}
	s := rdb.AppendCollection(nil, rdb.Entry{Key: []byte("bigset"), ExpireMs: -1, Idle: -1, Freq: -1}, rdb.TypeSet, n, true)
	for i := range n {
		s = rdb.AppendElement(s, fmt.Appendf(nil, "member:%010d", i), true)
	}
	data := rdbFile(h, s)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		ks := newKS(b)
		b.StartTimer()
		if _, err := Load(ks, bytes.NewReader(data), LoadOptions{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		ks.Close()
		b.StartTimer()
	}
}

// BenchmarkLoadSmallHashes loads a file of 100,000 hashes hs:<i> of 10 fields f0…f9 with
// 16-byte values (the shape): listpack blobs, validated and copied.
func BenchmarkLoadSmallHashes(b *testing.B) {
	var ents [][]byte
	value := strings.Repeat("v", 16)
	for i := range 100000 {
		lp := listpack.NewSlice(0)
		for f := range 10 {
			lp, _ = listpack.AppendSlice(lp, []byte(fmt.Sprint("f", f)))
			lp, _ = listpack.AppendSlice(lp, []byte(value))
		}
		ents = append(ents, rdb.AppendBlob(nil, rdb.Entry{Key: fmt.Appendf(nil, "hs:%d", i), ExpireMs: -1, Idle: -1, Freq: -1}, rdb.TypeHashListpack, lp, true))
	}
	data := rdbFile(ents...)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		ks := newKS(b)
		b.StartTimer()
		if _, err := Load(ks, bytes.NewReader(data), LoadOptions{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		ks.Close()
		b.StartTimer()
	}
}

// A type-2 set announcing more members than set-max-intset-entries is a hash table from the
// start (rdbLoadObject), even when its members would fit a listpack.
func TestLoadSetOverIntsetLimit(t *testing.T) {
	setval.SetLimits(10, 128, 64)
	t.Cleanup(func() { setval.SetLimits(512, 128, 64) })
	var m []string
	for i := range 50 {
		m = append(m, fmt.Sprint("m", i))
	}
	ks := newKS(t)
	data := rdbFile(elems(rdb.TypeSet, "over", 50, m...), elems(rdb.TypeSet, "under", 5, m[:5]...),
		elems(rdb.TypeSet, "ints", 10, "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"))
	if _, err := Load(ks, bytes.NewReader(data), LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"over": "set/hashtable", "under": "set/listpack", "ints": "set/intset"}
	for _, d := range describe(ks) {
		f := strings.Fields(d)
		if enc := strings.Split(f[2], "@")[0]; want[f[1]] != enc {
			t.Errorf("%s: %s, want %s", f[1], enc, want[f[1]])
		}
	}
}

// TestSnapshotCollectionsUnderWrites: hashes and sets changed in place while a snapshot runs
// (looked up for write first, as commands do) are in the file as they were at its instant —
// the listpack blobs and the hash tables' elements alike. Run under -race too.
func TestSnapshotCollectionsUnderWrites(t *testing.T) {
	ks := newKS(t)
	const keys = 400
	for i := range keys {
		if i%2 == 0 {
			n := 3 + i%700 // listpacks and tables
			var pairs []string
			for f := range n {
				pairs = append(pairs, fmt.Sprint("f", f), "gen0")
			}
			putHash(t, ks, 0, fmt.Sprint("h", i), 0, pairs...)
		} else {
			n := 3 + i%300
			var members []string
			for m := range n {
				members = append(members, fmt.Sprint("m", m))
			}
			putSet(t, ks, 0, fmt.Sprint("s", i), 0, members...)
		}
	}
	want := describe(ks)
	sn := StartSnapshot(ks, SnapshotOptions{Checksum: true, Workers: 2})
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; !stop.Load(); i = (i + 2) % keys {
				key := []byte(fmt.Sprint("h", i))
				if i%2 == 1 {
					key = []byte(fmt.Sprint("s", i))
				}
				s := ks.Shard(ks.ShardFor(key))
				s.Lock()
				if h, ok := s.LookupFlagsLocked(0, key, keyspace.LookupForWrite); ok {
					var err error
					if i%2 == 0 {
						_, err = hashval.Set(s.Arena(), h, []byte("f0"), []byte("gen1"))
					} else {
						_, err = setval.Add(s.Arena(), h, fmt.Appendf(nil, "new%d", w))
					}
					if err != nil {
						t.Error(err)
					}
					s.UpdateLocked(0, key, h, h)
				}
				s.Unlock()
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
	dst := newKS(t)
	if _, err := Load(dst, bytes.NewReader(buf.Bytes()), LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := describe(dst); !slices.Equal(got, want) {
		for i := range got {
			if i < len(want) && got[i] != want[i] {
				t.Fatalf("the file has %.120s, the instant had %.120s", got[i], want[i])
			}
		}
		t.Fatalf("the file has %d keys, the instant %d", len(got), len(want))
	}
}

// A hash or set whose expire has passed is skipped whole, elements and all, and counted; an
// empty one is skipped as empty first (Redis's RDB_LOAD_ERR_EMPTY_KEY), not counted as expired.
func TestLoadSkipsExpiredCollections(t *testing.T) {
	old := rdb.Entry{Key: []byte("old"), ExpireMs: 1000, Idle: -1, Freq: -1}
	b := rdb.AppendCollection(nil, old, rdb.TypeHash, 600, true)
	for i := range 600 {
		b = rdb.AppendElement(rdb.AppendElement(b, []byte(fmt.Sprint("f", i)), true), []byte("v"), true)
	}
	old.Key = []byte("oldset")
	s := rdb.AppendBlob(nil, old, rdb.TypeSetListpack, listpack.NewSlice(0), true) // empty too
	data := rdbFile(b, elems(rdb.TypeSet, "live", 2, "a", "b"), s)
	ks := newKS(t)
	res, err := Load(ks, bytes.NewReader(data), LoadOptions{Now: func() int64 { return 2000 }})
	if err != nil || res.Keys != 1 || res.Expired != 1 || res.Empty != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	if got := describe(ks); len(got) != 1 || !strings.Contains(got[0], "live set/listpack@0: a,b") {
		t.Fatalf("%v", got)
	}
}
