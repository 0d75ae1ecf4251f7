package acl

import (
	"strings"
	"testing"
)

func TestLoadFile(t *testing.T) {
	r := NewRegistry(testCatalog())
	text := "user alice on >p ~app:* +@read (~x* +set)\n\n  user bob off nopass &ch resetchannels\t\r\nuser default on nopass ~* &* +@all -set\n"
	if err := r.LoadFileNamed("users.acl", []byte(text)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"user alice on sanitize-payload #" + hashP + " ~app:* resetchannels -@all +@read (~x* resetchannels -@all +set)",
		"user bob off nopass sanitize-payload resetchannels -@all",
		"user default on nopass sanitize-payload ~* &* +@all -set",
	}
	if got := r.List(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// ACL SAVE's text loads back to the same users
	saved := r.FormatFile()
	r2 := NewRegistry(testCatalog())
	if err := r2.LoadFile(saved); err != nil {
		t.Fatal(err)
	}
	if string(r2.FormatFile()) != string(saved) {
		t.Fatalf("round trip:\n%s\n%s", saved, r2.FormatFile())
	}
	// a file without default gets the standard one; users not in the file go
	if err := r.LoadFile([]byte("user carol on\n")); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.Names(), ","); got != "carol,default" {
		t.Fatal(got)
	}
	if r.User("default").Describe() != "on nopass sanitize-payload ~* &* +@all" {
		t.Fatal(r.User("default").Describe())
	}
}

// TestLoadFileErrors: Redis's texts with the file and line, and nothing changes.
func TestLoadFileErrors(t *testing.T) {
	const tail = "WARNING: ACL errors detected, no change to the previously active ACL rules was performed"
	tests := []struct{ text, want string }{
		{"user a on\nfoo bar\n", "f.acl:2 should start with user keyword followed by the username. " + tail},
		{"user\n", "f.acl:1 should start with user keyword followed by the username. " + tail},
		{"USER a on\n", "f.acl:1 should start with user keyword followed by the username. " + tail},
		{"user a on\nuser a off\n", "WARNING: Duplicate user 'a' found on line 2. " + tail},
		{"user a on +nosuch -nosuch2\n", "f.acl:1: Error in applying operation '+nosuch': Unknown command or category name in ACL. f.acl:1: Error in applying operation '-nosuch2': Unknown command or category name in ACL. " + tail},
		{"user a bad worse\nuser b ~* ~x\n", "f.acl:1: Syntax error. f.acl:2: Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns. " + tail},
		{"user a (~x +get\n", "f.acl:1: Unmatched parenthesis in selector definition." + tail},
	}
	for _, tc := range tests {
		r := NewRegistry(testCatalog())
		mustSet(t, r, "keep", "on")
		gen := r.Generation()
		err := r.LoadFileNamed("f.acl", []byte(tc.text))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.text, err, tc.want)
		}
		if r.User("keep") == nil || r.Generation() != gen {
			t.Errorf("%q: failed load changed the users", tc.text)
		}
	}
}
