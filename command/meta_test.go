package command

import (
	"bytes"
	"testing"
)

// TestMetaFileRoundTrip: the embedded file decodes and encodes back to the same bytes, so the
// generator's output and what the server reads are one format.
func TestMetaFileRoundTrip(t *testing.T) {
	all, err := DecodeMetaFile(redis72JSON)
	if err != nil {
		t.Fatal(err)
	}
	out, err := EncodeMetaFile(all)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, redis72JSON) {
		t.Fatal("redis72.json does not survive decoding and encoding: regenerate it")
	}
}

// TestLookupMeta: names in any case, subcommands by full name, Redis 7.2's additions, nil for
// what Redis 7.2 has not.
func TestLookupMeta(t *testing.T) {
	for _, name := range []string{"get", "GET", "Config|Get", "client|no-touch", "client|setinfo", "waitaof", "cluster|myshardid"} {
		if LookupMeta(name) == nil {
			t.Errorf("%s: no metadata", name)
		}
	}
	for _, name := range []string{"nosuch", "get|x", "config|", "|get", ""} {
		if LookupMeta(name) != nil {
			t.Errorf("%s: has metadata", name)
		}
	}
	// Redis 7.2 has 241 commands (7.0.15's 240 and WAITAOF), as COMMAND COUNT says.
	if n := len(AllMeta()); n != 241 {
		t.Errorf("%d commands, want 241", n)
	}
	get := LookupMeta("get")
	if get.Arity != 2 || !get.HasFlag("readonly") || !get.HasFlag("fast") || get.FirstKey != 1 ||
		len(get.KeySpecs) != 1 || get.KeySpecs[0].Flags != KeyRO|KeyAccess || get.Docs.Group != "string" {
		t.Errorf("GET: %+v", get)
	}
	if !get.InCategory("STRING") || get.InCategory("@string") || get.InCategory("write") {
		t.Errorf("GET's categories %v", get.ACLCategories)
	}
	// The 7.2 changes of the generator's hand-kept list are in.
	if z := LookupMeta("zrank"); z.Arity != -3 || z.Docs.Arguments[2].Token != "WITHSCORE" {
		t.Errorf("ZRANK: arity %d, arguments %+v", z.Arity, z.Docs.Arguments)
	}
	if LookupMeta("blpop").HasFlag("noscript") || LookupMeta("command|getkeys").Arity != -3 {
		t.Error("7.2's flags or arities missing")
	}
	if c := LookupMeta("config"); c.Sub("get") == nil || c.Sub("get").Name != "config|get" || c.Sub("nosuch") != nil {
		t.Error("CONFIG's subcommands")
	}
	// Every command has its docs.
	for _, m := range AllMeta() {
		for _, s := range append([]*Meta{m}, m.Subcommands...) {
			if s.Docs.Group == "" || s.Docs.Summary == "" || s.Docs.Since == "" {
				t.Errorf("%s: docs %+v", s.Name, s.Docs)
			}
		}
	}
}

// BenchmarkDecodeMetaFile is what the first LookupMeta costs.
func BenchmarkDecodeMetaFile(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeMetaFile(redis72JSON); err != nil {
			b.Fatal(err)
		}
	}
}
