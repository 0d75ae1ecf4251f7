package acl

import (
	"testing"

	"github.com/kvserver/kvserver/glob"
)

// IDs of testCatalog.
const (
	idGet, idSet, idConfig, idConfigGet, idConfigSet, idSelect, idAuth, idPublish, idPsubscribe, idMset, idCopy, idClient, idClientList = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
)

func argv(s ...string) [][]byte {
	b := make([][]byte, len(s))
	for i, x := range s {
		b[i] = []byte(x)
	}
	return b
}

func rd(k string, pos int) KeyAccess { return KeyAccess{Key: []byte(k), Read: true, Pos: pos} }
func wr(k string, pos int) KeyAccess { return KeyAccess{Key: []byte(k), Write: true, Pos: pos} }

func TestCheckCommands(t *testing.T) {
	r := NewRegistry(testCatalog())
	u := mustSet(t, r, "u", "on", "allkeys", "+@read", "-get", "+config|get", "+select|0", "+select|9", "+auth")
	tests := []struct {
		id   int
		args [][]byte
		want Denial
	}{
		{idGet, argv("get", "k"), Denial{Reason: Cmd, Object: "get"}},
		{idSet, argv("set", "k", "v"), Denial{Reason: Cmd, Object: "set"}},
		{idConfigGet, argv("config", "get", "x"), Denial{}},
		{idConfigSet, argv("config", "set", "x", "y"), Denial{Reason: Cmd, Object: "config|set"}},
		{idSelect, argv("select", "0"), Denial{}},
		{idSelect, argv("SELECT", "9"), Denial{}},
		{idSelect, argv("select", "1"), Denial{Reason: Cmd, Object: "select"}},
		{idSelect, argv("select"), Denial{Reason: Cmd, Object: "select"}},
		{idAuth, argv("auth", "p"), Denial{}},
	}
	for _, tc := range tests {
		if got := u.Check(tc.id, tc.args, nil, nil, false); got != tc.want {
			t.Errorf("%q: got %+v want %+v", tc.args, got, tc.want)
		}
	}
	// NoAuth commands need no command permission
	u = mustSet(t, r, "n", "on", "nocommands")
	if d := u.Check(idAuth, argv("auth", "x"), nil, nil, false); d.Reason != None {
		t.Errorf("AUTH denied: %+v", d)
	}
	// a container rule covers its subcommands; a later -sub removes one
	u = mustSet(t, r, "c", "+config", "-config|set")
	if u.Check(idConfigGet, nil, nil, nil, false).Reason != None || u.Check(idConfigSet, nil, nil, nil, false).Reason != Cmd {
		t.Error("+config -config|set")
	}
	// first args are reset by a later rule for the command
	u = mustSet(t, r, "f", "+select|0", "-select")
	if u.Check(idSelect, argv("select", "0"), nil, nil, false).Reason != Cmd {
		t.Error("-select kept +select|0")
	}
	// +@all allows commands of the whole catalog; -@all none
	u = mustSet(t, r, "a", "+@all", "resetkeys")
	for id := 0; id < testCatalog().Len(); id++ {
		if u.Check(id, nil, nil, nil, false).Reason != None {
			t.Errorf("+@all denies %d", id)
		}
	}
	// categories: a container in a category brings its subcommands; subcommands count alone
	u = mustSet(t, r, "cat", "+@admin")
	if u.Check(idConfigGet, nil, nil, nil, false).Reason != None || u.Check(idConfig, nil, nil, nil, false).Reason != Cmd ||
		u.Check(idClientList, nil, nil, nil, false).Reason != None || u.Check(idGet, nil, nil, nil, false).Reason != Cmd {
		t.Error("+@admin")
	}
	u = mustSet(t, r, "cat2", "+@slow", "-@dangerous")
	if u.Check(idConfig, nil, nil, nil, false).Reason != None || u.Check(idConfigGet, nil, nil, nil, false).Reason != Cmd ||
		u.Check(idSet, nil, nil, nil, false).Reason != None {
		t.Error("+@slow -@dangerous")
	}
}

func TestCheckKeys(t *testing.T) {
	r := NewRegistry(testCatalog())
	u := mustSet(t, r, "u", "on", "+@all", "~app:*", "%R~ro:*", "%W~wo:*", "%RW~rw:*")
	tests := []struct {
		keys []KeyAccess
		want Denial
	}{
		{[]KeyAccess{rd("app:1", 1)}, Denial{}},
		{[]KeyAccess{wr("app:1", 1)}, Denial{}},
		{[]KeyAccess{{Key: []byte("app:1"), Read: true, Write: true, Pos: 1}}, Denial{}},
		{[]KeyAccess{rd("ro:1", 1)}, Denial{}},
		{[]KeyAccess{wr("ro:1", 1)}, Denial{Reason: Key, Object: "ro:1", Pos: 1}},
		{[]KeyAccess{wr("wo:1", 1)}, Denial{}},
		{[]KeyAccess{rd("wo:1", 1)}, Denial{Reason: Key, Object: "wo:1", Pos: 1}},
		{[]KeyAccess{{Key: []byte("rw:1"), Read: true, Write: true, Pos: 1}}, Denial{}},
		{[]KeyAccess{{Key: []byte("ro:1"), Read: true, Write: true, Pos: 1}}, Denial{Reason: Key, Object: "ro:1", Pos: 1}},
		// a key with no intent (EXISTS-like flags outside R/W) needs any pattern
		{[]KeyAccess{{Key: []byte("wo:1"), Pos: 1}}, Denial{}},
		{[]KeyAccess{{Key: []byte("other"), Pos: 1}}, Denial{Reason: Key, Object: "other", Pos: 1}},
		// the first refused key is reported
		{[]KeyAccess{wr("app:1", 1), wr("x", 3), wr("y", 5)}, Denial{Reason: Key, Object: "x", Pos: 3}},
		{[]KeyAccess{rd("APP:1", 1)}, Denial{Reason: Key, Object: "APP:1", Pos: 1}}, // case-sensitive
	}
	for _, tc := range tests {
		if got := u.Check(idMset, nil, tc.keys, nil, false); got != tc.want {
			t.Errorf("%v: got %+v want %+v", tc.keys, got, tc.want)
		}
	}
	if !u.CheckKey(rd("ro:x", 0)) || u.CheckKey(wr("ro:x", 0)) {
		t.Error("CheckKey")
	}
	if u.HasUnrestrictedKeyAccess(idGet, nil, nil, true, false) {
		t.Error("unrestricted without ~*")
	}
	u = mustSet(t, r, "v", "+@all", "%R~*")
	if !u.HasUnrestrictedKeyAccess(idGet, nil, nil, true, false) || u.HasUnrestrictedKeyAccess(idGet, nil, nil, true, true) {
		t.Error("unrestricted with %R~*")
	}
}

func TestCheckChannels(t *testing.T) {
	r := NewRegistry(testCatalog())
	u := mustSet(t, r, "u", "on", "+@all", "&news.*", "&lit[ab]")
	if d := u.Check(idPublish, nil, nil, argv("news.x"), false); d.Reason != None {
		t.Error(d)
	}
	if d := u.Check(idPublish, nil, nil, argv("sport"), false); d != (Denial{Reason: Channel, Object: "sport", Pos: 1}) {
		t.Error(d)
	}
	// a PSUBSCRIBE pattern must equal an allowed pattern
	if d := u.Check(idPsubscribe, nil, nil, argv("news.*"), true); d.Reason != None {
		t.Error(d)
	}
	if d := u.Check(idPsubscribe, nil, nil, argv("news.x", "news.*"), true); d.Reason != Channel || d.Object != "news.x" {
		t.Error(d)
	}
	if d := u.Check(idPsubscribe, nil, nil, argv("news.*", "lita"), true); d.Reason != Channel || d.Object != "lita" || d.Pos != 2 {
		t.Error(d)
	}
	if !u.CheckChannel([]byte("lita"), false) || u.CheckChannel([]byte("lita"), true) || !u.CheckChannel([]byte("lit[ab]"), true) {
		t.Error("CheckChannel")
	}
	u = mustSet(t, r, "all", "+@all", "allchannels")
	if d := u.Check(idPsubscribe, nil, nil, argv("*"), true); d.Reason != None {
		t.Error(d)
	}
}

// TestCheckSelectors: any selector allowing the command allows it; else the denial is the
// command when no selector allows the command, otherwise the key or channel at the highest
// position among the selectors' refusals (ACLCheckAllUserCommandPerm).
func TestCheckSelectors(t *testing.T) {
	r := NewRegistry(testCatalog())
	u := mustSet(t, r, "u", "on", "+get", "~a*", "(+set ~b*)", "(%R~c* +copy)", "(%W~d* +copy)")
	tests := []struct {
		id   int
		keys []KeyAccess
		want Denial
	}{
		{idGet, []KeyAccess{rd("a1", 1)}, Denial{}},
		{idGet, []KeyAccess{rd("b1", 1)}, Denial{Reason: Key, Object: "b1", Pos: 1}},
		{idSet, []KeyAccess{wr("b1", 1)}, Denial{}},
		{idSet, []KeyAccess{wr("a1", 1)}, Denial{Reason: Key, Object: "a1", Pos: 1}},
		{idMset, []KeyAccess{wr("a1", 1)}, Denial{Reason: Cmd, Object: "mset"}},
		// COPY src dst: read c*, write d*: no one selector has both
		{idCopy, []KeyAccess{rd("c1", 1), wr("d1", 2)}, Denial{Reason: Key, Object: "d1", Pos: 2}},
		{idCopy, []KeyAccess{rd("c1", 1), wr("c2", 2)}, Denial{Reason: Key, Object: "c2", Pos: 2}},
	}
	for _, tc := range tests {
		if got := u.Check(tc.id, nil, tc.keys, nil, false); got != tc.want {
			t.Errorf("%d %v: got %+v want %+v", tc.id, tc.keys, got, tc.want)
		}
	}
	u = mustSet(t, r, "u", "(~c* %W~d* +copy)")
	if got := u.Check(idCopy, nil, []KeyAccess{rd("c1", 1), wr("d1", 2)}, nil, false); got.Reason != None {
		t.Error(got)
	}
	// channel beats key in relevance
	u = mustSet(t, r, "w", "+@all", "allkeys", "resetchannels", "(+@all ~x resetchannels &c)")
	if got := u.Check(idPublish, nil, nil, argv("d"), false); got != (Denial{Reason: Channel, Object: "d", Pos: 1}) {
		t.Error(got)
	}
}

func TestDenialMessage(t *testing.T) {
	tests := []struct {
		d       Denial
		verbose bool
		want    string
	}{
		{Denial{Reason: Cmd, Object: "get"}, false, "User u has no permissions to run the 'get' command"},
		{Denial{Reason: Key, Object: "k"}, false, "No permissions to access a key"},
		{Denial{Reason: Key, Object: "k"}, true, "User u has no permissions to access the 'k' key"},
		{Denial{Reason: Channel, Object: "c"}, false, "No permissions to access a channel"},
		{Denial{Reason: Channel, Object: "c"}, true, "User u has no permissions to access the 'c' channel"},
	}
	for _, tc := range tests {
		if got := tc.d.Message("u", tc.verbose); got != tc.want {
			t.Errorf("%+v: %q", tc.d, got)
		}
	}
}

// A prefix-only pattern (`app:*`) is matched by comparing its literal: the same answers as the
// glob for every key, the empty key and the literal itself included; patterns with other
// wildcards or escapes are not prefix-only.
func TestKeyPatternPrefixOnly(t *testing.T) {
	keys := []string{"", "a", "ap", "app", "app:", "app:1", "app:*", "apple", "xapp:1", "APP:1", "app:\x00"}
	for _, pat := range []string{"app:*", "a*", "*", "app:", "app:**", "a?p:*", "[a]pp:*", `app\*`, `app\:*`, "*app:*", ""} {
		p := newKeyPattern(pat, permAll)
		want := pat == "app:*" || pat == "a*" || pat == "*"
		if p.prefixOnly != want {
			t.Errorf("%q: prefixOnly %v, want %v", pat, p.prefixOnly, want)
		}
		for _, k := range keys {
			if got, byGlob := p.matches([]byte(k)), glob.MatchString(pat, k, false); got != byGlob {
				t.Errorf("pattern %q, key %q: %v, glob says %v", pat, k, got, byGlob)
			}
		}
	}
}

// AllowsOneKey says yes exactly where Check allows, and never denies on its own.
func TestAllowsOneKey(t *testing.T) {
	r := NewRegistry(testCatalog())
	for name, rules := range map[string][]string{
		"app":   {"on", "nopass", "~app:*", "+@read", "+@write"},
		"ronly": {"on", "nopass", "%R~app:*", "+@all"},
		"sel":   {"on", "nopass", "~a:*", "+get", "(~b:* +set)"},
		"first": {"on", "nopass", "allkeys", "-@all", "+select|0"},
	} {
		if err := r.SetUser(name, argv(rules...)); err != nil {
			t.Fatal(name, err)
		}
	}
	for _, name := range []string{"default", "app", "ronly", "sel", "first"} {
		u := r.User(name)
		for _, c := range []struct {
			id          int
			key         string
			read, write bool
		}{{idGet, "app:1", true, false}, {idGet, "other", true, false}, {idSet, "app:1", false, true},
			{idSet, "b:1", false, true}, {idGet, "b:1", true, false}, {idGet, "a:1", true, false}} {
			args := argv("cmd", c.key)
			check := u.Check(c.id, args, []KeyAccess{{Key: []byte(c.key), Read: c.read, Write: c.write, Pos: 1}}, nil, false)
			if quick := u.AllowsOneKey(c.id, []byte(c.key), c.read, c.write); quick != (check.Reason == None) {
				t.Errorf("%s, command %d, key %s: AllowsOneKey %v, Check %v", name, c.id, c.key, quick, check)
			}
		}
	}
}
