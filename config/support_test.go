package config

import (
	"strings"
	"testing"
)

// newPermissive is a Config without the support table's refusals, for the tests of the
// parsing and rewriting mechanics that use refused parameters as material.
func newPermissive() *Config {
	c := New()
	c.permissive = true
	return c
}

// TestEveryDirectiveClassified: each parameter and non-parameter directive has one row, and
// every name in the three lists is a directive (a typo would leave a parameter inert).
func TestEveryDirectiveClassified(t *testing.T) {
	rows := Directives()
	seen := map[string]bool{}
	for _, d := range rows {
		if seen[d.Name] {
			t.Errorf("%s listed twice", d.Name)
		}
		seen[d.Name] = true
		if d.Note == "" || d.Note == "no effect" {
			t.Errorf("%s (%s) has no note saying why", d.Name, d.Support)
		}
	}
	for _, list := range []map[string]string{acted, refused} {
		for name := range list {
			if !seen[name] {
				t.Errorf("%s is in a support list but is no directive", name)
			}
		}
	}
	if len(rows) != len(params)+4 {
		t.Errorf("%d rows for %d parameters", len(rows), len(params))
	}
}

// TestRefusals: a refused parameter takes its default and nothing else, at start-up (the
// line is named) and by CONFIG SET; loadmodule lines are refused (user lines are the ACL's:
// TestUserDirectives).
func TestRefusals(t *testing.T) {
	for _, tc := range []struct{ name, bad, ok string }{
		{"appendonly", "yes", "no"},
		{"tls-port", "6380", "0"},
		{"tls-cert-file", "/x.crt", ""},
		{"cluster-enabled", "yes", "no"},
		{"replicaof", "10.0.0.1 6379", ""},
	} {
		c := New()
		if err := c.Set([2]string{tc.name, tc.bad}); err == nil || !strings.Contains(err.Error(), "CONFIG SET failed (possibly related to argument '"+tc.name+"')") {
			if tc.name != "cluster-enabled" && tc.name != "replicaof" { // immutable: refused as such
				t.Errorf("CONFIG SET %s %s: %v", tc.name, tc.bad, err)
			}
		}
		err := c.Load([][]string{{"port", "7000"}, append([]string{tc.name}, strings.Fields(tc.bad)...)})
		var le *LoadError
		if !asLoadError(err, &le) || le.Line != 2 || !strings.Contains(le.Reason, "not") {
			t.Errorf("load %s %s: %v", tc.name, tc.bad, err)
		}
		if tc.name == "replicaof" {
			continue // takes two words; unset by default
		}
		if err := c.Load([][]string{{tc.name, tc.ok}}); err != nil {
			t.Errorf("load %s %q: %v", tc.name, tc.ok, err)
		}
	}
	// The final value is judged: a later directive (a flag after the file) may set it back.
	if err := New().Load([][]string{{"appendonly", "yes"}, {"daemonize", "yes"}, {"appendonly", "no"}, {"daemonize", "no"}}); err != nil {
		t.Errorf("appendonly yes then no: %v", err)
	}
	for _, line := range [][]string{{"loadmodule", "/x.so"}, {"mymod.opt", "1"}} {
		err := New().Load([][]string{line})
		var le *LoadError
		if !asLoadError(err, &le) || !strings.Contains(le.Error(), "FATAL CONFIG FILE ERROR") {
			t.Errorf("load %q: %v", line, err)
		}
	}
}

func asLoadError(err error, le **LoadError) bool {
	e, ok := err.(*LoadError)
	*le = e
	return ok
}

// TestOnApplyRollback: a failing applier undoes every value of the CONFIG SET and re-applies
// the old values of the appliers that ran.
func TestOnApplyRollback(t *testing.T) {
	c := New()
	var applied []string
	// loglevel comes before port in the table, so its applier runs first.
	c.OnApply("loglevel", func(v string) error { applied = append(applied, "loglevel="+v); return nil })
	c.OnApply("port", func(v string) error {
		applied = append(applied, "port="+v)
		if v == "7599" {
			return Error("Unable to listen on this port")
		}
		return nil
	})
	err := c.Set([2]string{"port", "7599"}, [2]string{"loglevel", "warning"})
	if err == nil || err.Error() != "ERR CONFIG SET failed (possibly related to argument 'port') - Unable to listen on this port" {
		t.Fatalf("Set: %v", err)
	}
	if c.Port() != 6379 || c.LogLevel() != "notice" {
		t.Fatalf("after rollback port %d loglevel %s", c.Port(), c.LogLevel())
	}
	if got := strings.Join(applied, " "); got != "loglevel=warning port=7599 loglevel=notice port=6379" {
		t.Fatalf("applier calls: %s", got)
	}
	if err := c.Set([2]string{"port", "7600"}); err != nil || c.Port() != 7600 {
		t.Fatalf("Set port 7600: %v, port %d", err, c.Port())
	}
}

// TestServerFlagsAreActed: --help's flags are exactly the Acted parameters.
func TestServerFlagsAreActed(t *testing.T) {
	flags := map[string]bool{}
	for _, f := range serverFlags {
		flags[f] = true
	}
	for _, d := range Directives() {
		if d.Param && (d.Support == Acted) != flags[d.Name] {
			t.Errorf("%s: %s, flag %v", d.Name, d.Support, flags[d.Name])
		}
	}
	help := New().HelpText()
	for _, want := range []string{"--port", "rename-command", "appendonly", "lazyfree-lazy-eviction"} {
		if !strings.Contains(help, want) {
			t.Errorf("--help lacks %s", want)
		}
	}
}

// TestDebianRedisConf: Debian's stock redis.conf loads — its save points, listpack sizes and
// the rest are accepted — with daemonize turned off as kvserver's systemd unit does, and
// logfile and pidfile pointed away from /var.
func TestDebianRedisConf(t *testing.T) {
	c := New()
	err := c.LoadFile("testdata/debian-redis.conf", [][]string{{"daemonize", "no"}, {"logfile", ""}, {"pidfile", ""}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Save()) != 3 || c.Port() != 6379 {
		t.Errorf("save %v port %d", c.Save(), c.Port())
	}
}

// TestUserDirectives: user lines are kept, in order, for the server's ACL (Other), and
// aclfile is accepted at start-up.
func TestUserDirectives(t *testing.T) {
	c := New()
	err := c.Load([][]string{{"user", "app", "on", ">pw", "~app:*"}, {"user", "ops", "off"}, {"aclfile", "/etc/users.acl"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range c.Other() {
		got = append(got, strings.Join(d, " "))
	}
	if strings.Join(got, "|") != "user app on >pw ~app:*|user ops off" {
		t.Fatalf("Other: %q", got)
	}
	if v, _ := c.Value("aclfile"); v != "/etc/users.acl" {
		t.Fatalf("aclfile %q", v)
	}
}
