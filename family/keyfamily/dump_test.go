package keyfamily

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/rdb"
	"github.com/kvserver/kvserver/setval"
)

// addCollection stores a hash (pairs), set (members) or list (elements) as HSET, SADD and
// RPUSH would build it.
func (wd *world) addCollection(t *testing.T, typ object.Type, key string, elems ...string) {
	t.Helper()
	sh := wd.ks.Shard(wd.ks.ShardFor([]byte(key)))
	sh.Lock()
	defer sh.Unlock()
	a := sh.Arena()
	var h alloc.Handle
	var err error
	if typ == object.TypeList {
		if h, err = listval.New(a, []byte(key), 0); err == nil {
			for _, e := range elems {
				if err = listval.PushTail(a, h, []byte(e)); err != nil {
					break
				}
			}
		}
	} else if typ == object.TypeHash {
		if h, err = hashval.New(a, []byte(key), 0); err == nil {
			for i := 0; i < len(elems) && err == nil; i += 2 {
				_, err = hashval.Set(a, h, []byte(elems[i]), []byte(elems[i+1]))
			}
		}
	} else if h, err = setval.New(a, []byte(key), []byte(elems[0]), len(elems), 0); err == nil {
		for _, m := range elems {
			if _, err = setval.Add(a, h, []byte(m)); err != nil {
				break
			}
		}
	}
	if err == nil {
		err = sh.InsertLocked(0, []byte(key), h)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// describeKey is key's type, encoding and sorted contents, or "none".
func (wd *world) describeKey(key string) string {
	sh := wd.ks.Shard(wd.ks.ShardFor([]byte(key)))
	sh.Lock()
	defer sh.Unlock()
	h, ok := sh.LookupFlagsLocked(0, []byte(key), keyspace.LookupNoTouch)
	if !ok {
		return "none"
	}
	a := sh.Arena()
	if object.TypeOf(a, h) == object.TypeString {
		return "string " + string(object.Value(a, h, nil))
	}
	enc, _ := object.Root(a, h)
	var elems []string
	switch object.TypeOf(a, h) {
	case object.TypeHash:
		hashval.Each(a, h, nil, func(f, v []byte) bool { elems = append(elems, string(f)+"="+string(v)); return true })
	case object.TypeSet:
		setval.Each(a, h, nil, func(m []byte) bool { elems = append(elems, string(m)); return true })
	case object.TypeList: // in order, and the node shapes
		listval.Each(a, h, nil, func(e []byte) bool { elems = append(elems, string(e)); return true })
		var shape []string
		listval.Nodes(a, h, func(lp []byte, plain bool) bool {
			shape = append(shape, fmt.Sprint(listpack.Len(lp), plain))
			return true
		})
		return enc.Name() + " " + strings.Join(elems, ",") + " " + strings.Join(shape, "|")
	}
	slices.Sort(elems)
	return enc.Name() + " " + strings.Join(elems, ",")
}

func (wd *world) arenaUsed() int64 {
	var n int64
	for i := 0; i < wd.ks.NumShards(); i++ {
		n += wd.ks.Shard(i).Arena().Used()
	}
	return n
}

func seq(prefix string, n int, pairs bool) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprint(prefix, i))
		if pairs {
			out = append(out, fmt.Sprint("value-", i))
		}
	}
	return out
}

// DUMP then RESTORE of every encoding gives the same contents in the same encoding.
func TestDumpRestoreHashSet(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	wd.addCollection(t, object.TypeHash, "h:lp", "a", "1", "b", "two")
	wd.addCollection(t, object.TypeHash, "h:ht", seq("f", 600, true)...)
	wd.addCollection(t, object.TypeHash, "h:long", "f", strings.Repeat("v", 65))
	wd.addCollection(t, object.TypeSet, "s:is", "1", "2", "-3")
	wd.addCollection(t, object.TypeSet, "s:lp", "a", "b", "1")
	wd.addCollection(t, object.TypeSet, "s:ht", seq("m", 300, false)...)
	wd.addCollection(t, object.TypeSet, "s:long", "a", strings.Repeat("m", 65))
	wantType := map[string]byte{"h:lp": rdb.TypeHashListpack, "h:ht": rdb.TypeHash, "h:long": rdb.TypeHash,
		"s:is": rdb.TypeSetIntset, "s:lp": rdb.TypeSetListpack, "s:ht": rdb.TypeSet, "s:long": rdb.TypeSet}
	for key, typ := range wantType {
		p, err := strconv.Unquote(c.do("DUMP " + key))
		if err != nil || p[0] != typ {
			t.Fatalf("DUMP %s: type %d, %v", key, p[0], err)
		}
		if r := c.doArgs("RESTORE", "copy:"+key, "0", p); r != "OK" {
			t.Fatalf("RESTORE %s: %s", key, r)
		}
		if got, want := wd.describeKey("copy:"+key), wd.describeKey(key); got != want {
			t.Errorf("%s: restored %.80s, want %.80s", key, got, want)
		}
		if r := c.doArgs("RESTORE", "copy:"+key, "0", p); r != "(error) BUSYKEY Target key name already exists." {
			t.Errorf("RESTORE again: %s", r)
		}
		if r := c.doArgs("RESTORE", "copy:"+key, "100000", p, "REPLACE"); r != "OK" || c.do("PTTL copy:"+key) != "(integer) 100000" {
			t.Errorf("RESTORE REPLACE with TTL: %s", r)
		}
	}
}

// A payload stored as elements takes the encoding the limits give, as Redis's RDB load.
func TestRestoreConverts(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	build := func(typ byte, elems ...string) string {
		n := len(elems)
		if typ == rdb.TypeHash {
			n /= 2
		}
		b := rdb.AppendDumpHead(nil, typ, uint64(n))
		for _, e := range elems {
			b = rdb.AppendElement(b, []byte(e), true)
		}
		return string(rdb.FinishDump(b))
	}
	cases := []struct {
		payload, want string
	}{
		{build(rdb.TypeHash, "a", "1"), "listpack a=1"},
		{build(rdb.TypeHash, "a", strings.Repeat("x", 65)), "hashtable a=" + strings.Repeat("x", 65)},
		{build(rdb.TypeSet, "5", "1"), "intset 1,5"},
		{build(rdb.TypeSet, "5", "x"), "listpack 5,x"},
	}
	for i, tc := range cases {
		key := fmt.Sprint("k", i)
		if r := c.doArgs("RESTORE", key, "0", tc.payload); r != "OK" {
			t.Fatalf("%d: %s", i, r)
		}
		if got := wd.describeKey(key); got != tc.want {
			t.Errorf("%d: %s, want %s", i, got, tc.want)
		}
	}
}

// Bad data is refused with Redis's reply and leaves nothing behind: no key, the replaced key
// unchanged, no memory held.
func TestRestoreBadData(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	c.do("SET old v")
	base := wd.arenaUsed()
	elemsPayload := func(typ byte, n uint64, elems ...string) string {
		b := rdb.AppendDumpHead(nil, typ, n)
		for _, e := range elems {
			b = rdb.AppendElement(b, []byte(e), true)
		}
		return string(rdb.FinishDump(b))
	}
	bad := map[string]string{
		"dup field":       elemsPayload(rdb.TypeHash, 2, "a", "1", "a", "2"),
		"dup member":      elemsPayload(rdb.TypeSet, 3, "x", "y", "x"),
		"dup big set":     elemsPayload(rdb.TypeSet, 301, append(seq("m", 300, false), "m7")...),
		"dup big hash":    elemsPayload(rdb.TypeHash, 601, append(seq("f", 600, true), "f9", "x")...),
		"short":           elemsPayload(rdb.TypeSet, 3, "x", "y"),
		"empty":           elemsPayload(rdb.TypeSet, 0),
		"bad listpack":    string(rdb.EncodeDumpBlob(rdb.TypeHashListpack, []byte("\x07\x00\x00\x00\x01\x00\xff"))),
		"bad intset":      string(rdb.EncodeDumpBlob(rdb.TypeSetIntset, []byte("\x02\x00\x00\x00\x02\x00\x00\x00\x05\x00\x01\x00"))),
		"huge count hint": elemsPayload(rdb.TypeHash, 1<<50, "a", "b"),
	}
	for name, p := range bad {
		for _, key := range []string{"new", "old"} {
			if r := c.doArgs("RESTORE", key, "0", p, "REPLACE"); r != "(error) ERR Bad data format" {
				t.Errorf("%s: %s", name, r)
			}
		}
		if got := wd.describeKey("new"); got != "none" {
			t.Errorf("%s: new key %s", name, got)
		}
		if got := wd.describeKey("old"); got != "string v" {
			t.Errorf("%s: old key %s", name, got)
		}
		if used := wd.arenaUsed(); used != base {
			t.Errorf("%s: %d bytes left allocated", name, used-base)
		}
	}
}

// A payload whose absolute TTL has passed answers OK and leaves no key (the old one deleted).
func TestRestoreExpiredHashSet(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	wd.addCollection(t, object.TypeSet, "s", seq("m", 300, false)...)
	p, _ := strconv.Unquote(c.do("DUMP s"))
	base := wd.arenaUsed()
	c.do("SET old v")
	if r := c.doArgs("RESTORE", "old", "1000", p, "ABSTTL", "REPLACE"); r != "OK" {
		t.Fatal(r)
	}
	if got := wd.describeKey("old"); got != "none" {
		t.Errorf("old: %s", got)
	}
	if used := wd.arenaUsed(); used != base {
		t.Errorf("%d bytes left allocated", used-base)
	}
}

// DUMP then RESTORE of lists of both encodings (with plain nodes) gives the same elements, nodes
// and encoding; the payload is type 18.
func TestDumpRestoreList(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	big := strings.Repeat("p", 9000)
	wd.addCollection(t, object.TypeList, "l:lp", "a", "1", "", "-7")
	wd.addCollection(t, object.TypeList, "l:ql", seq("element-", 2000, false)...)
	wd.addCollection(t, object.TypeList, "l:plain", "a", big, "b")
	for _, key := range []string{"l:lp", "l:ql", "l:plain"} {
		p, err := strconv.Unquote(c.do("DUMP " + key))
		if err != nil || p[0] != rdb.TypeListQuicklist2 {
			t.Fatalf("DUMP %s: type %d, %v", key, p[0], err)
		}
		if r := c.doArgs("RESTORE", "copy:"+key, "0", p); r != "OK" {
			t.Fatalf("RESTORE %s: %s", key, r)
		}
		if got, want := wd.describeKey("copy:"+key), wd.describeKey(key); got != want {
			t.Errorf("%s: restored %.80s, want %.80s", key, got, want)
		}
		if r := c.doArgs("RESTORE", "copy:"+key, "100000", p, "REPLACE"); r != "OK" || c.do("PTTL copy:"+key) != "(integer) 100000" {
			t.Errorf("RESTORE REPLACE with TTL: %s", r)
		}
	}
	if got := wd.describeKey("copy:l:plain"); !strings.HasPrefix(got, "quicklist ") || !strings.Contains(got, "1 true") {
		t.Errorf("plain node lost: %.60s", got)
	}
}

// Lists in payloads as Redis writes or once wrote them take Redis 7.2's encoding; bad ones are
// refused with nothing left behind.
func TestRestoreListPayloads(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	lp := func(elems ...string) []byte {
		b := listpack.NewSlice(0)
		for _, e := range elems {
			b, _ = listpack.AppendSlice(b, []byte(e))
		}
		return b
	}
	nodes := func(parts ...[]byte) string {
		b := rdb.AppendDumpHead(nil, rdb.TypeListQuicklist2, uint64(len(parts)))
		for _, p := range parts {
			if len(p) > 0 && p[0] == 'P' {
				b = rdb.AppendListNode(b, p, true, true)
			} else {
				b = rdb.AppendListNode(b, p, false, true)
			}
		}
		return string(rdb.FinishDump(b))
	}
	linked := func(n uint64, elems ...string) string {
		b := rdb.AppendDumpHead(nil, rdb.TypeList, n)
		for _, e := range elems {
			b = rdb.AppendElement(b, []byte(e), true)
		}
		return string(rdb.FinishDump(b))
	}
	good := []struct{ payload, want string }{
		{nodes(lp("a", "b")), "listpack a,b 2 false"},
		{nodes(lp("a"), lp("b")), "quicklist a,b 1 false|1 false"},
		{nodes(lp(), lp("a"), lp()), "listpack a 1 false"},
		{linked(2, "x", "1"), "listpack x,1 2 false"},
	}
	for i, tc := range good {
		key := fmt.Sprint("k", i)
		if r := c.doArgs("RESTORE", key, "0", tc.payload); r != "OK" {
			t.Fatalf("%d: %s", i, r)
		}
		if got := wd.describeKey(key); got != tc.want {
			t.Errorf("%d: %s, want %s", i, got, tc.want)
		}
	}
	c.do("SET old v")
	base := wd.arenaUsed()
	badLP := lp("a", "b")
	badLP[4] = 3 // the header's count
	bad := map[string]string{
		"no element":   nodes(lp(), lp()),
		"zero nodes":   nodes(),
		"bad listpack": nodes(lp("a"), badLP),
		"empty plain":  string(rdb.FinishDump(rdb.AppendListNode(rdb.AppendDumpHead(nil, rdb.TypeListQuicklist2, 1), nil, true, true))),
		"short linked": linked(3, "a", "b"),
		"missing node": string(rdb.FinishDump(rdb.AppendListNode(rdb.AppendDumpHead(nil, rdb.TypeListQuicklist2, 2), lp(seq("x", 100, false)...), false, true))),
	}
	for name, p := range bad {
		for _, key := range []string{"new", "old"} {
			if r := c.doArgs("RESTORE", key, "0", p, "REPLACE"); r != "(error) ERR Bad data format" {
				t.Errorf("%s: %s", name, r)
			}
		}
		if got := wd.describeKey("new"); got != "none" {
			t.Errorf("%s: new key %s", name, got)
		}
		if got := wd.describeKey("old"); got != "string v" {
			t.Errorf("%s: old key %s", name, got)
		}
		if used := wd.arenaUsed(); used != base {
			t.Errorf("%s: %d bytes left allocated", name, used-base)
		}
	}
}
