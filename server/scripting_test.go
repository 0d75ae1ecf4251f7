package server

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// waitBusy sends PING from its own connection until the server answers BUSY (a script is past
// busy-reply-threshold); the deadline only bounds a failure. PING locks no shard: a command
// that does (GET) and arrives before the script is busy waits for the script's shards — every
// shard on a script's first run — and runs once it ends.
func waitBusy(t *testing.T, rdb *redis.Client) error {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		err := rdb.Ping(ctx).Err()
		if err != nil && strings.HasPrefix(err.Error(), "BUSY ") {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the script never became busy")
	return nil
}

// scriptClient is a client of rdb's server for a script that runs until it is stopped: no read
// timeout (go-redis's default 3 s would give up on it) and no retry (a retried EVAL would be
// answered BUSY).
func scriptClient(t *testing.T, rdb *redis.Client) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: rdb.Options().Addr, ReadTimeout: -1, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	return c
}

// TestScriptBusyKill: a script running past busy-reply-threshold makes every other client's
// command answer BUSY (a readiness loop is not stalled by it: it runs on its own goroutine),
// SHUTDOWN without NOSAVE answers BUSY too, SCRIPT KILL stops it (its client gets the kill
// error), and commands run again after.
func TestScriptBusyKill(t *testing.T) {
	_, rdb := startInProcess(t, []string{"lua-time-limit", "50"})
	ctx := context.Background()
	if v, err := rdb.ConfigGet(ctx, "busy-reply-threshold").Result(); err != nil || v["busy-reply-threshold"] != "50" {
		t.Fatalf("CONFIG GET: %v %v", v, err)
	}
	done := make(chan error, 1)
	go func() { done <- scriptClient(t, rdb).Eval(ctx, "while true do end", nil).Err() }()
	busy := waitBusy(t, rdb)
	if busy.Error() != "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE." {
		t.Errorf("busy: %v", busy)
	}
	if err := rdb.Do(ctx, "SHUTDOWN").Err(); err == nil || !strings.HasPrefix(err.Error(), "BUSY ") {
		t.Errorf("SHUTDOWN while busy: %v", err)
	}
	if err := rdb.Do(ctx, "FUNCTION", "KILL").Err(); err == nil || !strings.HasPrefix(err.Error(), "BUSY ") && !strings.HasPrefix(err.Error(), "ERR unknown") {
		t.Errorf("FUNCTION KILL of a script: %v", err)
	}
	if err := rdb.ScriptKill(ctx).Err(); err != nil {
		t.Fatalf("SCRIPT KILL: %v", err)
	}
	if err := <-done; err == nil || !strings.HasPrefix(err.Error(), "ERR Script killed by user with SCRIPT KILL...") {
		t.Errorf("killed script's client: %v", err)
	}
	if err := rdb.ScriptKill(ctx).Err(); err == nil || err.Error() != "NOTBUSY No scripts in execution right now." {
		t.Errorf("SCRIPT KILL after: %v", err)
	}
	if err := rdb.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Errorf("SET after: %v", err)
	}
}

// TestScriptUnkillableShutdownNoSave: a busy script that has written cannot be killed
// (UNKILLABLE); SHUTDOWN NOSAVE ends the server anyway, the script stopped.
func TestScriptUnkillableShutdownNoSave(t *testing.T) {
	s, rdb := startInProcess(t, []string{"busy-reply-threshold", "50"})
	ctx := context.Background()
	done := make(chan error, 1)
	go func() {
		done <- scriptClient(t, rdb).Eval(ctx, "redis.call('set', KEYS[1], 1) while true do end", []string{"w"}).Err()
	}()
	waitBusy(t, rdb)
	err := rdb.ScriptKill(ctx).Err()
	if err == nil || !strings.HasPrefix(err.Error(), "UNKILLABLE Sorry the script already executed write commands") {
		t.Errorf("SCRIPT KILL: %v", err)
	}
	rdb.Do(ctx, "SHUTDOWN", "NOSAVE") // the connection closes: no reply
	ended := make(chan struct{})
	go func() {
		s.Wait()
		close(ended)
	}()
	select {
	case <-ended:
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not end after SHUTDOWN NOSAVE")
	}
	<-done
}

// TestScriptingInfo: INFO's scripting fields follow the script cache, and SCRIPT FLUSH
// empties it.
func TestScriptingInfo(t *testing.T) {
	_, rdb := startInProcess(t)
	ctx := context.Background()
	field := func(name string) string {
		info, err := rdb.Info(ctx, "memory").Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(info, "\r\n") {
			if v, ok := strings.CutPrefix(line, name+":"); ok {
				return v
			}
		}
		t.Fatalf("no %s", name)
		return ""
	}
	if err := rdb.Eval(ctx, "return 1", nil).Err(); err != nil {
		t.Fatal(err)
	}
	if err := rdb.ScriptLoad(ctx, "return 2").Err(); err != nil {
		t.Fatal(err)
	}
	if n := field("number_of_cached_scripts"); n != "2" {
		t.Errorf("number_of_cached_scripts %s", n)
	}
	if v := field("used_memory_scripts_eval"); v == "0" {
		t.Error("used_memory_scripts_eval 0")
	}
	if v, lua := field("used_memory_vm_eval"), field("used_memory_lua"); v == "0" || v != lua {
		t.Errorf("used_memory_vm_eval %s, used_memory_lua %s", v, lua)
	}
	rdb.ScriptFlush(ctx)
	if n := field("number_of_cached_scripts"); n != "0" {
		t.Errorf("after SCRIPT FLUSH: %s", n)
	}
}

// TestScriptWakesBlocked: a script's write serves a client blocked on the key, after the
// script; the script's commands count in commandstats, each as a call.
func TestScriptWakesBlocked(t *testing.T) {
	_, rdb := startInProcess(t)
	ctx := context.Background()
	got := make(chan []string, 1)
	go func() {
		v, _ := rdb.BLPop(ctx, 0, "q").Result()
		got <- v
	}()
	for {
		n, err := rdb.Do(ctx, "INFO", "clients").Text()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(n, "blocked_clients:1") {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := rdb.Eval(ctx, "redis.call('lpush', KEYS[1], 'a') return redis.call('lpush', KEYS[1], 'b')", []string{"q"}).Err(); err != nil {
		t.Fatal(err)
	}
	select {
	case v := <-got:
		if strings.Join(v, " ") != "q b" {
			t.Errorf("BLPOP: %q", v)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the blocked client was not served")
	}
	stats, err := rdb.Info(ctx, "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stats, "cmdstat_lpush:calls=2,") || !strings.Contains(stats, "cmdstat_eval:calls=1,") {
		t.Errorf("commandstats:\n%s", stats)
	}
}

// TestScriptRedisVersion: redis.REDIS_VERSION and REDIS_VERSION_NUM are the version INFO
// reports, the number as Redis packs it (0x00MMmmpp).
func TestScriptRedisVersion(t *testing.T) {
	if n := redisVersionNum("7.2.4"); n != 0x070204 {
		t.Errorf("redisVersionNum: %#x", n)
	}
	_, rdb := startInProcess(t)
	ctx := context.Background()
	v, err := rdb.Eval(ctx, "return {redis.REDIS_VERSION, redis.REDIS_VERSION_NUM}", nil).Slice()
	if err != nil || len(v) != 2 || v[0] != RedisVersion || v[1] != int64(redisVersionNum(RedisVersion)) {
		t.Errorf("%v %v", v, err)
	}
}

// TestBusyReplyThresholdConfig: busy-reply-threshold and its alias lua-time-limit are acted on
// when CONFIG SET changes them.
func TestBusyReplyThresholdConfig(t *testing.T) {
	s, rdb := startInProcess(t)
	ctx := context.Background()
	if got := s.scripting.scripts.BusyThreshold(); got != 5000 {
		t.Errorf("default %d", got)
	}
	for _, c := range []struct {
		name string
		ms   int64
	}{{"busy-reply-threshold", 1234}, {"lua-time-limit", 77}} {
		if err := rdb.ConfigSet(ctx, c.name, strconv.FormatInt(c.ms, 10)).Err(); err != nil {
			t.Fatal(err)
		}
		if got := s.scripting.scripts.BusyThreshold(); got != c.ms {
			t.Errorf("after CONFIG SET %s %d: %d", c.name, c.ms, got)
		}
	}
}
