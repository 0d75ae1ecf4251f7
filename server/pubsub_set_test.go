package server

import (
	"fmt"
	"testing"
)

// TestSubSet: membership by kind and name, below and above the size that builds the index, and
// removal from anywhere.
func TestSubSet(t *testing.T) {
	var s subSet
	const n = 3 * subIndexAt
	for i := range n {
		name := fmt.Appendf(nil, "ch%d", i)
		for _, k := range []subKind{subChannel, subPattern} {
			if s.find(k, name) >= 0 {
				t.Fatalf("%d %s found before add", k, name)
			}
			s.add(k, name)
		}
		if s.find(subShard, name) >= 0 {
			t.Fatalf("shard %s found: kinds are apart", name)
		}
	}
	if s.index == nil || len(s.list) != 2*n || len(s.names(subPattern)) != n {
		t.Fatalf("list %d, index %v", len(s.list), s.index != nil)
	}
	for i := 0; i < n; i += 2 { // every other channel, from the front
		name := fmt.Appendf(nil, "ch%d", i)
		j := s.find(subChannel, name)
		if j < 0 {
			t.Fatalf("%s not found", name)
		}
		s.removeAt(j)
	}
	for i := range n {
		name := fmt.Appendf(nil, "ch%d", i)
		if got := s.find(subChannel, name) >= 0; got != (i%2 == 1) {
			t.Fatalf("channel %s present %v", name, got)
		}
		if j := s.find(subPattern, name); j < 0 || s.list[j].name != string(name) || s.list[j].kind != subPattern {
			t.Fatalf("pattern %s at %d", name, j)
		}
	}
	for len(s.list) > 0 {
		s.removeAt(len(s.list) / 2)
	}
	if s.list != nil || s.index != nil {
		t.Fatal("an empty set keeps memory")
	}
}
