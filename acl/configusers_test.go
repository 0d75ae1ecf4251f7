package acl

import (
	"strings"
	"testing"
)

// TestConfigUsers: the texts checked against redis-server 7.0.15 started with such files.
func TestConfigUsers(t *testing.T) {
	tests := []struct {
		lines []string
		want  string
	}{
		{[]string{"user alice on foo"}, "Error in user declaration 'alice': Syntax error"},
		{[]string{"user alice foo"}, "Error in user declaration 'user': Syntax error"},
		{[]string{"user alice on +nosuch", "user alice off"}, "Error in user declaration 'alice': Duplicate user found. A user can only be defined once in config files"},
		{[]string{"user alice (~a"}, "Error in user declaration 'user': Unknown command or category name in ACL"},
	}
	for _, tc := range tests {
		c := NewConfigUsers(testCatalog())
		var err error
		for _, l := range tc.lines {
			if err = c.Add(strings.Split(l, " ")); err != nil {
				break
			}
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: got %v want %s", tc.lines, err, tc.want)
		}
	}

	r := NewRegistry(testCatalog())
	c := NewConfigUsers(testCatalog())
	for _, l := range []string{"user alice on >p ~a* +get (~b* +set)", "user default on >pw ~* +@all", "user bob"} {
		if err := c.Add(strings.Split(l, " ")); err != nil {
			t.Fatal(err)
		}
	}
	disabled, err := c.Load(r)
	if err != nil || strings.Join(disabled, ",") != "bob" {
		t.Fatal(disabled, err)
	}
	want := []string{
		"user alice on sanitize-payload #" + hashP + " ~a* resetchannels -@all +get (~b* resetchannels -@all +set)",
		"user bob off sanitize-payload resetchannels -@all",
		// default is reset first: its &* is gone
		"user default on sanitize-payload #" + HashPassword([]byte("pw")) + " ~* resetchannels +@all",
	}
	if got := r.List(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s", strings.Join(got, "\n"))
	}

	// unknown commands pass Add and fail Load
	c = NewConfigUsers(testCatalog())
	if err := c.Add([]string{"user", "x", "on", "+nosuch"}); err != nil {
		t.Fatal(err)
	}
	r = NewRegistry(testCatalog())
	if _, err := c.Load(r); err == nil || err.Error() != "Error loading ACL rule '+nosuch' for the user named 'x': Unknown command or category name in ACL" {
		t.Fatal(err)
	}
	if r.User("x") != nil {
		t.Fatal("failed load stored a user")
	}
}
