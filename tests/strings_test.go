package tests

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestStringMaxSize: a string may be proto-max-bulk-len (512 MB) long. SETRANGE at offset
// 512 MB - 1 makes one, zero-filled; one byte more, by SETRANGE or APPEND, is refused. (In a
// Go test rather than strings.txt: making the value takes long enough for redis-cli to print
// its time.)
func TestStringMaxSize(t *testing.T) {
	t.Parallel()
	const max = 512 << 20
	srv := startServer(t)
	ctx := context.Background()
	// Making and zeroing 512 MB takes seconds on a loaded machine, and more under the race
	// detector: wait for it longer than the harness's usual deadline.
	rc := srv.Client(t, func(o *redis.Options) { o.ReadTimeout, o.WriteTimeout = 2*time.Minute, 2*time.Minute })
	const tooLong = "ERR string exceeds maximum allowed size (proto-max-bulk-len)"
	for _, key := range []string{"big:new", "big:old"} {
		if key == "big:old" {
			if err := rc.Set(ctx, key, "abc", 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := rc.SetRange(ctx, key, max-1, "x").Result(); err != nil || n != max {
			t.Fatalf("SETRANGE %s %d x = %d, %v; want %d", key, max-1, n, err, max)
		}
		if n, err := rc.StrLen(ctx, key).Result(); err != nil || n != max {
			t.Fatalf("STRLEN %s = %d, %v", key, n, err)
		}
		want := "\x00\x00x"
		if key == "big:old" {
			want = "abc\x00\x00"
			if got, err := rc.GetRange(ctx, key, max-3, -1).Result(); err != nil || got != "\x00\x00x" {
				t.Fatalf("GETRANGE %s tail = %q, %v", key, got, err)
			}
		}
		start := int64(max - 3)
		if key == "big:old" {
			start = 0
		}
		if got, err := rc.GetRange(ctx, key, start, start+4).Result(); err != nil || !strings.HasPrefix(got, want) {
			t.Fatalf("GETRANGE %s %d %d = %q, %v; want %q", key, start, start+4, got, err, want)
		}
		if err := rc.SetRange(ctx, key, max, "x").Err(); err == nil || err.Error() != tooLong {
			t.Fatalf("SETRANGE %s %d x: %v", key, max, err)
		}
		if err := rc.Append(ctx, key, "y").Err(); err == nil || err.Error() != tooLong {
			t.Fatalf("APPEND %s y: %v", key, err)
		}
		if n, err := rc.SetRange(ctx, key, max-1, "z").Result(); err != nil || n != max {
			t.Fatalf("SETRANGE %s at the end again = %d, %v", key, n, err)
		}
		if n, err := rc.Del(ctx, key).Result(); err != nil || n != 1 {
			t.Fatalf("DEL %s = %d, %v", key, n, err)
		}
	}
}
