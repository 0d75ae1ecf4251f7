package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseMemory(t *testing.T) {
	cases := []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"0", 0, true},
		{"100", 100, true},
		{"10b", 10, true},
		{"10B", 10, true},
		{"1k", 1000, true},
		{"1K", 1000, true},
		{"1kb", 1024, true},
		{"1KB", 1024, true},
		{"1kB", 1024, true},
		{"1m", 1000000, true},
		{"1mb", 1 << 20, true},
		{"512mb", 536870912, true},
		{"1g", 1000000000, true},
		{"1gb", 1 << 30, true},
		{"1Gb", 1 << 30, true},
		{"16gb", 16 << 30, true},
		{"18446744073709551615", 1<<64 - 1, true},
		{"99999999999999999999999", 1<<64 - 1, true}, // strtoull saturates; memtoull accepts it
		{"17179869184gb", 0, false},                  // 2^64: overflows the multiplication
		{"", 0, true},                                // memtoull reads no digits as 0
		{"mb", 0, true},
		{"-1", 0, false},
		{"+1", 0, false},
		{" 1", 0, false},
		{"1 kb", 0, false},
		{"1.5mb", 0, false},
		{"1tb", 0, false},
		{"1kib", 0, false},
		{"1e3", 0, false},
		{"0x10", 0, false},
	}
	for _, tc := range cases {
		got, ok := ParseMemory(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseMemory(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestAccessorDefaults(t *testing.T) {
	c := newPermissive()
	wd, _ := os.Getwd()
	checks := []struct {
		name      string
		got, want any
	}{
		{"port", c.Port(), 6379},
		{"bind", c.Bind(), []string{"127.0.0.1", "-::1"}},
		{"maxclients", c.MaxClients(), 10000},
		{"hz", c.Hz(), 10},
		{"databases", c.Databases(), 16},
		{"proto-max-bulk-len", c.ProtoMaxBulkLen(), int64(512 << 20)},
		{"client-query-buffer-limit", c.ClientQueryBufferLimit(), int64(1 << 30)},
		{"maxmemory", c.MaxMemory(), uint64(0)},
		{"maxmemory-policy", c.MaxMemoryPolicy(), "noeviction"},
		{"loglevel", c.LogLevel(), "notice"},
		{"logfile", c.LogFile(), ""},
		{"timeout", c.Timeout(), time.Duration(0)},
		{"tcp-keepalive", c.TCPKeepAlive(), 300 * time.Second},
		{"requirepass", c.RequirePass(), ""},
		{"protected-mode", c.ProtectedMode(), true},
		{"pidfile", c.PidFile(), ""},
		{"daemonize", c.Daemonize(), false},
		{"save", c.Save(), []SavePoint{{3600, 1}, {300, 100}, {60, 10000}}},
		{"appendonly", c.AppendOnly(), false},
		{"dir", c.Dir(), wd},
		{"dbfilename", c.DBFilename(), "dump.rdb"},
	}
	for _, ck := range checks {
		if !reflect.DeepEqual(ck.got, ck.want) {
			t.Errorf("%s = %#v, want %#v", ck.name, ck.got, ck.want)
		}
	}
}

func TestGet(t *testing.T) {
	c := newPermissive()
	cases := []struct {
		patterns []string
		want     []NameValue
	}{
		{[]string{"*max-*-entries*"}, []NameValue{
			{"hash-max-listpack-entries", "512"}, {"hash-max-ziplist-entries", "512"},
			{"set-max-intset-entries", "512"}, {"set-max-listpack-entries", "128"},
			{"zset-max-listpack-entries", "128"}, {"zset-max-ziplist-entries", "128"},
		}},
		{[]string{"port"}, []NameValue{{"port", "6379"}}},
		{[]string{"PORT"}, []NameValue{{"PORT", "6379"}}}, // under the name asked
		{[]string{"POR?"}, []NameValue{{"port", "6379"}}}, // patterns match without case
		{[]string{"hash-max-ziplist-entries"}, []NameValue{{"hash-max-ziplist-entries", "512"}}},
		{[]string{"slaveof", "replicaof"}, []NameValue{{"replicaof", ""}, {"slaveof", ""}}},
		{[]string{"proto-max-bulk-len"}, []NameValue{{"proto-max-bulk-len", "536870912"}}},
		{[]string{"port", "port", "po*"}, []NameValue{{"port", "6379"}}},     // once each
		{[]string{"watchdog-period"}, []NameValue{{"watchdog-period", "0"}}}, // hidden: exact only
		{[]string{"watchdog*"}, nil},
		{[]string{"nosuch"}, nil},
		{[]string{"maxmemory*"}, []NameValue{
			{"maxmemory", "0"}, {"maxmemory-clients", "0"}, {"maxmemory-eviction-tenacity", "10"},
			{"maxmemory-policy", "noeviction"}, {"maxmemory-samples", "5"},
		}},
		{[]string{"[bp]*"}, []NameValue{
			{"bgsave_cpulist", ""}, {"bind", "127.0.0.1 -::1"}, {"bind-source-addr", ""}, {"bio_cpulist", ""},
			{"busy-reply-threshold", "5000"}, {"pidfile", ""}, {"port", "6379"},
			{"proc-title-template", "{title} {listen-addr} {server-mode}"},
			{"propagation-error-behavior", "ignore"}, {"protected-mode", "yes"}, {"proto-max-bulk-len", "536870912"},
		}},
	}
	for _, tc := range cases {
		got := c.Get(tc.patterns...)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Get(%q) =\n%v\nwant\n%v", tc.patterns, got, tc.want)
		}
	}
	if n := len(c.Get("*")); n != 195+len(kvserverParams) {
		t.Errorf("Get(*) returns %d names, want 195 (Redis 7.2) + kvserver's own", n)
	}
}

// mustLoad applies start-up directives or fails the test.
func mustLoad(t *testing.T, c *Config, directives ...[]string) {
	t.Helper()
	if err := c.Load(directives); err != nil {
		t.Fatal(err)
	}
}

func pair(name, value string) [2]string { return [2]string{name, value} }

// TestSetErrors checks every CONFIG SET error text against config.c's wording.
func TestSetErrors(t *testing.T) {
	failed := func(name, reason string) string {
		return "ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + reason
	}
	policies := "argument(s) must be one of the following: volatile-lru, volatile-lfu, volatile-random, " +
		"volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, noeviction"
	cases := []struct {
		pairs [][2]string
		want  string
	}{
		{[][2]string{pair("nosuch", "1")}, "ERR Unknown option or number of arguments for CONFIG SET - 'nosuch'"},
		{[][2]string{pair("list-max-ziplist-entries", "1")}, "ERR Unknown option or number of arguments for CONFIG SET - 'list-max-ziplist-entries'"},
		{[][2]string{pair("daemonize", "yes")}, failed("daemonize", "can't set immutable config")},
		{[][2]string{pair("DATABASES", "1")}, failed("DATABASES", "can't set immutable config")},
		{[][2]string{pair("slaveof", "no one")}, failed("slaveof", "can't set immutable config")},
		{[][2]string{pair("dir", "/")}, failed("dir", "can't set protected config")},
		{[][2]string{pair("dbfilename", "x.rdb")}, failed("dbfilename", "can't set protected config")},
		// The first error wins.
		{[][2]string{pair("nosuch", "1"), pair("daemonize", "yes")}, "ERR Unknown option or number of arguments for CONFIG SET - 'nosuch'"},
		{[][2]string{pair("daemonize", "yes"), pair("nosuch", "1")}, failed("daemonize", "can't set immutable config")},
		{[][2]string{pair("port", "1"), pair("PORT", "2")}, failed("PORT", "duplicate parameter")},
		{[][2]string{pair("port", "x"), pair("port", "2")}, failed("port", "duplicate parameter")},
		// Value errors name the parameter as registered: canonical or alias, lower case.
		{[][2]string{pair("Port", "x")}, failed("port", "argument couldn't be parsed into an integer")},
		{[][2]string{pair("hash-max-ziplist-entries", "x")}, failed("hash-max-ziplist-entries", "argument couldn't be parsed into an integer")},
		{[][2]string{pair("protected-mode", "maybe")}, failed("protected-mode", "argument must be 'yes' or 'no'")},
		{[][2]string{pair("protected-mode", "1")}, failed("protected-mode", "argument must be 'yes' or 'no'")},
		{[][2]string{pair("port", "06379")}, failed("port", "argument couldn't be parsed into an integer")},
		{[][2]string{pair("port", "1k")}, failed("port", "argument couldn't be parsed into an integer")},
		{[][2]string{pair("port", "70000")}, failed("port", "argument must be between 0 and 65535 inclusive")},
		{[][2]string{pair("port", "-1")}, failed("port", "argument must be between 0 and 65535 inclusive")},
		{[][2]string{pair("maxclients", "0")}, failed("maxclients", "argument must be between 1 and 4294967295 inclusive")},
		{[][2]string{pair("maxclients", "-1")}, failed("maxclients", "argument must be between 1 and 4294967295 inclusive")},
		{[][2]string{pair("hash-max-listpack-entries", "-1")}, failed("hash-max-listpack-entries", "argument must be between 0 and 9223372036854775807 inclusive")},
		{[][2]string{pair("list-max-listpack-size", "2147483648")}, failed("list-max-listpack-size", "argument must be between -2147483648 and 2147483647 inclusive")},
		{[][2]string{pair("slowlog-log-slower-than", "-2")}, failed("slowlog-log-slower-than", "argument must be between -1 and 9223372036854775807 inclusive")},
		{[][2]string{pair("maxmemory", "10xb")}, failed("maxmemory", "argument must be a memory value")},
		{[][2]string{pair("maxmemory", "-1")}, failed("maxmemory", "argument must be a memory value")},
		{[][2]string{pair("proto-max-bulk-len", "1000")}, failed("proto-max-bulk-len", "argument must be between 1048576 and 9223372036854775807 inclusive")},
		{[][2]string{pair("proto-max-bulk-len", "9223372036854775808")}, failed("proto-max-bulk-len", "argument must be between 1048576 and 9223372036854775807 inclusive")},
		{[][2]string{pair("client-query-buffer-limit", "1k")}, failed("client-query-buffer-limit", "argument must be between 1048576 and 9223372036854775807 inclusive")},
		{[][2]string{pair("maxmemory-clients", "101%")}, failed("maxmemory-clients", "percentage argument must be less or equal to 100")},
		{[][2]string{pair("maxmemory-clients", "x")}, failed("maxmemory-clients", "argument must be a memory or percent value")},
		{[][2]string{pair("maxmemory-clients", "-5%")}, failed("maxmemory-clients", "argument must be a memory or percent value")},
		{[][2]string{pair("maxmemory-policy", "lru")}, failed("maxmemory-policy", policies)},
		{[][2]string{pair("maxmemory-policy", "allkeys-lru allkeys-lfu")}, failed("maxmemory-policy", policies)},
		{[][2]string{pair("loglevel", "loud")}, failed("loglevel", "argument(s) must be one of the following: debug, verbose, notice, warning, nothing")},
		{[][2]string{pair("shutdown-on-sigint", "")}, failed("shutdown-on-sigint", "argument(s) must be one of the following: default, save, nosave, now, force")},
		{[][2]string{pair("shutdown-on-sigint", "save nosave")}, failed("shutdown-on-sigint", "shutdown options SAVE and NOSAVE can't be used simultaneously")},
		{[][2]string{pair("activedefrag", "yes")}, failed("activedefrag", "Active defragmentation cannot be enabled: it requires a Redis server compiled with a modified Jemalloc like the one shipped by default with the Redis source distribution")},
		{[][2]string{pair("proc-title-template", "{nope}")}, failed("proc-title-template", "template format is invalid or contains unknown variables")},
		{[][2]string{pair("proc-title-template", "{title")}, failed("proc-title-template", "template format is invalid or contains unknown variables")},
		{[][2]string{pair("proc-title-template", " {title} ")}, failed("proc-title-template", "template format is invalid or contains unknown variables")},
		{[][2]string{pair("cluster-announce-hostname", "a_b")}, failed("cluster-announce-hostname", "Hostnames may only contain alphanumeric characters, hyphens or dots")},
		{[][2]string{pair("cluster-announce-hostname", strings.Repeat("a", 256))}, failed("cluster-announce-hostname", "Hostnames must be less than 256 characters")},
		{[][2]string{pair("cluster-announce-human-nodename", "a{b")}, failed("cluster-announce-human-nodename", "Announced human node name contained invalid character")},
		{[][2]string{pair("save", "100")}, failed("save", "Invalid save parameters")},
		{[][2]string{pair("save", "0 1")}, failed("save", "Invalid save parameters")},
		{[][2]string{pair("save", "10 -1")}, failed("save", "Invalid save parameters")},
		{[][2]string{pair("save", "10 x")}, failed("save", "Invalid save parameters")},
		{[][2]string{pair("bind", strings.TrimSpace(strings.Repeat("::1 ", 17)))}, failed("bind", "Too many bind addresses specified.")},
		{[][2]string{pair("client-output-buffer-limit", "normal 1 2")}, failed("client-output-buffer-limit", "Wrong number of arguments in buffer limit configuration.")},
		{[][2]string{pair("client-output-buffer-limit", "master 0 0 0")}, failed("client-output-buffer-limit", "Invalid client class specified in buffer limit configuration.")},
		{[][2]string{pair("client-output-buffer-limit", "normal 1x 0 0")}, failed("client-output-buffer-limit", "Error in hard, soft or soft_seconds setting in buffer limit configuration.")},
		{[][2]string{pair("client-output-buffer-limit", "normal 0 0 -1")}, failed("client-output-buffer-limit", "Error in hard, soft or soft_seconds setting in buffer limit configuration.")},
		{[][2]string{pair("oom-score-adj-values", "1 2")}, failed("oom-score-adj-values", "wrong number of arguments")},
		{[][2]string{pair("oom-score-adj-values", "0 200 3000")}, failed("oom-score-adj-values", "Invalid oom-score-adj-values, elements must be between -2000 and 2000.")},
		{[][2]string{pair("notify-keyspace-events", "KQ")}, failed("notify-keyspace-events", "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.")},
		{[][2]string{pair("latency-tracking-info-percentiles", "50 101")}, failed("latency-tracking-info-percentiles", "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]")},
		{[][2]string{pair("latency-tracking-info-percentiles", "fifty")}, failed("latency-tracking-info-percentiles", "Invalid latency-tracking-info-percentiles parameters")},
	}
	for _, tc := range cases {
		c := newPermissive()
		before := c.Get("*")
		err := c.Set(tc.pairs...)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Set(%q):\n got %v\nwant %s", tc.pairs, err, tc.want)
		}
		if !reflect.DeepEqual(c.Get("*"), before) {
			t.Errorf("Set(%q) failed but changed values", tc.pairs)
		}
	}
}

func TestSetValues(t *testing.T) {
	cases := []struct{ name, value, want string }{
		{"maxmemory", "1gb", "1073741824"},
		{"maxmemory", "1GB", "1073741824"},
		{"maxmemory", "1g", "1000000000"},
		{"maxmemory", "100", "100"},
		{"maxmemory", "18446744073709551615", "18446744073709551615"},
		{"proto-max-bulk-len", "1mb", "1048576"},
		{"client-query-buffer-limit", "2gb", "2147483648"},
		{"maxmemory-clients", "10%", "10%"},
		{"maxmemory-clients", "0%", "0"},
		{"maxmemory-clients", "1mb", "1048576"},
		{"hz", "1000", "500"}, // capped like updateHZ
		{"hz", "0", "1"},
		{"protected-mode", "NO", "no"},
		{"oom-score-adj", "relative", "yes"}, // the first name with that value
		{"maxmemory-policy", "ALLKEYS-LRU", "allkeys-lru"},
		{"shutdown-on-sigterm", "NOW force", "now force"},
		{"shutdown-on-sigterm", "force now", "now force"},
		{"shutdown-on-sigterm", "default now", "now"},
		{"shutdown-on-sigterm", "default", "default"},
		{"notify-keyspace-events", "KEA", "AKE"},
		{"notify-keyspace-events", "Ex", "xE"},
		{"notify-keyspace-events", "AKEn", "AnKE"}, // Redis prints n only without A, and loses it
		{"notify-keyspace-events", "g$lshzxetd", "AK"[:1]},
		{"notify-keyspace-events", "", ""},
		{"latency-tracking-info-percentiles", "50 99.90 100", "50 99.9 100"},
		{"latency-tracking-info-percentiles", "", ""},
		{"client-output-buffer-limit", "replica 1mb 2mb 10", "normal 0 0 0 slave 1048576 2097152 10 pubsub 33554432 8388608 60"},
		{"client-output-buffer-limit", "pubsub 0 0 0 normal 1k 1k 1", "normal 1000 1000 1 slave 268435456 67108864 60 pubsub 0 0 0"},
		{"save", "", ""},
		{"save", "900 1 300 10", "900 1 300 10"},
		{"bind", "", ""},
		{"bind", "127.0.0.1 ::1", "127.0.0.1 ::1"},
		{"list-max-ziplist-size", "-5", "-5"},
		{"slowlog-log-slower-than", "-1", "-1"},
		{"requirepass", "s3cret pass", "s3cret pass"},
		{"oom-score-adj-values", "0 -200 +800", "0 -200 800"},
	}
	for _, tc := range cases {
		c := newPermissive()
		if err := c.Set(pair(tc.name, tc.value)); err != nil {
			t.Errorf("Set(%s, %q): %v", tc.name, tc.value, err)
			continue
		}
		if got, _ := c.Value(tc.name); got != tc.want {
			t.Errorf("Set(%s, %q): CONFIG GET says %q, want %q", tc.name, tc.value, got, tc.want)
		}
	}
	c := newPermissive()
	if err := c.Set(pair("list-max-ziplist-size", "-5")); err != nil {
		t.Fatal(err)
	}
	if got := c.Get("list-max-listpack-size"); got[0].Value != "-5" {
		t.Errorf("alias and canonical name disagree: %v", got)
	}
}

// TestSetAtomic: several pairs change together or not at all.
func TestSetAtomic(t *testing.T) {
	c := newPermissive()
	err := c.Set(pair("maxmemory", "10mb"), pair("timeout", "30"), pair("port", "abc"))
	if err == nil {
		t.Fatal("want an error")
	}
	if c.MaxMemory() != 0 || c.Timeout() != 0 || c.Port() != 6379 {
		t.Errorf("a failed Set changed values: %d %v %d", c.MaxMemory(), c.Timeout(), c.Port())
	}
	if err := c.Set(pair("maxmemory", "10mb"), pair("timeout", "30"), pair("maxmemory-policy", "allkeys-lru")); err != nil {
		t.Fatal(err)
	}
	if c.MaxMemory() != 10<<20 || c.Timeout() != 30*time.Second || c.MaxMemoryPolicy() != "allkeys-lru" {
		t.Errorf("values not all set: %d %v %s", c.MaxMemory(), c.Timeout(), c.MaxMemoryPolicy())
	}
	// An alias and its canonical name are not duplicates in Redis 7.2: the later wins.
	if err := c.Set(pair("hash-max-ziplist-entries", "1"), pair("hash-max-listpack-entries", "2")); err != nil {
		t.Fatal(err)
	}
	if v, _ := c.Value("hash-max-ziplist-entries"); v != "2" {
		t.Errorf("hash-max-ziplist-entries = %s", v)
	}
}

func TestSetProtected(t *testing.T) {
	dir := t.TempDir()
	c := newPermissive()
	mustLoad(t, c, []string{"enable-protected-configs", "local"})
	if err := c.Set(pair("dir", dir)); err == nil || !strings.HasSuffix(err.Error(), "can't set protected config") {
		t.Errorf("remote Set(dir) = %v", err)
	}
	if err := c.SetLocal(pair("dir", dir)); err != nil {
		t.Fatal(err)
	}
	if c.Dir() != dir {
		t.Errorf("Dir = %s, want %s", c.Dir(), dir)
	}
	if err := c.SetLocal(pair("dir", filepath.Join(dir, "nope"))); err == nil ||
		err.Error() != "ERR CONFIG SET failed (possibly related to argument 'dir') - No such file or directory" {
		t.Errorf("Set(dir, missing) = %v", err)
	}
	f := filepath.Join(dir, "file")
	os.WriteFile(f, nil, 0o644)
	if err := c.SetLocal(pair("dir", f)); err == nil || !strings.HasSuffix(err.Error(), " - Not a directory") {
		t.Errorf("Set(dir, file) = %v", err)
	}
	if err := c.SetLocal(pair("dbfilename", "a/b.rdb")); err == nil ||
		err.Error() != "ERR CONFIG SET failed (possibly related to argument 'dbfilename') - dbfilename can't be a path, just a filename" {
		t.Errorf("Set(dbfilename, path) = %v", err)
	}
	c2 := newPermissive()
	mustLoad(t, c2, []string{"enable-protected-configs", "yes"})
	if err := c2.Set(pair("dbfilename", "x.rdb")); err != nil || c2.DBFilename() != "x.rdb" {
		t.Errorf("Set(dbfilename) with protected configs enabled: %v", err)
	}
}

func TestOnChange(t *testing.T) {
	c := newPermissive()
	var got []string
	c.OnChange("hz", func(v string) { got = append(got, "hz="+v) })
	c.OnChange("hash-max-ziplist-entries", func(v string) { got = append(got, "hash="+v) })
	c.OnChange("port", func(v string) {
		got = append(got, "port="+v)
		if c.Port() != 7000 { // the new value is visible to readers
			t.Errorf("listener reads port %d", c.Port())
		}
	})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.Set(pair("hz", "1000")))
	must(c.Set(pair("hz", "500"))) // unchanged: no call
	must(c.Set(pair("hash-max-listpack-entries", "7"), pair("port", "7000")))
	if c.Set(pair("port", "x"), pair("hz", "20")) == nil { // fails: no call
		t.Fatal("want an error")
	}
	mustLoad(t, c, []string{"hz", "30"})
	want := []string{"hz=500", "port=7000", "hash=7", "hz=30"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("listener calls %v, want %v", got, want)
	}
}

func TestParseArgs(t *testing.T) {
	cases := []struct {
		args []string
		file string
		want [][]string
		err  error
	}{
		{nil, "", nil, nil},
		{[]string{"/etc/kv.conf"}, "/etc/kv.conf", nil, nil},
		{[]string{"--port", "6380"}, "", [][]string{{"port", "6380"}}, nil},
		{[]string{"--bind", "127.0.0.1", "::1"}, "", [][]string{{"bind", "127.0.0.1", "::1"}}, nil},
		{[]string{"--save", ""}, "", [][]string{{"save", ""}}, nil},
		{[]string{"--save"}, "", [][]string{{"save", ""}}, nil},
		{[]string{"--save", "--port", "1"}, "", [][]string{{"save", ""}, {"port", "1"}}, nil},
		{[]string{"--save", "3600", "1", "300", "100"}, "", [][]string{{"save", "3600", "1", "300", "100"}}, nil},
		{[]string{"kv.conf", "--port", "1", "--loglevel", "debug"}, "kv.conf", [][]string{{"port", "1"}, {"loglevel", "debug"}}, nil},
		{[]string{"--port 6380", "--maxmemory", "1gb"}, "", [][]string{{"port", "6380"}, {"maxmemory", "1gb"}}, nil},
		{[]string{"--requirepass", "--secret"}, "", [][]string{{"requirepass", "--secret"}}, nil},
		{[]string{"--port", "1", "--help"}, "", [][]string{{"port", "1"}, {"help"}}, nil},
		{[]string{"--Port", "1"}, "", [][]string{{"Port", "1"}}, nil},
		{[]string{"--help"}, "", nil, ErrHelp},
		{[]string{"-h"}, "", nil, ErrHelp},
		{[]string{"--version"}, "", nil, ErrVersion},
		{[]string{"-v"}, "", nil, ErrVersion},
	}
	for _, tc := range cases {
		file, got, err := ParseArgs(tc.args)
		if !errors.Is(err, tc.err) || file != tc.file || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseArgs(%q) = %q, %q, %v; want %q, %q, %v", tc.args, file, got, err, tc.file, tc.want, tc.err)
		}
	}
	if _, _, err := ParseArgs([]string{"-"}); err == nil {
		t.Error("reading standard input should be refused")
	}
}

func TestLoadArgs(t *testing.T) {
	c := newPermissive()
	_, ds, err := ParseArgs([]string{"--port", "6380", "--bind", "127.0.0.1", "::1", "--save", "",
		"--databases", "4", "--DAEMONIZE", "no", "--maxmemory", "1mb", "--slaveof", "no", "one"})
	if err != nil {
		t.Fatal(err)
	}
	mustLoad(t, c, ds...)
	if c.Port() != 6380 || !reflect.DeepEqual(c.Bind(), []string{"127.0.0.1", "::1"}) ||
		len(c.Save()) != 0 || c.Databases() != 4 || c.MaxMemory() != 1<<20 {
		t.Errorf("loaded %d %v %v %d %d", c.Port(), c.Bind(), c.Save(), c.Databases(), c.MaxMemory())
	}

	// save: the first directive replaces the defaults, the next ones add rules.
	for _, tc := range []struct {
		ds   [][]string
		want string
	}{
		{[][]string{{"save", "900", "1"}, {"save", "300", "10"}}, "900 1 300 10"},
		{[][]string{{"save", ""}, {"save", "60", "1"}}, "60 1"},
		{[][]string{{"save", "60", "1"}, {"save", ""}}, ""},
		{[][]string{{"save", "3600 1 300 100"}}, "3600 1 300 100"},
		{[][]string{{"bind", "127.0.0.1 ::1"}}, ""},
	} {
		c := newPermissive()
		mustLoad(t, c, tc.ds...)
		name := tc.ds[0][0]
		if name == "bind" {
			if b := c.Bind(); !reflect.DeepEqual(b, []string{"127.0.0.1", "::1"}) {
				t.Errorf("bind = %q", b)
			}
			continue
		}
		if v, _ := c.Value(name); v != tc.want {
			t.Errorf("Load(%q): %s = %q, want %q", tc.ds, name, v, tc.want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	cases := []struct {
		ds   [][]string
		want string
	}{
		{[][]string{{"port", "abc"}}, "*** FATAL CONFIG FILE ERROR (Redis 7.2.4) ***\nReading the configuration file, at line 1\n>>> 'port \"abc\"'\nargument couldn't be parsed into an integer"},
		{[][]string{{"port", "1"}, {"nosuch", "1"}}, "*** FATAL CONFIG FILE ERROR (Redis 7.2.4) ***\nReading the configuration file, at line 2\n>>> 'nosuch \"1\"'\nBad directive or wrong number of arguments"},
		{[][]string{{"port", "1", "2"}}, "*** FATAL CONFIG FILE ERROR (Redis 7.2.4) ***\nReading the configuration file, at line 1\n>>> 'port \"1\" \"2\"'\nwrong number of arguments"},
		{[][]string{{"unixsocketperm", "1000"}}, "*** FATAL CONFIG FILE ERROR (Redis 7.2.4) ***\nReading the configuration file, at line 1\n>>> 'unixsocketperm \"1000\"'\nargument must be between 0 and 777 inclusive"},
		{[][]string{{"unixsocketperm", "9"}}, "*** FATAL CONFIG FILE ERROR (Redis 7.2.4) ***\nReading the configuration file, at line 1\n>>> 'unixsocketperm \"9\"'\nargument couldn't be parsed as an octal number"},
		{[][]string{{"requirepass", "a\nb", "c"}}, "*** FATAL CONFIG FILE ERROR (Redis 7.2.4) ***\nReading the configuration file, at line 1\n>>> 'requirepass \"a\\nb\" \"c\"'\nwrong number of arguments"},
		{[][]string{{"foo.bar"}}, "*** FATAL CONFIG FILE ERROR (Redis 7.2.4) ***\nReading the configuration file, at line 1\n>>> 'foo.bar'\nModule config specified without value"},
		{[][]string{{"cluster-enabled", "yes"}, {"replicaof", "h", "1"}}, "*** FATAL CONFIG FILE ERROR (Redis 7.2.4) ***\nreplicaof directive not allowed in cluster mode"},
		{[][]string{{"replicaof", "h", "70000"}}, "*** FATAL CONFIG FILE ERROR (Redis 7.2.4) ***\nReading the configuration file, at line 1\n>>> 'replicaof \"h\" \"70000\"'\nInvalid master port"},
	}
	for _, tc := range cases {
		c := newPermissive()
		err := c.Load(tc.ds)
		var le *LoadError
		if !errors.As(err, &le) || err.Error() != tc.want {
			t.Errorf("Load(%q):\n got %v\nwant %s", tc.ds, err, tc.want)
		}
		if c.Port() != 6379 {
			t.Errorf("Load(%q) failed but changed port", tc.ds)
		}
	}
	c := newPermissive()
	mustLoad(t, c, []string{"list-max-ziplist-entries", "512"}, []string{"rename-command", "KEYS", ""},
		[]string{"loadmodule", "/x.so", "a"}, []string{"mod.opt", "1"}, []string{"daemonize", "yes"})
	want := [][]string{{"rename-command", "KEYS", ""}, {"loadmodule", "/x.so", "a"}, {"mod.opt", "1"}}
	if got := c.Other(); !reflect.DeepEqual(got, want) {
		t.Errorf("Other() = %q", got)
	}
	if !c.Daemonize() {
		t.Error("immutable daemonize not set at start-up")
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("inc.conf", "loglevel warning\nsave ''\n")
	os.MkdirAll(filepath.Join(dir, "conf.d"), 0o755)
	write("conf.d/a.conf", "maxclients 100\n")
	write("conf.d/b.conf", "maxclients 200\n")
	main := write("main.conf", `# kvserver test configuration
port 7000
  bind 127.0.0.1 "::1"   
include `+filepath.Join(dir, "inc.conf")+`

requirepass "pa ss\"word\x21"
MAXMEMORY 100mb
include `+filepath.Join(dir, "conf.d", "*.conf")+`
include `+filepath.Join(dir, "none", "*.conf")+`
save 900 1
`)
	c := newPermissive()
	if err := c.LoadFile(main, [][]string{{"port", "7001"}, {"save", "60", "5"}}); err != nil {
		t.Fatal(err)
	}
	if c.Port() != 7001 || !reflect.DeepEqual(c.Bind(), []string{"127.0.0.1", "::1"}) ||
		c.LogLevel() != "warning" || c.RequirePass() != `pa ss"word!` || c.MaxMemory() != 100<<20 ||
		c.MaxClients() != 200 || !reflect.DeepEqual(c.Save(), []SavePoint{{900, 1}, {60, 5}}) {
		t.Errorf("loaded port %d bind %q loglevel %s pass %q maxmemory %d maxclients %d save %v",
			c.Port(), c.Bind(), c.LogLevel(), c.RequirePass(), c.MaxMemory(), c.MaxClients(), c.Save())
	}

	bad := write("bad.conf", "port 7000\n\n  nosuch-directive yes \n")
	err := newPermissive().LoadFile(bad, nil)
	want := "*** FATAL CONFIG FILE ERROR (Redis 7.2.4) ***\nReading the configuration file, at line 3\n>>> 'nosuch-directive yes'\nBad directive or wrong number of arguments\n(in " + bad + ")"
	if err == nil || err.Error() != want {
		t.Errorf("bad directive:\n got %v\nwant %s", err, want)
	}
	var le *LoadError
	if !errors.As(err, &le) || le.File != bad || le.Line != 3 {
		t.Errorf("LoadError = %+v", le)
	}

	quotes := write("quotes.conf", "requirepass \"abc\n")
	if err := newPermissive().LoadFile(quotes, nil); err == nil || !strings.Contains(err.Error(), "Unbalanced quotes in configuration line") {
		t.Errorf("unbalanced quotes: %v", err)
	}
	inc := write("inc-bad.conf", "include "+bad+"\n")
	if err := newPermissive().LoadFile(inc, nil); !errors.As(err, &le) || le.File != bad {
		t.Errorf("error in an included file: %v", err)
	}
	missing := filepath.Join(dir, "missing.conf")
	if err := newPermissive().LoadFile(missing, nil); err == nil ||
		err.Error() != "Fatal error, can't open config file '"+missing+"': No such file or directory" {
		t.Errorf("missing file: %v", err)
	}
	loop := write("loop.conf", "include "+filepath.Join(dir, "loop.conf")+"\n")
	if err := newPermissive().LoadFile(loop, nil); err == nil || !strings.Contains(err.Error(), "include nesting too deep") {
		t.Errorf("include loop: %v", err)
	}
	logf := write("log.conf", "logfile "+filepath.Join(dir, "no", "such", "dir.log")+"\n")
	if err := newPermissive().LoadFile(logf, nil); err == nil ||
		!strings.HasSuffix(err.Error(), "Can't open the log file: No such file or directory") {
		t.Errorf("bad logfile: %v", err)
	}
}

func TestFlagSet(t *testing.T) {
	c := newPermissive()
	fs := c.FlagSet()
	usage := fs.FlagUsages()
	for _, want := range []string{"--port int", "(default 6379)", "--bind string", `(default "127.0.0.1 -::1")`,
		"--maxmemory bytes", "--protected-mode yes|no", "--proto-max-bulk-len bytes", "(default 536870912)"} {
		if !strings.Contains(usage, want) {
			t.Errorf("usage lacks %q:\n%s", want, usage)
		}
	}
	if n := strings.Count(usage, "\n"); n != len(serverFlags) {
		t.Errorf("%d flags listed, want %d", n, len(serverFlags))
	}
	if err := fs.Parse([]string{"--port=7000", "--protected-mode", "--bind=0.0.0.0 ::", "--maxmemory=1mb"}); err != nil {
		t.Fatal(err)
	}
	if c.Port() != 7000 || !c.ProtectedMode() || !reflect.DeepEqual(c.Bind(), []string{"0.0.0.0", "::"}) || c.MaxMemory() != 1<<20 {
		t.Errorf("flags not applied: %d %v %v %d", c.Port(), c.ProtectedMode(), c.Bind(), c.MaxMemory())
	}
	if err := fs.Set("port", "x"); err == nil || !strings.Contains(err.Error(), "argument couldn't be parsed into an integer") {
		t.Errorf("fs.Set(port, x) = %v", err)
	}
	if got := fs.Lookup("maxmemory").Value.String(); got != "1048576" {
		t.Errorf("flag value %q", got)
	}
}

// TestConcurrent runs CONFIG GET and typed reads against CONFIG SET (go test -race).
func TestConcurrent(t *testing.T) {
	c := newPermissive()
	var calls int
	c.OnChange("hz", func(string) { calls++ })
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if len(c.Get("*max*")) == 0 || c.Hz() < 1 || c.Port() != 6379 {
					t.Error("bad read")
					return
				}
			}
		}()
	}
	for i := range 200 {
		hz := "10" // the default: the first Set changes it to 20
		if i%2 == 0 {
			hz = "20"
		}
		if err := c.Set(pair("hz", hz), pair("repl-backlog-size", "1mb")); err != nil {
			t.Error(err)
		}
	}
	close(stop)
	wg.Wait()
	if calls != 200 {
		t.Errorf("%d listener calls, want 200", calls)
	}
}
