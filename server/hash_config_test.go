package server

import (
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/object"
)

// TestHashConfig: CONFIG SET of hash-max-listpack-entries/-value (or their ziplist aliases)
// moves the points where new writes convert a hash. Not parallel: the limits are the
// process's, as they are the server's in Redis.
func TestHashConfig(t *testing.T) {
	s := newFakeClockServer(t, newFakeClock())
	t.Cleanup(func() { hashval.SetLimits(hashval.DefaultMaxListpackEntries, hashval.DefaultMaxListpackValue) })
	encodingAfter := func(fields, valueLen int) string {
		a := alloc.MustNewArena(1 << 24)
		defer a.Close()
		rec, err := hashval.New(a, []byte("h"), 0)
		if err != nil {
			t.Fatal(err)
		}
		v := make([]byte, valueLen)
		for i := range fields {
			if _, err := hashval.Set(a, rec, []byte{'f', byte('a' + i)}, v); err != nil {
				t.Fatal(err)
			}
		}
		return object.EncodingOf(a, rec).Name()
	}
	if got := encodingAfter(3, 64); got != "listpack" {
		t.Fatalf("defaults: %s", got)
	}
	if err := s.cfg.Set([2]string{"hash-max-ziplist-entries", "2"}, [2]string{"hash-max-listpack-value", "1kb"}); err != nil {
		t.Fatal(err)
	}
	if got := encodingAfter(2, 1024); got != "listpack" {
		t.Fatalf("2 fields of 1024 bytes within 2 and 1kb: %s", got)
	}
	if got := encodingAfter(3, 1); got != "hashtable" {
		t.Fatalf("3 fields over 2: %s", got)
	}
	if got := encodingAfter(1, 1025); got != "hashtable" {
		t.Fatalf("1025 bytes over 1kb: %s", got)
	}
	if err := s.cfg.Set([2]string{"hash-max-listpack-entries", "512"}, [2]string{"hash-max-ziplist-value", "64"}); err != nil {
		t.Fatal(err)
	}
	if got := encodingAfter(3, 65); got != "hashtable" {
		t.Fatalf("back to defaults, 65 bytes: %s", got)
	}
	if got := encodingAfter(3, 64); got != "listpack" {
		t.Fatalf("back to defaults, 64 bytes: %s", got)
	}
}
