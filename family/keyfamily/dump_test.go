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
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/rdb"
	"github.com/kvserver/kvserver/setval"
)

// addCollection stores a hash (pairs) or set (members) as HSET and SADD would build it.
func (wd *world) addCollection(t *testing.T, typ object.Type, key string, elems ...string) {
	t.Helper()
	sh := wd.ks.Shard(wd.ks.ShardFor([]byte(key)))
	sh.Lock()
	defer sh.Unlock()
	a := sh.Arena()
	var h alloc.Handle
	var err error
	if typ == object.TypeHash {
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
