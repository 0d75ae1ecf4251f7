package pubsub

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// recorder is a Subscriber that keeps its frames.
type recorder struct {
	mu     sync.Mutex
	frames []string
	n      atomic.Int64
}

func (r *recorder) Push(frame []byte) {
	r.mu.Lock()
	r.frames = append(r.frames, string(frame))
	r.mu.Unlock()
	r.n.Add(1)
}

func TestPublishFrames(t *testing.T) {
	h := New()
	a, b := &recorder{}, &recorder{}
	h.Subscribe([]byte("news"), a)
	h.PSubscribe([]byte("n*"), b)
	h.PSubscribe([]byte("x*"), b)
	h.SSubscribe([]byte("news"), b)
	if n := h.Publish([]byte("news"), []byte("hi")); n != 2 {
		t.Fatalf("Publish reached %d, want 2", n)
	}
	if n := h.SPublish([]byte("news"), []byte("s")); n != 1 {
		t.Fatalf("SPublish reached %d, want 1", n)
	}
	if want := "*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$2\r\nhi\r\n"; len(a.frames) != 1 || a.frames[0] != want {
		t.Fatalf("channel frames %q", a.frames)
	}
	want := []string{"*4\r\n$8\r\npmessage\r\n$2\r\nn*\r\n$4\r\nnews\r\n$2\r\nhi\r\n", "*3\r\n$8\r\nsmessage\r\n$4\r\nnews\r\n$1\r\ns\r\n"}
	if fmt.Sprint(b.frames) != fmt.Sprint(want) {
		t.Fatalf("pattern and shard frames %q", b.frames)
	}
	if h.NumChannels() != 1 || h.NumPat() != 2 || h.NumShardChannels() != 1 || h.NumSub([]byte("news")) != 1 || h.NumShardSub([]byte("news")) != 1 {
		t.Fatal("counts")
	}
	if got := h.Channels([]byte("n?ws")); len(got) != 1 || got[0] != "news" {
		t.Fatalf("Channels: %q", got)
	}
	h.Unsubscribe([]byte("news"), a)
	h.PUnsubscribe([]byte("n*"), b)
	h.PUnsubscribe([]byte("x*"), b)
	h.SUnsubscribe([]byte("news"), b)
	h.Unsubscribe([]byte("never"), a)
	if h.NumChannels() != 0 || h.NumPat() != 0 || h.NumShardChannels() != 0 || h.Publish([]byte("news"), nil) != 0 {
		t.Fatal("not empty after unsubscribing")
	}
}

// TestHubConcurrent runs subscribers, unsubscribers and publishers at once (go test -race):
// every message published while a subscriber stays subscribed reaches it, and the hub ends
// empty.
func TestHubConcurrent(t *testing.T) {
	h := New()
	const channels, churners, publishers, messages = 8, 8, 4, 2000
	stable := &recorder{}
	for i := range channels {
		h.Subscribe(fmt.Appendf(nil, "ch%d", i), stable)
	}
	h.PSubscribe([]byte("ch*"), stable)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := range churners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &recorder{}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				ch := fmt.Appendf(nil, "ch%d", (w+i)%channels)
				h.Subscribe(ch, r)
				h.PSubscribe([]byte("c?"+string(ch[2:])), r)
				h.SSubscribe(ch, r)
				h.Unsubscribe(ch, r)
				h.PUnsubscribe([]byte("c?"+string(ch[2:])), r)
				h.SUnsubscribe(ch, r)
				_ = h.Channels(nil)
			}
		}()
	}
	var pubs sync.WaitGroup
	for p := range publishers {
		pubs.Add(1)
		go func() {
			defer pubs.Done()
			for i := range messages {
				h.Publish(fmt.Appendf(nil, "ch%d", (p+i)%channels), []byte("m"))
			}
		}()
	}
	pubs.Wait()
	close(stop)
	wg.Wait()
	if got, want := stable.n.Load(), int64(2*publishers*messages); got != want {
		t.Fatalf("the stable subscriber got %d messages, want %d", got, want)
	}
	for i := range channels {
		h.Unsubscribe(fmt.Appendf(nil, "ch%d", i), stable)
	}
	h.PUnsubscribe([]byte("ch*"), stable)
	if h.NumChannels() != 0 || h.NumPat() != 0 || h.NumShardChannels() != 0 {
		t.Fatalf("hub not empty: %d %d %d", h.NumChannels(), h.NumPat(), h.NumShardChannels())
	}
}

// counter is a Subscriber that counts its frames.
type counter struct{ n atomic.Int64 }

func (c *counter) Push([]byte) { c.n.Add(1) }

func BenchmarkPublishToMany(b *testing.B) {
	h := New()
	for range 1000 {
		h.Subscribe([]byte("bench"), &counter{})
	}
	b.ReportAllocs()
	for b.Loop() {
		h.Publish([]byte("bench"), []byte("hello"))
	}
}
