package tests

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestPersistRedisCliRdb: `redis-cli --rdb FILE` (REPLCONF rdb-only 1, then SYNC) receives a
// whole RDB file, in the disk form ($<length>, repl-diskless-sync no) and the diskless one
// ($EOF:<mark>, Redis 7's default): the file decodes to the keys written and, with its header
// set to version 10, passes redis-check-rdb 7.0.15.
func TestPersistRedisCliRdb(t *testing.T) {
	t.Parallel()
	data := pdata{}
	data.set(0, "a", "1", -1)
	data.set(0, "long", strings.Repeat("compressible ", 50), -1)
	data.set(1, "ttl", "x", time.Now().Add(time.Hour).UnixMilli())
	data.set(9, "bin\x00\xff", "\r\n\x00", -1)
	for _, diskless := range []string{"no", "yes"} {
		t.Run("diskless-"+diskless, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t, "--repl-diskless-sync", diskless, "--repl-diskless-sync-delay", "0")
			writeData(t, srv.RawConn(t), data)
			path := filepath.Join(t.TempDir(), "out.rdb")
			cli := exec.Command("redis-cli", "-h", "127.0.0.1", "-p", strconv.Itoa(srv.Port), "--rdb", path)
			out, err := cli.CombinedOutput()
			if err != nil || !bytes.Contains(out, []byte("Transfer finished with success")) {
				t.Fatalf("redis-cli --rdb: %v\n%s", err, out)
			}
			file, _ := decodeFile(t, path)
			diffData(t, "redis-cli --rdb's file", file, data)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			v10 := filepath.Join(t.TempDir(), "v10.rdb")
			if err := os.WriteFile(v10, setVersion10(t, b), 0o644); err != nil {
				t.Fatal(err)
			}
			if check, err := exec.Command("redis-check-rdb", v10).CombinedOutput(); err != nil || !bytes.Contains(check, []byte("RDB looks OK")) {
				t.Errorf("redis-check-rdb: %v\n%s", err, check)
			}
			// The server goes on serving after the transfer.
			if r := srv.RawConn(t).Do("GET", "a"); r.Str != "1" {
				t.Errorf("GET a after the transfer: %s", formatReply(r, false))
			}
		})
	}
}

// TestPersistRedisCliRdbPointInTime: the file redis-cli --rdb receives is the keyspace of the
// instant the transfer began, in both forms, though writes (SET, DEL, new keys) go on while a
// slow snapshot (rdb-key-save-delay) is sent; INFO reports the snapshot running meanwhile.
func TestPersistRedisCliRdbPointInTime(t *testing.T) {
	t.Parallel()
	for _, diskless := range []string{"no", "yes"} {
		t.Run("diskless-"+diskless, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t, "--repl-diskless-sync", diskless, "--repl-diskless-sync-delay", "0",
				"--rdb-key-save-delay", saveDelay(1000))
			c := srv.RawConn(t)
			before := pdata{}
			for i := 0; i < 1500; i++ {
				before.set(i%2, fmt.Sprintf("untouched:%04d", i), "v0", -1)
			}
			for i := 0; i < 300; i++ {
				before.set(2, fmt.Sprintf("changed:%03d", i), "v0", -1)
			}
			writeData(t, c, before)
			path := filepath.Join(t.TempDir(), "out.rdb")
			cli := exec.Command("redis-cli", "-h", "127.0.0.1", "-p", strconv.Itoa(srv.Port), "--rdb", path)
			var out bytes.Buffer
			cli.Stdout, cli.Stderr = &out, &out
			if err := cli.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cli.Wait() }()
			// The snapshot begins when SYNC arrives, or for redis-server (whose diskless transfer
			// waits for its replication cron) when INFO says so.
			waitFor(t, 10*time.Second, "no snapshot running for redis-cli --rdb", func() bool {
				if srv.Info(t, "persistence")["rdb_bgsave_in_progress"] == "1" {
					return true
				}
				return !targetRedis && strings.Contains(c.Do("CLIENT", "LIST").Str, " cmd=sync ")
			})
			// As in Redis, the snapshot of a SYNC is a background save for INFO.
			if n := infoInt(t, srv, "persistence", "rdb_bgsave_in_progress"); n != 1 {
				t.Errorf("rdb_bgsave_in_progress:%d while the snapshot of a SYNC runs, want 1", n)
			}
			var buf []byte
			buf = appendCommand(buf, "SELECT", "2")
			for i := 0; i < 300; i++ {
				k := fmt.Sprintf("changed:%03d", i)
				if i%3 == 0 {
					buf = appendCommand(buf, "DEL", k)
				} else {
					buf = appendCommand(buf, "SET", k, "v1")
				}
				buf = appendCommand(buf, "SET", fmt.Sprintf("new:%03d", i), "v1")
			}
			c.Send(buf)
			for i := 0; i < 601; i++ {
				if r := c.ReadReply(); r.Kind == '-' {
					t.Fatalf("write %d during the transfer: %s", i, formatReply(r, false))
				}
			}
			// One snapshot at a time, as Redis has one child: BGSAVE waits for none.
			expectStatus(t, "BGSAVE during the transfer", c.Do("BGSAVE"), "-ERR Background save already in progress")
			select {
			case err := <-done:
				t.Fatalf("the transfer ended before the writes did (%v): nothing was tested\n%s", err, out.String())
			default:
			}
			select {
			case err := <-done:
				if err != nil || !bytes.Contains(out.Bytes(), []byte("Transfer finished with success")) {
					t.Fatalf("redis-cli --rdb: %v\n%s", err, out.String())
				}
			case <-time.After(30 * time.Second):
				cli.Process.Kill()
				t.Fatalf("redis-cli --rdb still running after 30 s:\n%s", out.String())
			}
			file, _ := decodeFile(t, path)
			diffData(t, "redis-cli --rdb's file", file, before)
		})
	}
}
