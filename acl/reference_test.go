package acl

import (
	"strings"
	"testing"

	"github.com/kvserver/kvserver/internal/redisref"
)

// TestReference compares with redis-server (7.0.15 here, whose texts and checks are 7.2's
// for what is compared): SETUSER's error replies, GETUSER's keys and channels, and ACL DRYRUN's
// verdicts against Check. Rules name commands only (no categories: the test catalog's are
// smaller than Redis's). Skipped without redis-server.
func TestReference(t *testing.T) {
	rc := redisref.Start(t)
	setCases := [][]string{
		{"on", ">p", "~app:*", "%R~r:*", "%W~w:*", "&ch*", "+get", "-set", "+config|get", "+select|0"},
		{"foo"}, {"+nosuch"}, {"-nosuch"}, {"+"}, {"-"}, {"+@"}, {"+@nosuch"}, {"+get|"},
		{"+config|get|x"}, {"+config|nosuch"}, {"-select|0"}, {"%"}, {"%X~a"}, {"%RR~k"}, {"%~k"},
		{"~a b"}, {"~*", "~a"}, {"&*", "&a"}, {"<nope"}, {"!0000"}, {"!" + hashP},
		{"#" + strings.ToUpper(hashP)}, {"(~a +nosuch)"}, {"(~a", "+nosuch)"}, {"(on)"}, {"(~a"},
		{"+get", "(", "+set"}, {"%R", "%RW~rw", "%WR~wr", "~a", "%R~a"}, {"(~x* &c* +set)", "(allkeys)"},
		{"(~a \"\")"},
	}
	for _, rules := range setCases {
		r := NewRegistry(testCatalog())
		ours := setUser(t, r, "u", rules...)
		args := append([]string{"ACL", "SETUSER", "u", "reset"}, rules...)
		theirs := rc.Do(args...)
		rc.Do("ACL", "DELUSER", "u")
		if ours == nil {
			if theirs != "OK" {
				t.Errorf("%q: we accept, Redis says %v", rules, theirs)
				continue
			}
			rc.Do(append([]string{"ACL", "SETUSER", "u", "reset"}, rules...)...)
			info := rc.Do("ACL", "GETUSER", "u").([]any)
			rc.Do("ACL", "DELUSER", "u")
			got := r.User("u").GetUser()
			if k := string(info[7].([]byte)); k != got.Keys {
				t.Errorf("%q: keys %q, Redis %q", rules, got.Keys, k)
			}
			if c := string(info[9].([]byte)); c != got.Channels {
				t.Errorf("%q: channels %q, Redis %q", rules, got.Channels, c)
			}
			continue
		}
		if e, ok := theirs.(error); !ok || e.Error() != ours.Error() {
			t.Errorf("%q:\n ours  %v\n Redis %v", rules, ours, theirs)
		}
	}

	// ACL DRYRUN against Check: rules, then command lines with their keys (positions as in
	// the command's key specs) or channels.
	type call struct {
		id       int
		line     []string
		keys     []KeyAccess
		channels []string
		pattern  bool
	}
	checks := []struct {
		rules []string
		calls []call
	}{
		{[]string{"on", "nopass", "~app:*", "%R~ro:*", "%W~wo:*", "+get", "+set", "+copy", "+mset", "+config|get", "+select|0"}, []call{
			{idGet, []string{"get", "app:1"}, []KeyAccess{rd("app:1", 1)}, nil, false},
			{idGet, []string{"get", "ro:1"}, []KeyAccess{rd("ro:1", 1)}, nil, false},
			{idGet, []string{"get", "wo:1"}, []KeyAccess{rd("wo:1", 1)}, nil, false},
			{idGet, []string{"get", "x"}, []KeyAccess{rd("x", 1)}, nil, false},
			{idSet, []string{"set", "wo:1", "v"}, []KeyAccess{{Key: []byte("wo:1"), Write: true, Pos: 1}}, nil, false},
			{idSet, []string{"set", "ro:1", "v"}, []KeyAccess{{Key: []byte("ro:1"), Write: true, Pos: 1}}, nil, false},
			{idCopy, []string{"copy", "ro:1", "wo:1"}, []KeyAccess{rd("ro:1", 1), wr("wo:1", 2)}, nil, false},
			{idCopy, []string{"copy", "wo:1", "ro:1"}, []KeyAccess{rd("wo:1", 1), wr("ro:1", 2)}, nil, false},
			{idMset, []string{"mset", "app:1", "v", "x", "v", "y", "v"}, []KeyAccess{wr("app:1", 1), wr("x", 3), wr("y", 5)}, nil, false},
			{idConfigGet, []string{"config", "get", "maxmemory"}, nil, nil, false},
			{idConfigSet, []string{"config", "set", "maxmemory", "1"}, nil, nil, false},
			{idSelect, []string{"select", "0"}, nil, nil, false},
			{idSelect, []string{"select", "1"}, nil, nil, false},
			{idPublish, []string{"publish", "c", "m"}, nil, []string{"c"}, false},
		}},
		{[]string{"on", "nopass", "+get", "~a*", "(+set ~b*)", "(%R~c* +copy)", "(%W~d* +copy)", "(+publish &news.* +psubscribe)"}, []call{
			{idGet, []string{"get", "b1"}, []KeyAccess{rd("b1", 1)}, nil, false},
			{idSet, []string{"set", "a1", "v"}, []KeyAccess{wr("a1", 1)}, nil, false},
			{idSet, []string{"set", "b1", "v"}, []KeyAccess{wr("b1", 1)}, nil, false},
			{idCopy, []string{"copy", "c1", "d1"}, []KeyAccess{rd("c1", 1), wr("d1", 2)}, nil, false},
			{idCopy, []string{"copy", "c1", "c2"}, []KeyAccess{rd("c1", 1), wr("c2", 2)}, nil, false},
			{idMset, []string{"mset", "a", "b"}, []KeyAccess{wr("a", 1)}, nil, false},
			{idPublish, []string{"publish", "news.1", "m"}, nil, []string{"news.1"}, false},
			{idPublish, []string{"publish", "sport", "m"}, nil, []string{"sport"}, false},
			{idPsubscribe, []string{"psubscribe", "news.*"}, nil, []string{"news.*"}, true},
			{idPsubscribe, []string{"psubscribe", "news.1"}, nil, []string{"news.1"}, true},
			{idPsubscribe, []string{"psubscribe", "news.*", "x*"}, nil, []string{"news.*", "x*"}, true},
		}},
	}
	for _, c := range checks {
		r := NewRegistry(testCatalog())
		u := mustSet(t, r, "u", c.rules...)
		if reply := rc.Do(append([]string{"ACL", "SETUSER", "u", "reset"}, c.rules...)...); reply != "OK" {
			t.Fatalf("Redis SETUSER %q: %v", c.rules, reply)
		}
		for _, k := range c.calls {
			ch := make([][]byte, len(k.channels))
			for i, s := range k.channels {
				ch[i] = []byte(s)
			}
			line := make([][]byte, len(k.line))
			for i, s := range k.line {
				line[i] = []byte(s)
			}
			d := u.Check(k.id, line, k.keys, ch, k.pattern)
			ours := "OK"
			if d.Reason != None {
				ours = d.Message("u", true)
			}
			theirs := rc.Do(append([]string{"ACL", "DRYRUN", "u"}, k.line...)...)
			var ts string
			switch v := theirs.(type) {
			case string:
				ts = v
			case []byte:
				ts = string(v)
			default:
				ts = "unexpected"
			}
			// 7.0 says "This user", 7.2 (and we) "User <name>"
			ts = strings.Replace(ts, "This user ", "User u ", 1)
			if ours != ts {
				t.Errorf("%q %q:\n ours  %s\n Redis %s", c.rules, k.line, ours, ts)
			}
		}
		rc.Do("ACL", "DELUSER", "u")
	}
}
