package acl

import (
	"strings"
	"testing"
)

func setUser(t *testing.T, r *Registry, name string, rules ...string) error {
	t.Helper()
	b := make([][]byte, len(rules))
	for i, s := range rules {
		b[i] = []byte(s)
	}
	return r.SetUser(name, b)
}

func mustSet(t *testing.T, r *Registry, name string, rules ...string) *User {
	t.Helper()
	if err := setUser(t, r, name, rules...); err != nil {
		t.Fatalf("SETUSER %s %q: %v", name, rules, err)
	}
	return r.User(name)
}

const hashP = "148de9c5a7a44d19e56cd9ae1a554bf67847afb0c58f6e12fa29ac7ddfca9940" // sha256("p")

// TestDescribe: rules → ACL LIST line (7.2's ACLDescribeUser), then the line given back to a
// fresh user describes the same user.
func TestDescribe(t *testing.T) {
	tests := []struct {
		rules []string
		want  string
	}{
		{nil, "off sanitize-payload resetchannels -@all"},
		{[]string{"on", ">p"}, "on sanitize-payload #" + hashP + " resetchannels -@all"},
		{[]string{">p", ">p", "#" + hashP}, "off sanitize-payload #" + hashP + " resetchannels -@all"},
		{[]string{">p", "nopass"}, "off nopass sanitize-payload resetchannels -@all"},
		{[]string{"nopass", ">p"}, "off sanitize-payload #" + hashP + " resetchannels -@all"},
		{[]string{">p", "<p"}, "off sanitize-payload resetchannels -@all"},
		{[]string{">p", "!" + hashP}, "off sanitize-payload resetchannels -@all"},
		{[]string{"nopass", "resetpass"}, "off sanitize-payload resetchannels -@all"},
		{[]string{"skip-sanitize-payload"}, "off skip-sanitize-payload resetchannels -@all"},
		{[]string{"ON", "OFF", "On"}, "on sanitize-payload resetchannels -@all"},
		{[]string{"~app:*", "%R~r:*", "%W~w:*", "%RW~rw:*", "%wr~rw2"}, "off sanitize-payload ~app:* %R~r:* %W~w:* ~rw:* ~rw2 resetchannels -@all"},
		{[]string{"%R~k", "%W~k"}, "off sanitize-payload ~k resetchannels -@all"},
		{[]string{"~a", "~a", "%R~a"}, "off sanitize-payload ~a resetchannels -@all"},
		{[]string{"%R"}, "off sanitize-payload %R~ resetchannels -@all"},
		{[]string{"~a", "allkeys"}, "off sanitize-payload ~* resetchannels -@all"},
		{[]string{"~*", "resetkeys", "~b"}, "off sanitize-payload ~b resetchannels -@all"},
		{[]string{"&ch*", "&x", "&ch*"}, "off sanitize-payload resetchannels &ch* &x -@all"},
		{[]string{"&a", "allchannels"}, "off sanitize-payload &* -@all"},
		{[]string{"&*", "resetchannels", "&b"}, "off sanitize-payload resetchannels &b -@all"},
		{[]string{"+@all"}, "off sanitize-payload resetchannels +@all"},
		{[]string{"allcommands", "-get"}, "off sanitize-payload resetchannels +@all -get"},
		{[]string{"+@all", "nocommands"}, "off sanitize-payload resetchannels -@all"},
		{[]string{"+@read", "-get", "+config|get", "+select|0"}, "off sanitize-payload resetchannels -@all +@read -get +config|get +select|0"},
		{[]string{"+GET", "-@READ", "+SELECT|AbC"}, "off sanitize-payload resetchannels -@all +get -@read +select|abc"},
		// a later rule for a command drops earlier ones for it and its subcommands/first args
		{[]string{"+config|get", "+config|set", "-config"}, "off sanitize-payload resetchannels -@all -config"},
		{[]string{"+select|0", "+select|1", "+get", "+select"}, "off sanitize-payload resetchannels -@all +get +select"},
		{[]string{"+get", "-set", "+get"}, "off sanitize-payload resetchannels -@all -set +get"},
		{[]string{"+@read", "+@write", "-@read"}, "off sanitize-payload resetchannels -@all +@write -@read"},
		{[]string{"+@all", "-@all", "+get"}, "off sanitize-payload resetchannels -@all +get"},
		{[]string{"(~x* +set)"}, "off sanitize-payload resetchannels -@all (~x* resetchannels -@all +set)"},
		{[]string{"(~x*", "+set)", "(&c", "+get)"}, "off sanitize-payload resetchannels -@all (~x* resetchannels -@all +set) (resetchannels &c -@all +get)"},
		{[]string{"()", "( )"}, "off sanitize-payload resetchannels -@all (resetchannels -@all) (resetchannels -@all)"},
		{[]string{"(+get)", "clearselectors", "+set"}, "off sanitize-payload resetchannels -@all +set"},
		{[]string{"on", ">p", "~a", "&c", "+get", "(+set)", "skip-sanitize-payload", "reset"}, "off sanitize-payload resetchannels -@all"},
		{[]string{""}, "off sanitize-payload resetchannels -@all"},
	}
	for _, tc := range tests {
		r := NewRegistry(testCatalog())
		u := mustSet(t, r, "u", tc.rules...)
		if got := u.Describe(); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.rules, got, tc.want)
			continue
		}
		// round trip: the description rebuilds the same user
		v := mustSet(t, r, "v", strings.Split(u.Describe(), " ")...)
		if v.Describe() != u.Describe() {
			t.Errorf("%q: round trip %q → %q", tc.rules, u.Describe(), v.Describe())
		}
	}
}

func TestDefaultUser(t *testing.T) {
	r := NewRegistry(testCatalog())
	d := r.User("default")
	if d == nil || d.Describe() != "on nopass sanitize-payload ~* &* +@all" || !d.AllowsAll() || !d.Enabled() {
		t.Fatalf("default: %+v", d)
	}
	if !d.CheckPassword([]byte("anything")) {
		t.Fatal("nopass default refused a password")
	}
	// any restriction of the root selector turns the one-flag path off
	for _, rules := range [][]string{{"-get"}, {"resetkeys"}, {"resetchannels"}, {"resetkeys", "~*x"},
		{"resetkeys", "%RW~*"}, {"-@read"}, {"-config|get"}, {"+@all", "-get", "+get"}} {
		r := NewRegistry(testCatalog())
		u := mustSet(t, r, "default", rules...)
		if u.AllowsAll() {
			t.Errorf("default %q: still AllowsAll", rules)
		}
	}
	if u := mustSet(t, NewRegistry(testCatalog()), "default", "resetkeys", "~*"); !u.AllowsAll() {
		t.Error("resetkeys ~*: not AllowsAll")
	}
	// on/off and passwords do not matter to it
	u := mustSet(t, r, "default", "off", ">p")
	if !u.AllowsAll() {
		t.Error("default off >p: lost AllowsAll")
	}
}

// TestSetUserErrors: the replies word for word (checked against redis-server 7.0.15, whose
// texts are 7.2's), and a failing SETUSER changes nothing.
func TestSetUserErrors(t *testing.T) {
	mod := func(op, msg string) string { return "ERR Error in ACL SETUSER modifier '" + op + "': " + msg }
	const syntax = "Syntax error"
	const unknown = "Unknown command or category name in ACL"
	tests := []struct {
		rules []string
		want  string
	}{
		{[]string{"foo"}, mod("foo", syntax)},
		{[]string{"+nosuch"}, mod("+nosuch", unknown)},
		{[]string{"-nosuch"}, mod("-nosuch", unknown)},
		{[]string{"+"}, mod("+", unknown)},
		{[]string{"-"}, mod("-", unknown)},
		{[]string{"+@"}, mod("+@", unknown)},
		{[]string{"+@nosuch"}, mod("+@nosuch", unknown)},
		{[]string{"-@nosuch"}, mod("-@nosuch", unknown)},
		{[]string{"+get|"}, mod("+get|", syntax)},
		{[]string{"+nosuch|x"}, mod("+nosuch|x", unknown)},
		{[]string{"+config|get|x"}, mod("+config|get|x", "Allowing first-arg of a subcommand is not supported")},
		{[]string{"+config|nosuch"}, mod("+config|nosuch", unknown)},
		{[]string{"-select|0"}, mod("-select|0", unknown)},
		{[]string{"%"}, mod("%", syntax)},
		{[]string{"%X~a"}, mod("%X~a", syntax)},
		{[]string{"%RR~k"}, mod("%RR~k", syntax)},
		{[]string{"%~k"}, mod("%~k", syntax)},
		{[]string{"~a b"}, mod("~a b", syntax)},
		{[]string{"&a\tb"}, mod("&a\tb", syntax)},
		{[]string{"~*", "~a"}, mod("~a", "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns")},
		{[]string{"allkeys", "%R~a"}, mod("%R~a", "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns")},
		{[]string{"&*", "&a"}, mod("&a", "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels")},
		{[]string{"<nope"}, mod("<nope", "The password you are trying to remove from the user does not exist")},
		{[]string{"!" + hashP}, mod("!"+hashP, "The password you are trying to remove from the user does not exist")},
		{[]string{"!0000"}, mod("!0000", "The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters")},
		{[]string{"#" + strings.ToUpper(hashP)}, mod("#"+strings.ToUpper(hashP), "The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters")},
		{[]string{"(~a +nosuch)"}, mod("(~a +nosuch)", unknown)},
		{[]string{"(~a", "+nosuch)"}, mod("(~a +nosuch)", unknown)},
		{[]string{"(on)"}, mod("(on)", syntax)},
		{[]string{"(~a"}, "ERR Unmatched parenthesis in acl selector starting at '(~a'."},
		{[]string{"+get", "(", "+set"}, "ERR Unmatched parenthesis in acl selector starting at '('."},
		{[]string{"on", "+get", "bad"}, mod("bad", syntax)},
	}
	for _, tc := range tests {
		r := NewRegistry(testCatalog())
		mustSet(t, r, "u", "on", "~k")
		before := r.User("u")
		gen := r.Generation()
		err := setUser(t, r, "u", tc.rules...)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.rules, err, tc.want)
		}
		if r.User("u") != before || r.Generation() != gen {
			t.Errorf("%q: a failed SETUSER changed the user", tc.rules)
		}
		// a failed SETUSER does not create the user either
		if setUser(t, r, "new", tc.rules...) == nil || r.User("new") != nil {
			t.Errorf("%q: a failed SETUSER created a user", tc.rules)
		}
	}
	r := NewRegistry(testCatalog())
	for _, name := range []string{"a b", "a\x00b", "a\nb"} {
		if err := setUser(t, r, name, "on"); err == nil || err.Error() != "ERR Usernames can't contain spaces or null characters" {
			t.Errorf("user %q: %v", name, err)
		}
	}
}

func TestPasswords(t *testing.T) {
	r := NewRegistry(testCatalog())
	u := mustSet(t, r, "u", ">p1", ">p2", "#"+HashPassword([]byte("p3")))
	for _, p := range []string{"p1", "p2", "p3"} {
		if !u.CheckPassword([]byte(p)) {
			t.Errorf("%s refused", p)
		}
	}
	for _, p := range []string{"", "p", "p12", "P1"} {
		if u.CheckPassword([]byte(p)) {
			t.Errorf("%q accepted", p)
		}
	}
	u = mustSet(t, r, "u", "<p1")
	if u.CheckPassword([]byte("p1")) || !u.CheckPassword([]byte("p2")) {
		t.Error("<p1 did not remove just p1")
	}
	u = mustSet(t, r, "u", "resetpass")
	if u.CheckPassword([]byte("p2")) || u.CheckPassword(nil) {
		t.Error("resetpass left a way in")
	}
	// binary passwords
	u = mustSet(t, r, "u", ">a\x00b")
	if !u.CheckPassword([]byte("a\x00b")) || u.CheckPassword([]byte("a")) {
		t.Error("binary password")
	}
	if HashPassword([]byte("p")) != hashP {
		t.Error("HashPassword is not SHA-256 hex")
	}
}

func TestGetUser(t *testing.T) {
	r := NewRegistry(testCatalog())
	u := mustSet(t, r, "u", "on", ">p", "~app:*", "%R~r:*", "&ch*", "+@read", "-get", "(~x* +set)", "(allkeys &* +@all)")
	in := u.GetUser()
	want := UserInfo{
		Flags:        []string{"on", "sanitize-payload"},
		Passwords:    []string{hashP},
		SelectorInfo: SelectorInfo{Commands: "-@all +@read -get", Keys: "~app:* %R~r:*", Channels: "&ch*"},
		Selectors: []SelectorInfo{
			{Commands: "-@all +set", Keys: "~x*", Channels: ""},
			{Commands: "+@all", Keys: "~*", Channels: "&*"},
		},
	}
	if !equalInfo(in, want) {
		t.Errorf("got  %+v\nwant %+v", in, want)
	}
	d := r.User("default").GetUser()
	want = UserInfo{Flags: []string{"on", "nopass", "sanitize-payload"}, Passwords: []string{},
		SelectorInfo: SelectorInfo{Commands: "+@all", Keys: "~*", Channels: "&*"}, Selectors: []SelectorInfo{}}
	if !equalInfo(d, want) || d.Passwords == nil || d.Selectors == nil {
		t.Errorf("default: %+v", d)
	}
}

func equalInfo(a, b UserInfo) bool {
	return strings.Join(a.Flags, ",") == strings.Join(b.Flags, ",") &&
		strings.Join(a.Passwords, ",") == strings.Join(b.Passwords, ",") &&
		a.SelectorInfo == b.SelectorInfo && len(a.Selectors) == len(b.Selectors) &&
		func() bool {
			for i := range a.Selectors {
				if a.Selectors[i] != b.Selectors[i] {
					return false
				}
			}
			return true
		}()
}

func TestPubsubDefault(t *testing.T) {
	r := NewRegistry(testCatalog())
	r.SetPubsubDefault(true)
	u := mustSet(t, r, "u", "(+get)")
	if got := u.Describe(); got != "off sanitize-payload &* -@all (&* -@all +get)" {
		t.Errorf("allchannels default: %q", got)
	}
	u = mustSet(t, r, "u", "resetchannels", "reset")
	if got := u.Describe(); got != "off sanitize-payload &* -@all" {
		t.Errorf("reset under allchannels: %q", got)
	}
}
