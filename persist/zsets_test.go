package persist

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/rdb"
	"github.com/kvserver/kvserver/zsetval"
)

// zp is a sorted set's member and score as the tests write them.
type zp struct {
	m string
	s float64
}

func putZSet(t testing.TB, ks *keyspace.Keyspace, db int, key string, expire int64, pairs ...zp) {
	t.Helper()
	s := ks.Shard(ks.ShardFor([]byte(key)))
	s.Lock()
	defer s.Unlock()
	maxLen := 0
	for _, p := range pairs {
		maxLen = max(maxLen, len(p.m))
	}
	h, err := zsetval.New(s.Arena(), []byte(key), len(pairs), maxLen, expire)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		if _, _, err := zsetval.Add(s.Arena(), h, []byte(p.m), p.s, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.InsertLocked(db, []byte(key), h); err != nil {
		t.Fatal(err)
	}
}

// zsetContents is a sorted set's pairs in order, "member=score" (the score's bits: -0 is not 0).
func zsetContents(a *alloc.Arena, h alloc.Handle) string {
	var out []string
	zsetval.Each(a, h, nil, func(m []byte, s float64) bool {
		out = append(out, fmt.Sprintf("%s=%s", m, strconv.FormatFloat(s, 'g', -1, 64)))
		if math.Signbit(s) && s == 0 {
			out[len(out)-1] += "(-0)"
		}
		return true
	})
	return strings.Join(out, ",")
}

func zpairsN(prefix string, n int) []zp {
	out := make([]zp, n)
	for i := range out {
		out[i] = zp{fmt.Sprint(prefix, i), float64(i%17) / 4}
	}
	return out
}

// zsetScores has every kind of score.
func zsetScores() []zp {
	return []zp{{"zero", 0}, {"negzero", math.Copysign(0, -1)}, {"inf", math.Inf(1)}, {"-inf", math.Inf(-1)},
		{"tiny", 1e-300}, {"one", 1}, {"tenth", 0.1}, {"big", 1e300}, {"2^60", 1 << 60}, {"12", 3}, {"-7", 3}}
}

// zsetEntry5 is a type-5 entry of pairs in the order given.
func zsetEntry5(key string, n uint64, pairs ...zp) []byte {
	b := rdb.AppendZSetHead(nil, rdb.Entry{Key: []byte(key), ExpireMs: -1, Idle: -1, Freq: -1}, n, true)
	for _, p := range pairs {
		b = rdb.AppendZSetMember(b, []byte(p.m), p.s, true)
	}
	return b
}

// zsetEntry17 is a type-17 entry of a listpack of the elements given (member, score text, …).
func zsetEntry17(key string, elems ...string) []byte {
	lp := listpack.NewSlice(0)
	for _, e := range elems {
		lp, _ = listpack.AppendSlice(lp, []byte(e))
	}
	return rdb.AppendBlob(nil, rdb.Entry{Key: []byte(key), ExpireMs: -1, Idle: -1, Freq: -1}, rdb.TypeZSetListpack, lp, true)
}

// skiplistReady reports whether zsetval makes skiplists yet (before zindex lands every sorted
// set stays a listpack).
func skiplistReady(t testing.TB) bool {
	a := alloc.MustNewArena(64 << 20)
	defer a.Close()
	b := zsetval.NewBuilder(a, []byte("probe"), 200, 10, 0)
	for i := range 200 {
		b.Add([]byte(strconv.Itoa(i)), float64(i))
	}
	h, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	defer object.Free(a, h)
	return zsetval.Encoding(a, h) == object.EncSkiplist
}

func TestZSetSnapshotRoundTrip(t *testing.T) {
	src := newKS(t)
	putZSet(t, src, 0, "z:small", 0, zsetScores()...)
	putZSet(t, src, 1, "z:exp", 4_000_000_000_000, zp{"m", 1.5})
	putZSet(t, src, 0, "z:big", 0, zpairsN("member:", 1000)...)
	putZSet(t, src, 2, "z:long", 0, zp{"a", 1}, zp{strings.Repeat("l", 65), 2})
	put(t, src, 0, "str", "plain", 0)
	want := describe(src)
	all := strings.Join(want, "\n")
	sl := skiplistReady(t)
	if sl && !strings.Contains(all, "zset/skiplist") || !strings.Contains(all, "zset/listpack") {
		t.Fatalf("the dataset lacks a shape:\n%s", all)
	}
	for _, compress := range []bool{false, true} {
		var buf bytes.Buffer
		res, err := WriteSnapshot(src, &buf, SnapshotOptions{Compress: compress, Checksum: true})
		if err != nil || res.Keys != int64(len(want)) {
			t.Fatalf("WriteSnapshot: %v, %d keys", err, res.Keys)
		}
		types := map[byte]int{}
		rdb.Decode(bytes.NewReader(buf.Bytes()), func(e rdb.Entry) error { types[e.Type]++; return nil })
		if sl && (types[rdb.TypeZSet2] != 2 || types[rdb.TypeZSetListpack] != 2) || !sl && types[rdb.TypeZSetListpack] != 4 {
			t.Errorf("types written: %v", types)
		}
		dst := newKS(t)
		lr, err := Load(dst, bytes.NewReader(buf.Bytes()), LoadOptions{Workers: 3})
		if err != nil || lr.Keys != int64(len(want)) {
			t.Fatalf("Load: %v %+v", err, lr)
		}
		if got := describe(dst); !slices.Equal(got, want) {
			t.Fatalf("loaded keyspace differs:\n%s\nwant\n%s", strings.Join(got, "\n"), all)
		}
	}
}

// A type-5 set is written from the highest score down, as Redis writes it.
func TestZSetWrittenHighestFirst(t *testing.T) {
	if !skiplistReady(t) {
		t.Skip("no skiplist encoding yet")
	}
	ks := newKS(t)
	putZSet(t, ks, 0, "z", 0, zpairsN("m", 300)...)
	var buf bytes.Buffer
	if _, err := WriteSnapshot(ks, &buf, SnapshotOptions{Checksum: true}); err != nil {
		t.Fatal(err)
	}
	d := rdb.NewDecoder(bytes.NewReader(buf.Bytes()))
	ent, err := d.Next()
	if err != nil || ent.Type != rdb.TypeZSet2 || ent.Len != 300 {
		t.Fatalf("%v %d %d", err, ent.Type, ent.Len)
	}
	var prev *zp
	for range 300 {
		m, s, err := d.NextZSetMember()
		if err != nil {
			t.Fatal(err)
		}
		if prev != nil && (s > prev.s || s == prev.s && string(m) > prev.m) {
			t.Fatalf("%s=%v after %s=%v", m, s, prev.m, prev.s)
		}
		prev = &zp{string(m), s}
	}
}

// Redis's conversions on load: a type-5 set within the limits is a listpack, past either a
// skiplist; a type-17 listpack over the entry limit a skiplist (a long member alone keeps it a
// listpack, as Redis checks only the count there); types 3 and 12 read (12 converted as 17).
func TestLoadZSetConverts(t *testing.T) {
	long := strings.Repeat("x", 65)
	var lp200 []string
	for i := range 200 {
		lp200 = append(lp200, fmt.Sprintf("m%03d", i), strconv.Itoa(i))
	}
	big := zpairsN("m", 200)
	slices.SortFunc(big, func(x, y zp) int { return -strings.Compare(fmt.Sprint(x.s, x.m), fmt.Sprint(y.s, y.m)) })
	type3 := []byte{rdb.TypeZSet, 2, 'z', '3', 2, 1, 'a', 3, '1', '.', '5', 1, 'b', 254}
	type12 := func(key string, elems ...string) []byte {
		b := rdb.AppendBlob(nil, rdb.Entry{Key: []byte(key), ExpireMs: -1, Idle: -1, Freq: -1}, rdb.TypeZSetListpack, ziplistOf(elems...), false)
		b[0] = rdb.TypeZSetZiplist
		return b
	}
	data := rdbFile(
		zsetEntry5("z5", 2, zp{"b", 2}, zp{"a", 1}),
		zsetEntry5("z5long", 2, zp{long, 2}, zp{"a", 1}),
		zsetEntry5("z5big", uint64(len(big)), big...),
		zsetEntry17("z17", "a", "1", "b", "2.5"),
		zsetEntry17("z17long", "a", "1", long, "2"),
		zsetEntry17("z17big", lp200...),
		type3,
		type12("z12", "a", "1", "b", "2.5"),
		type12("z12big", lp200...),
	)
	ks := newKS(t)
	if _, err := Load(ks, bytes.NewReader(data), LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	sl := "zset/skiplist"
	if !skiplistReady(t) {
		sl = "zset/listpack"
	}
	want := map[string]string{"z5": "zset/listpack", "z5long": sl, "z5big": sl, "z17": "zset/listpack",
		"z17long": "zset/listpack", "z17big": sl, "z3": "zset/listpack", "z12": "zset/listpack", "z12big": sl}
	got := map[string]string{}
	for _, d := range describe(ks) {
		f := strings.Fields(d)
		got[f[1]] = strings.Split(f[2], "@")[0]
		if f[1] == "z3" && !strings.HasSuffix(d, "a=1.5,b=+Inf") {
			t.Errorf("type 3: %s", d)
		}
		if (f[1] == "z5" || f[1] == "z12") && !strings.HasSuffix(d, map[string]string{"z5": "a=1,b=2", "z12": "a=1,b=2.5"}[f[1]]) {
			t.Errorf("type 5: %s", d)
		}
	}
	for k, enc := range want {
		if got[k] != enc {
			t.Errorf("%s: %s, want %s", k, got[k], enc)
		}
	}
}

// A duplicate member, a NaN score, a bad listpack fail the load and leave nothing allocated.
func TestLoadRefusesCorruptZSets(t *testing.T) {
	many := zpairsN("m", 700)
	many = append(many, zp{"m3", 99})
	cases := map[string][]byte{
		"dup member":     zsetEntry5("z", 2, zp{"a", 2}, zp{"a", 1}),
		"dup member big": zsetEntry5("z", uint64(len(many)), many...),
		"dup listpack":   zsetEntry17("z", "a", "1", "a", "2"),
		"nan":            zsetEntry5("z", 2, zp{"a", 2}, zp{"b", math.NaN()}),
		"unsorted":       zsetEntry17("z", "b", "2", "a", "1"),
		"bad score":      zsetEntry17("z", "a", "x"),
		"short":          zsetEntry5("z", 5, zp{"a", 2}),
	}
	for name, ent := range cases {
		ks := newKS(t)
		base := arenaUsed(ks)
		_, err := Load(ks, bytes.NewReader(rdbFile(rdb.AppendString(nil, rdb.Entry{Key: []byte("str"), Value: []byte("v"), ExpireMs: -1, Idle: -1, Freq: -1}, false), ent)), LoadOptions{})
		if err == nil {
			t.Errorf("%s: loaded", name)
			continue
		}
		if name != "short" && !errors.Is(err, rdb.ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
		if strings.HasPrefix(name, "dup member") && !strings.Contains(err.Error(), "duplicate zset fields in key 'z'") {
			t.Errorf("%s: %v", name, err)
		}
		s := ks.Shard(ks.ShardFor([]byte("str")))
		s.Lock()
		s.DeleteLocked(0, []byte("str"))
		s.Unlock()
		if used := arenaUsed(ks); used != base {
			t.Errorf("%s: %d bytes left allocated", name, used-base)
		}
	}
}

// A sorted set far larger than a batch loads through many batches, with other keys between.
func TestLoadBigZSet(t *testing.T) {
	n := 100000
	if invariantsBuild {
		n = 10000
	}
	pairs := make([]zp, n)
	for i := range pairs {
		pairs[n-1-i] = zp{fmt.Sprintf("member:%010d", i), float64(i)} // highest first
	}
	var ents [][]byte
	for i := range 50 {
		ents = append(ents, rdb.AppendString(nil, rdb.Entry{Key: fmt.Appendf(nil, "s%d", i), Value: []byte("v"), ExpireMs: -1, Idle: -1, Freq: -1}, false))
	}
	ents = slices.Insert(ents, 20, zsetEntry5("big", uint64(n), pairs...))
	ks := newKS(t)
	res, err := Load(ks, bytes.NewReader(rdbFile(ents...)), LoadOptions{Workers: 4})
	if err != nil || res.Keys != 51 {
		t.Fatalf("%v %+v", err, res)
	}
	s := ks.Shard(ks.ShardFor([]byte("big")))
	s.Lock()
	defer s.Unlock()
	h, ok := s.LookupLocked(0, []byte("big"))
	if !ok || zsetval.Len(s.Arena(), h) != n {
		t.Fatal("big sorted set missing or short")
	}
	if err := zsetval.Check(s.Arena(), h); err != nil {
		t.Fatal(err)
	}
	if r, score, ok := zsetval.Rank(s.Arena(), h, []byte("member:0000000007"), false); !ok || r != 7 || score != 7 {
		t.Errorf("rank %d score %v", r, score)
	}
}

func TestRestoreZSet(t *testing.T) {
	a := alloc.MustNewArena(1 << 28)
	defer a.Close()
	restore := func(p []byte) (alloc.Handle, error) {
		d, ent, err := rdb.OpenDump(p)
		if err != nil {
			return 0, err
		}
		return NewRecord(a, []byte("k"), d, ent, 0)
	}
	// Every shape restores from its own DUMP to the same pairs and encoding.
	ks := newKS(t)
	putZSet(t, ks, 0, "small", 0, zsetScores()...)
	putZSet(t, ks, 0, "big", 0, zpairsN("member:", 500)...)
	for _, key := range []string{"small", "big"} {
		s := ks.Shard(ks.ShardFor([]byte(key)))
		s.Lock()
		h, _ := s.LookupLocked(0, []byte(key))
		p := EncodeDump(s.Arena(), h)
		want := zsetContents(s.Arena(), h)
		wantEnc := zsetval.Encoding(s.Arena(), h)
		s.Unlock()
		r, err := restore(p)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if got := zsetContents(a, r); got != want || zsetval.Encoding(a, r) != wantEnc {
			t.Errorf("%s: %s %s, want %s %s", key, zsetval.Encoding(a, r).Name(), got, wantEnc.Name(), want)
		}
		object.Free(a, r)
	}
	// Bad payloads: nothing left allocated.
	base := a.Used()
	dump := func(ent []byte) []byte { return rdb.FinishDump(append([]byte{ent[0]}, ent[3:]...)) } // key "z"
	for name, p := range map[string][]byte{
		"dup":      dump(zsetEntry5("z", 2, zp{"a", 2}, zp{"a", 1})),
		"nan":      dump(zsetEntry5("z", 1, zp{"a", math.NaN()})),
		"short":    dump(zsetEntry5("z", 3, zp{"a", 2})),
		"unsorted": dump(zsetEntry17("z", "b", "2", "a", "1")),
	} {
		if _, err := restore(p); err != rdb.ErrDumpData {
			t.Errorf("%s: %v", name, err)
		}
		if used := a.Used(); used != base {
			t.Errorf("%s: %d bytes left", name, used-base)
		}
	}
}

// A snapshot taken while sorted sets change (members added and removed across the listpack ↔
// skiplist conversions) holds every sorted set as it was at the instant.
func TestSnapshotZSetsUnderWrites(t *testing.T) {
	ks := newKS(t)
	const keys = 300
	for i := range keys {
		putZSet(t, ks, 0, fmt.Sprint("z", i), 0, zpairsN("gen0-member-", 1+i*7%400)...)
	}
	want := describe(ks)
	sn := StartSnapshot(ks, SnapshotOptions{Checksum: true, Workers: 2})
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n, i := 0, w; !stop.Load(); n, i = n+1, (i+2)%keys {
				key := []byte(fmt.Sprint("z", i))
				s := ks.Shard(ks.ShardFor(key))
				s.Lock()
				if h, ok := s.LookupFlagsLocked(0, key, keyspace.LookupForWrite); ok {
					_, _, err := zsetval.Add(s.Arena(), h, fmt.Appendf(nil, "new-%d-%s", n, strings.Repeat("x", n%80)), float64(n%50), 0)
					if err == nil && zsetval.Len(s.Arena(), h) > 1 {
						zsetval.Pop(s.Arena(), h, false, 1, nil, func([]byte, float64) {})
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
	got := describe(dst)
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("the file has %.120s, the instant had %.120s", got[i], want[i])
		}
	}
	if len(got) != len(want) {
		t.Fatalf("the file has %d keys, the instant %d", len(got), len(want))
	}
}

// BenchmarkLoadBigZSet loads a file of one sorted set of 1,000,000 members member:%010d with
// score i (type 5, highest first, as Redis writes it): the shape.
func BenchmarkLoadBigZSet(b *testing.B) {
	const n = 1000000
	pairs := make([]zp, n)
	for i := range pairs {
		pairs[n-1-i] = zp{fmt.Sprintf("member:%010d", i), float64(i)}
	}
	data := rdbFile(zsetEntry5("bigzset", n, pairs...))
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

// BenchmarkSaveBigZSet writes a snapshot of that sorted set (type 5, from the highest score).
func BenchmarkSaveBigZSet(b *testing.B) {
	const n = 1000000
	ks := newKS(b)
	pairs := make([]zp, n)
	for i := range pairs {
		pairs[i] = zp{fmt.Sprintf("member:%010d", i), float64(i)}
	}
	if _, err := Load(ks, bytes.NewReader(rdbFile(zsetEntry5("bigzset", n, pairs...))), LoadOptions{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WriteSnapshot(ks, io.Discard, SnapshotOptions{Compress: true, Checksum: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadSmallZSets loads a file of 100,000 sorted sets zs:<i> of 10 members m0…m9 with
// scores 0…9 (the shape): type-17 listpacks, validated and copied.
func BenchmarkLoadSmallZSets(b *testing.B) {
	var ents [][]byte
	var elems []string
	for m := range 10 {
		elems = append(elems, fmt.Sprint("m", m), strconv.Itoa(m))
	}
	for i := range 100000 {
		ents = append(ents, zsetEntry17(fmt.Sprint("zs:", i), elems...))
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
