package acl

import "testing"

func TestChannelsNarrowedFrom(t *testing.T) {
	tests := []struct {
		old, new []string
		want     bool
	}{
		{[]string{"&a", "&b"}, []string{"&b", "&a", "&c"}, false},
		{[]string{"&a", "&b"}, []string{"&a"}, true},
		{[]string{"&a"}, []string{"(&a)"}, false},
		{[]string{"&*"}, []string{"&a"}, true},
		{[]string{"&*"}, []string{"(&*)"}, false},
		{[]string{"&a*"}, []string{"&a"}, true}, // compared as patterns, not by matching
		{[]string{"(&x)"}, []string{"&y"}, true},
		{nil, nil, false},
	}
	for _, tc := range tests {
		r := NewRegistry(testCatalog())
		old := mustSet(t, r, "o", tc.old...)
		nu := mustSet(t, r, "n", tc.new...)
		if got := nu.ChannelsNarrowedFrom(old); got != tc.want {
			t.Errorf("%q → %q: %v", tc.old, tc.new, got)
		}
	}
}
