package config

import (
	"sort"
	"strings"
	"testing"
)

// hostSpecific are the parameters whose value in redis72ConfigGetAll depends on how
// that server was started, or which kvserver defaults differently on purpose (bind).
var hostSpecific = map[string]bool{"dir": true, "protected-mode": true, "bind": true}

// TestTableMatchesRedis72 compares the table with a real CONFIG GET * of Redis 7.2: the
// same names (canonical and alias, hidden ones left out) and the same defaults.
func TestTableMatchesRedis72(t *testing.T) {
	want := map[string]string{}
	for _, kv := range redis72ConfigGetAll {
		name, value, _ := strings.Cut(kv, "=")
		want[name] = value
	}
	got := map[string]string{}
	for _, nv := range New().Get("*") {
		got[nv.Name] = nv.Value
	}
	for name, v := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("missing %s", name)
		case g != v && !hostSpecific[name]:
			t.Errorf("%s = %q, Redis 7.2 says %q", name, g, v)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok && !kvserverParams[name] {
			t.Errorf("%s is not in Redis 7.2's CONFIG GET *", name)
		}
	}
	if len(got) != len(want)+len(kvserverParams) {
		t.Errorf("CONFIG GET * returns %d names, Redis 7.2 %d", len(got), len(want))
	}
}

func TestTableShape(t *testing.T) {
	ps := Params()
	aliases, hidden, immutable := 0, 0, 0
	for _, p := range ps {
		if p.Name != strings.ToLower(p.Name) || p.Alias != strings.ToLower(p.Alias) {
			t.Errorf("%s: names are lower case", p.Name)
		}
		if p.Alias != "" {
			aliases++
		}
		if p.Has(Hidden) {
			hidden++
		}
		if p.Has(Immutable) {
			immutable++
		}
		switch p.Type {
		case Enum, EnumFlags:
			if len(p.Values) == 0 {
				t.Errorf("%s: enum without values", p.Name)
			}
		case Special:
			if p.special == nil {
				t.Errorf("%s: special without a parser", p.Name)
			}
		}
	}
	// Redis 7.2.4: 183 parameters (TLS included), 19 of them with an alias, 7 hidden:
	// 202 names, of which CONFIG GET * lists 195; and kvserver's own (log-format).
	if len(ps) != 183+len(kvserverParams) || aliases != 19 || hidden != 7 {
		t.Errorf("%d parameters, %d aliases, %d hidden", len(ps), aliases, hidden)
	}
	t.Logf("%d parameters, %d aliases, %d hidden, %d immutable", len(ps), aliases, hidden, immutable)
}

// TestDefaultsParse checks that every default is a value of its own type: set to its
// default, each parameter reads back unchanged.
func TestDefaultsParse(t *testing.T) {
	c := New()
	for _, p := range Params() {
		def, _ := c.Value(p.Name)
		args := []string{def}
		if p.Has(MultiArg) {
			args = splitSpaces(def)
		}
		if p.Name == "replicaof" && def == "" {
			args = []string{"no", "one"} // how "not a replica" is spelled
		}
		got, reason := p.setValue(def, args)
		if reason != "" {
			t.Errorf("%s: default %q refused: %s", p.Name, def, reason)
		} else if got != def {
			t.Errorf("%s: default %q reads back as %q", p.Name, def, got)
		}
	}
}

func TestLookup(t *testing.T) {
	for name, canonical := range map[string]string{
		"hash-max-ziplist-entries": "hash-max-listpack-entries",
		"slaveof":                  "replicaof",
		"list-max-ziplist-size":    "list-max-listpack-size",
		"lua-time-limit":           "busy-reply-threshold",
		"SLAVE-READ-ONLY":          "replica-read-only",
		"Port":                     "port",
	} {
		p, ok := Lookup(name)
		if !ok || p.Name != canonical {
			t.Errorf("Lookup(%q) = %q, %v; want %q", name, p.Name, ok, canonical)
		}
	}
	if _, ok := Lookup("list-max-ziplist-entries"); ok {
		t.Error("list-max-ziplist-entries is a deprecated directive, not a parameter")
	}
	names := make([]string, 0, len(reg.entries))
	for _, e := range reg.entries {
		names = append(names, e.name)
	}
	if !sort.StringsAreSorted(names) {
		t.Error("registry not sorted")
	}
}
