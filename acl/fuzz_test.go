package acl

import (
	"slices"
	"strings"
	"testing"
)

// FuzzSetUser feeds rule lists (words separated by spaces) to SETUSER: it must not panic, a
// refused list must change nothing, and an accepted user's description must rebuild a user
// with the same description and the same command bitmaps and first args (the check Redis's
// ACLDescribeSelectorCommandRules makes before trusting a description).
func FuzzSetUser(f *testing.F) {
	for _, s := range []string{
		"on >p ~app:* +@read -get +config|get +select|0",
		"(~x* +set) (&c +get) clearselectors",
		"%R~r:* %W~w:* %RW~rw allkeys resetkeys &a allchannels resetchannels",
		"+@all -@dangerous +config|get nocommands allcommands -client|list",
		"reset nopass resetpass #" + hashP + " !" + hashP + " <p skip-sanitize-payload",
		"+config|get|x +get| %X~a ~* ~a ( (~a",
	} {
		f.Add(s)
	}
	cat := testCatalog()
	f.Fuzz(func(t *testing.T, s string) {
		r := NewRegistry(cat)
		rules := strings.Split(s, " ")
		if err := setUser(t, r, "u", rules...); err != nil {
			if r.User("u") != nil {
				t.Fatal("refused rules created the user")
			}
			return
		}
		u := r.User("u")
		desc := u.Describe()
		if err := setUser(t, r, "v", strings.Split(desc, " ")...); err != nil {
			if selectorQuoting(u) {
				return // a selector pattern with quotes or parentheses: not described losslessly, as in Redis
			}
			t.Fatalf("description %q refused: %v", desc, err)
		}
		v := r.User("v")
		if v.Describe() != desc {
			if selectorQuoting(u) {
				return
			}
			t.Fatalf("round trip %q → %q", desc, v.Describe())
		}
		if len(u.selectors) != len(v.selectors) {
			t.Fatal("selector count")
		}
		for i := range u.selectors {
			a, b := u.selectors[i], v.selectors[i]
			if !slices.Equal(a.cmds, b.cmds) || a.allCommands != b.allCommands || len(a.firstArgs) != len(b.firstArgs) {
				t.Fatalf("selector %d bitmaps differ after %q", i, desc)
			}
			for id, args := range a.firstArgs {
				if !slices.Equal(args, b.firstArgs[id]) {
					t.Fatalf("first args of %d differ", id)
				}
			}
		}
	})
}

// selectorQuoting reports a "(…)" selector holding a pattern that sdssplitargs reads back
// differently (quotes, backslashes, parentheses).
func selectorQuoting(u *User) bool {
	for _, s := range u.selectors[1:] {
		for _, k := range s.keys {
			if strings.ContainsAny(k.pat, "\"'\\()") {
				return true
			}
		}
		for _, c := range s.channels {
			if strings.ContainsAny(c, "\"'\\()") {
				return true
			}
		}
		for id, args := range s.firstArgs {
			_ = id
			for _, a := range args {
				if strings.ContainsAny(a, "\"'\\()") {
					return true
				}
			}
		}
	}
	return false
}

// FuzzLoadFile: any aclfile either loads, and then ACL SAVE's text loads back to the same
// users, or is refused with the users untouched.
func FuzzLoadFile(f *testing.F) {
	f.Add("user alice on >p ~app:* +@read (~x* +set)\nuser default on nopass ~* &* +@all\n")
	f.Add("user a on\nfoo\nuser a off\n")
	f.Add("user b (~a +get\n\n user c %R~x &y -@all +select|1\r\n")
	cat := testCatalog()
	f.Fuzz(func(t *testing.T, text string) {
		r := NewRegistry(cat)
		before := r.FormatFile()
		if err := r.LoadFile([]byte(text)); err != nil {
			if string(r.FormatFile()) != string(before) {
				t.Fatal("refused file changed the users")
			}
			return
		}
		for _, n := range r.Names() {
			if selectorQuoting(r.User(n)) {
				return // not described losslessly, as in Redis
			}
		}
		saved := r.FormatFile()
		r2 := NewRegistry(cat)
		if err := r2.LoadFile(saved); err != nil {
			t.Fatalf("saved file refused: %v\n%s", err, saved)
		}
		if string(r2.FormatFile()) != string(saved) {
			t.Fatalf("round trip:\n%s\n%s", saved, r2.FormatFile())
		}
	})
}
