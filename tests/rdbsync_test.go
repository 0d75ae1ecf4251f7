package tests

import (
	"bytes"
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
