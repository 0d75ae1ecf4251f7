package tests

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestRedisCLIOneShot runs redis-cli with a command on its command line, as scripts do.
func TestRedisCLIOneShot(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	for _, step := range []struct {
		args []string
		want string
	}{
		{[]string{"PING"}, "PONG\n"},
		{[]string{"SET", "cli:a", "hello world"}, "OK\n"},
		{[]string{"GET", "cli:a"}, "hello world\n"},
		{[]string{"--no-raw", "GET", "cli:a"}, "\"hello world\"\n"},
		{[]string{"EXISTS", "cli:a", "cli:b"}, "1\n"},
		{[]string{"--no-raw", "EXISTS", "cli:a"}, "(integer) 1\n"},
		{[]string{"GET", "cli:b"}, "\n"},
		{[]string{"--no-raw", "GET", "cli:b"}, "(nil)\n"},
		{[]string{"-n", "3", "SET", "cli:a", "db3"}, "OK\n"},
		{[]string{"-n", "3", "GET", "cli:a"}, "db3\n"},
		{[]string{"GET", "cli:a"}, "hello world\n"},
		{[]string{"-3", "--no-raw", "GET", "cli:b"}, "(nil)\n"},
		{[]string{"-3", "--no-raw", "CONFIG", "GET", "maxmemory"}, "1# \"maxmemory\" => \"0\"\n"},
		{[]string{"DEL", "cli:a"}, "1\n"},
		{[]string{"DBSIZE"}, "0\n"},
	} {
		if got := srv.CLI(t, step.args...); got != step.want {
			t.Errorf("redis-cli %s: got %q, want %q", strings.Join(step.args, " "), got, step.want)
		}
	}
	// -x reads the last argument from standard input.
	if got := srv.CLIInput(t, strings.NewReader("from\nstdin"), "-x", "SET", "cli:x"); got != "OK\n" {
		t.Errorf("redis-cli -x SET: %q", got)
	}
	if got := srv.CLI(t, "--no-raw", "GET", "cli:x"); got != "\"from\\nstdin\"\n" {
		t.Errorf("GET after -x: %q", got)
	}
	// An error reply is printed as such.
	if got := srv.CLI(t, "--no-raw", "SET", "cli:x", "v", "EX", "0"); got != "(error) ERR invalid expire time in 'set' command\n" {
		t.Errorf("error reply: %q", got)
	}
}

// TestRedisCLIPiped feeds commands to redis-cli's standard input, one per line.
func TestRedisCLIPiped(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	if got, want := srv.CLIInput(t, strings.NewReader("SET a 1\nGET a\n")), "OK\n1\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	in := "SET \"key with space\" \"v\\x00\"\nGET \"key with space\"\nSELECT 1\nGET a\nSELECT 0\nGET a\nDEL a nokey\nGET a\n"
	want := "OK\n\"v\\x00\"\nOK\n(nil)\nOK\n\"1\"\n(integer) 1\n(nil)\n"
	if got := srv.CLIInput(t, strings.NewReader(in), "--no-raw"); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestGoRedisPipeline sends pipelines of 1,000 commands through go-redis, in RESP2 and RESP3,
// and checks every reply.
func TestGoRedisPipeline(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	for _, proto := range []int{2, 3} {
		t.Run(fmt.Sprintf("resp%d", proto), func(t *testing.T) {
			ctx := context.Background()
			rc := srv.Client(t, withProtocol(proto))
			key := func(i int) string { return fmt.Sprintf("pipe%d:%04d", proto, i) }
			val := func(i int) string { return strings.Repeat(strconv.Itoa(i%10), i%200) }

			pipe := rc.Pipeline()
			sets := make([]*redis.StatusCmd, 1000)
			for i := range sets {
				sets[i] = pipe.Set(ctx, key(i), val(i), 0)
			}
			if _, err := pipe.Exec(ctx); err != nil {
				t.Fatalf("SET pipeline: %v", err)
			}
			for i, c := range sets {
				if c.Val() != "OK" {
					t.Fatalf("SET %d: %q", i, c.Val())
				}
			}

			// A mixed pipeline: GET, EXISTS, DEL, GET of a deleted key, SET with options.
			pipe = rc.Pipeline()
			var cmds []func() error
			for i := 0; i < 1000; i += 4 {
				i := i
				get := pipe.Get(ctx, key(i))
				exists := pipe.Exists(ctx, key(i), key(i+1), "pipe:nokey")
				del := pipe.Del(ctx, key(i+2))
				gone := pipe.Get(ctx, key(i+2))
				cmds = append(cmds, func() error {
					if get.Val() != val(i) {
						return fmt.Errorf("GET %s = %q, want %q", key(i), get.Val(), val(i))
					}
					if exists.Val() != 2 {
						return fmt.Errorf("EXISTS = %d, want 2", exists.Val())
					}
					if del.Val() != 1 {
						return fmt.Errorf("DEL = %d, want 1", del.Val())
					}
					if !errors.Is(gone.Err(), redis.Nil) {
						return fmt.Errorf("GET of a deleted key: %v %q", gone.Err(), gone.Val())
					}
					return nil
				})
			}
			_, err := pipe.Exec(ctx)
			if err != nil && !errors.Is(err, redis.Nil) {
				t.Fatalf("mixed pipeline: %v", err)
			}
			for _, check := range cmds {
				if err := check(); err != nil {
					t.Fatal(err)
				}
			}
			if n := rc.DBSize(ctx).Val(); n < 750 {
				t.Errorf("DBSIZE %d after deleting 250 of this pipeline's 1000 keys", n)
			}
		})
	}
}

// TestGoRedisRESP3 connects with Protocol 3: HELLO's fields, and map replies read as maps.
func TestGoRedisRESP3(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	ctx := context.Background()
	rc := srv.Client(t, withProtocol(3))

	hello, err := rc.Do(ctx, "HELLO", "3").Result()
	if err != nil {
		t.Fatalf("HELLO 3: %v", err)
	}
	m, ok := hello.(map[interface{}]interface{})
	if !ok {
		t.Fatalf("HELLO 3 answered %T, want a map", hello)
	}
	want := map[string]interface{}{"server": "redis", "proto": int64(3), "mode": "standalone", "role": "master"}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("HELLO field %s = %#v, want %#v", k, m[k], v)
		}
	}
	if id, ok := m["id"].(int64); !ok || id <= 0 {
		t.Errorf("HELLO id = %#v, want a positive integer", m["id"])
	}
	if mods, ok := m["modules"].([]interface{}); !ok || len(mods) != 0 {
		t.Errorf("HELLO modules = %#v, want an empty array", m["modules"])
	}
	if v := srv.Info(t, "server")["redis_version"]; m["version"] != v {
		t.Errorf("HELLO version = %#v, INFO redis_version = %q", m["version"], v)
	}
	if len(m) != 7 {
		t.Errorf("HELLO has %d fields, want 7: %v", len(m), m)
	}

	// CONFIG GET answers a map in RESP3.
	cfg, err := rc.Do(ctx, "CONFIG", "GET", "maxmemory").Result()
	if err != nil {
		t.Fatalf("CONFIG GET: %v", err)
	}
	if cm, ok := cfg.(map[interface{}]interface{}); !ok || len(cm) != 1 || cm["maxmemory"] != "0" {
		t.Errorf("CONFIG GET maxmemory answered %#v, want map[maxmemory:0]", cfg)
	}
	// Glob patterns, read through go-redis's typed helper in both protocols.
	for _, c := range []*redis.Client{rc, srv.Client(t)} {
		got, err := c.ConfigGet(ctx, "maxmemory*").Result()
		if err != nil {
			t.Fatalf("CONFIG GET maxmemory*: %v", err)
		}
		for _, name := range []string{"maxmemory", "maxmemory-policy", "maxmemory-samples"} {
			if _, ok := got[name]; !ok {
				t.Errorf("CONFIG GET maxmemory* (RESP%d) lacks %s: %v", c.Options().Protocol, name, got)
			}
		}
		for name := range got {
			if !strings.HasPrefix(name, "maxmemory") {
				t.Errorf("CONFIG GET maxmemory* answered %s", name)
			}
		}
		if got["maxmemory-policy"] != "noeviction" {
			t.Errorf("maxmemory-policy = %q, want noeviction", got["maxmemory-policy"])
		}
	}

	// Plain replies decode as in RESP2: nil, strings, integers.
	if err := rc.Get(ctx, "resp3:missing").Err(); !errors.Is(err, redis.Nil) {
		t.Errorf("GET of a missing key: %v, want redis.Nil", err)
	}
	if err := rc.Set(ctx, "resp3:k", "v", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	if v := rc.Get(ctx, "resp3:k").Val(); v != "v" {
		t.Errorf("GET = %q", v)
	}
	if old, err := rc.SetArgs(ctx, "resp3:k", "w", redis.SetArgs{Get: true, KeepTTL: true}).Result(); err != nil || old != "v" {
		t.Errorf("SET GET KEEPTTL = %q, %v", old, err)
	}
	// TIME: seconds and microseconds of now.
	now, err := rc.Time(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(now); d < -time.Minute || d > time.Minute {
		t.Errorf("TIME = %v, %v away from this machine's clock", now, d)
	}
	if n, err := rc.Do(ctx, "COMMAND", "COUNT").Int64(); err != nil || n <= 0 {
		t.Errorf("COMMAND COUNT = %d, %v", n, err)
	}
}

// TestInfoFields: the INFO fields that clients, exporters and the tests rely on.
func TestInfoFields(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	info := srv.Info(t, "everything")
	common := []string{
		"redis_version", "redis_mode", "process_id", "run_id", "tcp_port", "uptime_in_seconds", "hz",
		"configured_hz", "executable", "config_file",
		"connected_clients", "blocked_clients", "maxclients",
		"used_memory", "used_memory_human", "used_memory_rss", "used_memory_peak", "used_memory_dataset",
		"maxmemory", "maxmemory_policy", "mem_fragmentation_ratio", "mem_allocator",
		"total_connections_received", "total_commands_processed", "instantaneous_ops_per_sec",
		"rejected_connections", "keyspace_hits", "keyspace_misses", "expired_keys", "evicted_keys",
		"role", "connected_slaves",
	}
	for _, f := range common {
		if _, ok := info[f]; !ok {
			t.Errorf("INFO everything lacks %s", f)
		}
	}
	checks := map[string]string{
		"tcp_port":   strconv.Itoa(srv.Port),
		"process_id": strconv.Itoa(srv.Pid()),
		"redis_mode": "standalone",
		"role":       "master",
		"maxclients": "10000",
	}
	for f, want := range checks {
		if info[f] != want {
			t.Errorf("INFO %s = %q, want %q", f, info[f], want)
		}
	}
	if !targetRedis {
		for _, f := range []string{"kvserver_version", "client_query_buffer_limit_disconnections"} {
			if _, ok := info[f]; !ok {
				t.Errorf("INFO everything lacks %s", f)
			}
		}
		if v := info["redis_version"]; v != "7.2.4" {
			t.Errorf("redis_version = %q, want 7.2.4", v)
		}
	}
	// The keyspace section counts keys and expires per database.
	rc := srv.Client(t)
	ctx := context.Background()
	rc.Set(ctx, "info:a", "1", 0)
	rc.Set(ctx, "info:b", "1", time.Hour)
	if got := srv.Info(t, "keyspace")["db0"]; !strings.HasPrefix(got, "keys=2,expires=1,avg_ttl=") {
		t.Errorf("INFO keyspace db0 = %q, want keys=2,expires=1,avg_ttl=…", got)
	}
	// An unknown section is empty, not an error.
	c := srv.RawConn(t)
	if r := c.Do("INFO", "nosuchsection"); r.Kind != '$' || strings.TrimSpace(r.Str) != "" {
		t.Errorf("INFO nosuchsection = %s", formatReply(r, false))
	}
}

// TestClientListFilters: CLIENT LIST TYPE lists the clients of one type (a subscriber is of type
// pubsub, not normal), and CLIENT LIST ID the given ids in argument order, skipping unknown ones;
// a bad type, a bad id or another argument is Redis's error. (Not a command file: redis-cli
// prints CLIENT LIST's replies raw, errors included, so its run of a file would differ.)
func TestClientListFilters(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	ctx := context.Background()
	rc := srv.Client(t)
	sub := srv.Client(t)
	ps := sub.Subscribe(ctx, "filters")
	defer ps.Close()
	if _, err := ps.Receive(ctx); err != nil {
		t.Fatalf("SUBSCRIBE: %v", err)
	}
	myID, err := rc.ClientID(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	ids := func(list string) []string {
		var out []string
		for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
			if f := strings.Fields(line); len(f) > 0 {
				out = append(out, strings.TrimPrefix(f[0], "id="))
			}
		}
		return out
	}
	list := func(args ...any) string {
		s, err := rc.Do(ctx, append([]any{"client", "list"}, args...)...).Text()
		if err != nil {
			t.Fatalf("CLIENT LIST %v: %v", args, err)
		}
		return s
	}
	pubsub := list("type", "pubsub")
	if got := ids(pubsub); len(got) != 1 || got[0] == strconv.FormatInt(myID, 10) || !strings.Contains(pubsub, "sub=1") {
		t.Errorf("TYPE pubsub listed %v:\n%s", got, pubsub)
	}
	normal := ids(list("TYPE", "Normal"))
	if len(normal) != 1 || normal[0] != strconv.FormatInt(myID, 10) {
		t.Errorf("TYPE normal listed %v, want only %d", normal, myID)
	}
	if got := list("type", "replica"); got != "" {
		t.Errorf("TYPE replica listed %q", got)
	}
	subID := ids(pubsub)[0]
	me := strconv.FormatInt(myID, 10)
	if got := ids(list("id", subID, "999999", me, subID)); strings.Join(got, " ") != subID+" "+me+" "+subID {
		t.Errorf("ID %s 999999 %s %s listed %v", subID, me, subID, got)
	}
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{"type", "bogus"}, "ERR Unknown client type 'bogus'"},
		{[]any{"id", "abc"}, "ERR Invalid client ID"},
		{[]any{"id", "1", "x"}, "ERR Invalid client ID"},
		{[]any{"id"}, "ERR syntax error"},
		{[]any{"foo"}, "ERR syntax error"},
	} {
		err := rc.Do(ctx, append([]any{"client", "list"}, tc.args...)...).Err()
		if err == nil || err.Error() != tc.want {
			t.Errorf("CLIENT LIST %v: %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestClientInfoCmd: CLIENT INFO and CLIENT LIST name the caller's running command in `cmd=`,
// and inside EXEC that is exec (Redis's c->lastcmd), not the queued command.
func TestClientInfoCmd(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	ctx := context.Background()
	rc := srv.Client(t)
	field := func(line string) string {
		for _, f := range strings.Fields(line) {
			if strings.HasPrefix(f, "cmd=") {
				return f
			}
		}
		return ""
	}
	line, err := rc.Do(ctx, "client", "info").Text()
	if err != nil || field(line) != "cmd=client|info" {
		t.Errorf("CLIENT INFO: %q (%v)", field(line), err)
	}
	list, err := rc.Do(ctx, "client", "list").Text()
	// This connection's line: another (the harness's probe, closing) may come first.
	own := ""
	if id := strings.Fields(line); len(id) > 0 {
		for _, l := range strings.Split(list, "\n") {
			if strings.HasPrefix(l, id[0]+" ") {
				own = l
			}
		}
	}
	if err != nil || field(own) != "cmd=client|list" {
		t.Errorf("CLIENT LIST: %q (%v) in %q", field(own), err, list)
	}
	var inTx *redis.Cmd
	if _, err := rc.TxPipelined(ctx, func(p redis.Pipeliner) error {
		inTx = p.Do(ctx, "client", "info")
		return nil
	}); err != nil {
		t.Fatalf("MULTI CLIENT INFO EXEC: %v", err)
	}
	if got := field(inTx.Val().(string)); got != "cmd=exec" {
		t.Errorf("CLIENT INFO inside EXEC: %q, want cmd=exec", got)
	}
}
