package funclib

import (
	"bytes"
	"testing"

	"github.com/kvserver/kvserver/internal/redisref"
	"github.com/kvserver/kvserver/rdb"
	"github.com/kvserver/kvserver/scripting"
)

// The registry's FUNCTION DUMP is redis-server 7.0.15's byte for byte but for the footer's RDB
// version (11 here as Redis 7.2, 10 there, and so the CRC-64) and LZF's choices of back
// references (rdb/lzf.go hashes differently from liblzf: both decode alike), so the bytes are
// compared with rdbcompression no there and raw records here; redis-server's payload restores
// here, and ours is refused there for its version, as 7.0.15 refuses any RDB 11.
func TestDumpAgainstRedis(t *testing.T) {
	rc := redisref.Start(t)
	if r := rc.Do("CONFIG", "SET", "rdbcompression", "no"); r != "OK" {
		t.Fatalf("CONFIG SET: %v", r)
	}
	code := "#!lua name=mylib\nredis.register_function('myfunc', function(keys, args) return args[1] end)\n" +
		"redis.register_function{function_name='ro', callback=function() return 1 end, flags={'no-writes'}}"
	if r := rc.Do("FUNCTION", "LOAD", code); string(r.([]byte)) != "mylib" {
		t.Fatalf("redis-server FUNCTION LOAD: %v", r)
	}
	theirs, ok := rc.Do("FUNCTION", "DUMP").([]byte)
	if !ok {
		t.Fatal("redis-server FUNCTION DUMP failed")
	}
	e := scripting.New(scripting.Options{Version: "7.2.4", VersionNum: 0x070204})
	r := New(e)
	if _, err := r.Load([]byte(code), false); err != nil {
		t.Fatal(err)
	}
	ours := r.Dump()
	if raw := rdb.AppendFunction(nil, r.Codes()[0], false); !bytes.Equal(raw, theirs[:len(theirs)-10]) {
		t.Errorf("FUNCTION DUMP:\nours           % x\nredis-server's % x", raw, theirs)
	}
	if codes, err := rdb.DecodeFunctionDump(ours); err != nil || len(codes) != 1 || string(codes[0]) != code {
		t.Errorf("our payload decodes to %q %v", codes, err)
	}
	if ours[len(ours)-10] != 11 || theirs[len(theirs)-10] != 10 {
		t.Errorf("versions %d and %d", ours[len(ours)-10], theirs[len(theirs)-10])
	}

	r2 := New(e)
	check(t, "RESTORE of redis-server's payload", r2.Restore(theirs, Append), "")
	if f := r2.Lookup([]byte("ro")); f == nil || f.Flags != scripting.NoWrites {
		t.Errorf("restored function %+v", f)
	}
	if err, _ := rc.Do("FUNCTION", "RESTORE", string(ours), "REPLACE").(error); err == nil ||
		err.Error() != "ERR DUMP payload version or checksum are wrong" {
		t.Errorf("redis-server 7.0.15 RESTORE of an RDB 11 payload: %v", err)
	}
}
