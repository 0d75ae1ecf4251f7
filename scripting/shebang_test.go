package scripting

import (
	"reflect"
	"testing"
)

// Shebang parsing; the errors are redis-server 7.0.15's EVAL replies.
func TestParseShebang(t *testing.T) {
	for _, tc := range []struct {
		body    string
		flags   ScriptFlags
		shebang bool
		err     string
	}{
		{"return 1", 0, false, ""},
		{"#!lua\nreturn 1", 0, true, ""},
		{"#!lua flags=no-writes\nreturn 1", NoWrites, true, ""},
		{"#!lua flags=no-writes,allow-oom,allow-stale,no-cluster,allow-cross-slot-keys\n", NoWrites | AllowOOM | AllowStale | NoCluster | AllowCrossSlot, true, ""},
		{"#!lua flags=\nreturn 1", 0, true, ""},
		{"#!lua flags=no-writes flags=allow-oom\nreturn 1", NoWrites | AllowOOM, true, ""},
		{"#!lua flags=\"no-writes\"\nreturn 1", NoWrites, true, ""},
		{"#!lua  \t flags=no-cluster \nreturn 1", NoCluster, true, ""},
		{"#!lua", 0, false, "ERR Invalid script shebang"},
		{"#!lua flags=no-writes,bogus\nreturn 1", 0, false, "ERR Unexpected flag in script shebang: bogus"},
		{"#!lua flags=no-writes,\nreturn 1", 0, false, "ERR Unexpected flag in script shebang: "},
		{"#!lua flags=NO-WRITES\nreturn 1", 0, false, "ERR Unexpected flag in script shebang: NO-WRITES"},
		{"#!py\nreturn 1", 0, false, "ERR Unexpected engine in script shebang: #!py"},
		{"#!  lua\nreturn 1", 0, false, "ERR Unexpected engine in script shebang: #!"},
		{"#!\nreturn 1", 0, false, "ERR Unexpected engine in script shebang: #!"},
		{"#!lua foo=bar\nreturn 1", 0, false, "ERR Unknown lua shebang option: foo=bar"},
		{"#!lua \"unbalanced\nreturn 1", 0, false, "ERR Invalid engine in script shebang"},
	} {
		flags, shebang, err := ParseShebang([]byte(tc.body))
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		if errText != tc.err || (err == nil && (flags != tc.flags || shebang != tc.shebang)) {
			t.Errorf("%q: flags %v shebang %v error %q, want %v %v %q", tc.body, flags, shebang, errText, tc.flags, tc.shebang, tc.err)
		}
		// Load answers the same error, and keeps the flags.
		s, err := newTestEngine().Load([]byte(tc.body))
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("Load %q: %v, want %q", tc.body, err, tc.err)
			}
		} else if err != nil || s.Flags != tc.flags || s.Shebang != tc.shebang {
			t.Errorf("Load %q: %+v %v", tc.body, s, err)
		}
	}
}

func TestFlagNames(t *testing.T) {
	got := (AllowCrossSlot | NoWrites | AllowStale).Names()
	want := []string{"no-writes", "allow-stale", "allow-cross-slot-keys"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Names %q, want %q", got, want)
	}
}
