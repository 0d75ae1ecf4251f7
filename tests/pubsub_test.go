package tests

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Pub/sub (issue 19): SUBSCRIBE and friends, PUBLISH, PUBSUB, RESP2's subscribed mode and
// RESP3's pushes, delivery to parked clients, the pubsub output limit, INFO and CLIENT LIST.

// numSub is PUBSUB NUMSUB's count for channel.
func numSub(t *testing.T, rdb *redis.Client, channel string) int64 {
	t.Helper()
	m, err := rdb.PubSubNumSub(context.Background(), channel).Result()
	if err != nil {
		t.Fatal(err)
	}
	return m[channel]
}

func TestPubSubGoRedis(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	for _, proto := range []int{2, 3} {
		t.Run(fmt.Sprintf("RESP%d", proto), func(t *testing.T) {
			ctx := context.Background()
			rdb := srv.Client(t, withProtocol(proto))
			pub := srv.Client(t)
			ch := fmt.Sprintf("gr%d:news", proto)
			sub := rdb.Subscribe(ctx, ch)
			defer sub.Close()
			if _, err := sub.Receive(ctx); err != nil { // the confirmation
				t.Fatal(err)
			}
			psub := rdb.PSubscribe(ctx, fmt.Sprintf("gr%d:*", proto))
			defer psub.Close()
			if _, err := psub.Receive(ctx); err != nil {
				t.Fatal(err)
			}
			if n := pub.Publish(ctx, ch, "hello").Val(); n != 2 {
				t.Fatalf("PUBLISH reached %d, want 2 (a channel and a pattern subscriber)", n)
			}
			m, err := sub.ReceiveMessage(ctx)
			if err != nil || m.Channel != ch || m.Payload != "hello" || m.Pattern != "" {
				t.Fatalf("channel message: %+v %v", m, err)
			}
			pm, err := psub.ReceiveMessage(ctx)
			if err != nil || pm.Channel != ch || pm.Payload != "hello" || pm.Pattern != fmt.Sprintf("gr%d:*", proto) {
				t.Fatalf("pattern message: %+v %v", pm, err)
			}
			// A binary message arrives unchanged.
			bin := "a\x00b\r\n\xff"
			pub.Publish(ctx, ch, bin)
			if m, err := sub.ReceiveMessage(ctx); err != nil || m.Payload != bin {
				t.Fatalf("binary message: %+v %v", m, err)
			}
			if err := sub.Unsubscribe(ctx, ch); err != nil {
				t.Fatal(err)
			}
			waitFor(t, ioTimeout, "NUMSUB 0 after UNSUBSCRIBE", func() bool { return numSub(t, pub, ch) == 0 })
		})
	}
}

// TestPubSubRESP2Frames checks the bytes of RESP2's subscribed mode.
func TestPubSubRESP2Frames(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	pub := srv.RawConn(t)
	expect := func(r *Reply, want string) {
		t.Helper()
		if got := strings.TrimRight(formatReply(r, false), "\n"); got != want {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
	}
	expect(c.Do("UNSUBSCRIBE"), "1) \"unsubscribe\"\n2) (nil)\n3) (integer) 0")
	c.SendString("SUBSCRIBE r2:a r2:b\r\n")
	expect(c.ReadReply(), "1) \"subscribe\"\n2) \"r2:a\"\n3) (integer) 1")
	expect(c.ReadReply(), "1) \"subscribe\"\n2) \"r2:b\"\n3) (integer) 2")
	expect(c.Do("PSUBSCRIBE", "r2:*"), "1) \"psubscribe\"\n2) \"r2:*\"\n3) (integer) 3")
	expect(c.Do("SSUBSCRIBE", "r2:s"), "1) \"ssubscribe\"\n2) \"r2:s\"\n3) (integer) 1")
	expect(c.Do("PING"), "1) \"pong\"\n2) \"\"")
	expect(c.Do("PING", "hi"), "1) \"pong\"\n2) \"hi\"")
	expect(c.Do("GET", "k"), "(error) ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context")
	expect(c.Do("CLIENT", "ID"), "(error) ERR Can't execute 'client|id': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context")
	expect(c.Do("GET"), "(error) ERR wrong number of arguments for 'get' command")

	if r := pub.Do("PUBLISH", "r2:a", "m1"); r.Int != 2 {
		t.Fatalf("PUBLISH r2:a: %s", formatReply(r, false))
	}
	expect(c.ReadReply(), "1) \"message\"\n2) \"r2:a\"\n3) \"m1\"")
	expect(c.ReadReply(), "1) \"pmessage\"\n2) \"r2:*\"\n3) \"r2:a\"\n4) \"m1\"")
	if r := pub.Do("SPUBLISH", "r2:s", "m2"); r.Int != 1 {
		t.Fatalf("SPUBLISH r2:s: %s", formatReply(r, false))
	}
	expect(c.ReadReply(), "1) \"smessage\"\n2) \"r2:s\"\n3) \"m2\"")
	// Shard channels are a namespace of their own.
	if r := pub.Do("PUBLISH", "r2:s", "m3"); r.Int != 1 {
		t.Fatalf("PUBLISH r2:s reached %d, want the pattern only", r.Int)
	}
	expect(c.ReadReply(), "1) \"pmessage\"\n2) \"r2:*\"\n3) \"r2:s\"\n4) \"m3\"")

	expect(pub.Do("PUBSUB", "NUMSUB", "r2:a", "r2:s"), "1) \"r2:a\"\n2) (integer) 1\n3) \"r2:s\"\n4) (integer) 0")
	expect(pub.Do("PUBSUB", "SHARDNUMSUB", "r2:s"), "1) \"r2:s\"\n2) (integer) 1")
	if r := pub.Do("PUBSUB", "CHANNELS", "r2:*"); len(r.Elems) != 2 || r.Elems[0].Str == r.Elems[1].Str ||
		!strings.HasPrefix(r.Elems[0].Str, "r2:") || !strings.HasPrefix(r.Elems[1].Str, "r2:") {
		t.Fatalf("PUBSUB CHANNELS r2:*: %s", formatReply(r, false)) // in no particular order
	}
	expect(pub.Do("PUBSUB", "SHARDCHANNELS"), "1) \"r2:s\"")
	expect(pub.Do("PUBSUB", "NUMPAT"), "(integer) 1")

	expect(c.Do("UNSUBSCRIBE", "r2:a", "r2:nope"), "1) \"unsubscribe\"\n2) \"r2:a\"\n3) (integer) 2")
	expect(c.ReadReply(), "1) \"unsubscribe\"\n2) \"r2:nope\"\n3) (integer) 2")
	expect(c.Do("SUNSUBSCRIBE"), "1) \"sunsubscribe\"\n2) \"r2:s\"\n3) (integer) 0")
	// RESET leaves subscribed mode and every subscription, without a reply for each.
	expect(c.Do("RESET"), "RESET")
	expect(c.Do("PING"), "PONG")
	expect(pub.Do("PUBSUB", "NUMSUB", "r2:b"), "1) \"r2:b\"\n2) (integer) 0")
	expect(pub.Do("PUBSUB", "NUMPAT"), "(integer) 0")
	expect(pub.Do("PUBLISH", "r2:b", "x"), "(integer) 0")
}

// TestPubSubRESP3Pushes: RESP3 confirmations and messages are pushes, and a subscribed RESP3
// client runs any command, its replies never cut by a push.
func TestPubSubRESP3Pushes(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	pub := srv.RawConn(t)
	c.Do("HELLO", "3")
	c.SendString("SUBSCRIBE r3:a\r\n")
	confirm := ">3\r\n$9\r\nsubscribe\r\n$4\r\nr3:a\r\n:1\r\n"
	if got := string(c.ReadN(len(confirm))); got != confirm {
		t.Fatalf("subscribe push: %q", got)
	}
	if r := c.Do("SET", "r3:k", "v"); r.Str != "OK" {
		t.Fatalf("SET while subscribed: %s", formatReply(r, false))
	}
	pub.Do("PUBLISH", "r3:a", "hello")
	want := ">3\r\n$7\r\nmessage\r\n$4\r\nr3:a\r\n$5\r\nhello\r\n"
	if got := string(c.ReadN(len(want))); got != want {
		t.Fatalf("message push: %q", got)
	}
	// Many messages while a pipeline of GETs is answered: every frame stays whole.
	big := strings.Repeat("v", 3000)
	c.Do("SET", "r3:big", big)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p := srv.RawConn(t)
		var b strings.Builder
		for i := range 200 {
			b.Write(encodeCommand("PUBLISH", "r3:a", "m"+strconv.Itoa(i)))
		}
		p.SendString(b.String())
		for range 200 {
			p.ReadReply()
		}
	}()
	var b strings.Builder
	for range 200 {
		b.Write(encodeCommand("GET", "r3:big"))
	}
	c.SendString(b.String())
	gets, msgs := 0, 0
	for gets < 200 || msgs < 200 {
		r := c.ReadReply()
		switch {
		case r.Kind == '>' && len(r.Elems) == 3 && r.Elems[2].Str == "m"+strconv.Itoa(msgs):
			msgs++
		case r.Kind == '$' && r.Str == big:
			gets++
		default:
			t.Fatalf("after %d GETs and %d messages: %s", gets, msgs, formatReply(r, false))
		}
	}
	wg.Wait()
	c.Do("UNSUBSCRIBE")
	c.ExpectNothing(20 * time.Millisecond)
}

// TestPubSubOrderToManySubscribers: 1,000 messages reach each of several subscribers, in order.
func TestPubSubOrderToManySubscribers(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	const subscribers, messages = 5, 1000
	subs := make([]*rawConn, subscribers)
	for i := range subs {
		subs[i] = srv.RawConn(t)
		if i%2 == 1 {
			subs[i].Do("HELLO", "3")
		}
		if r := subs[i].Do("SUBSCRIBE", "order"); len(r.Elems) != 3 {
			t.Fatalf("SUBSCRIBE: %s", formatReply(r, false))
		}
	}
	pub := srv.RawConn(t)
	go func() {
		var b strings.Builder
		for i := range messages {
			b.Write(encodeCommand("PUBLISH", "order", strconv.Itoa(i)))
		}
		pub.SendString(b.String())
	}()
	var wg sync.WaitGroup
	errs := make(chan error, subscribers)
	for i, c := range subs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range messages {
				r, err := c.TryReadReply(ioTimeout)
				if err != nil {
					errs <- fmt.Errorf("subscriber %d, message %d: %v", i, n, err)
					return
				}
				if len(r.Elems) != 3 || r.Elems[0].Str != "message" || r.Elems[2].Str != strconv.Itoa(n) {
					errs <- fmt.Errorf("subscriber %d, message %d: %s", i, n, formatReply(r, false))
					return
				}
			}
		}()
	}
	for range messages {
		if r := pub.ReadReply(); r.Int != subscribers {
			t.Fatalf("PUBLISH reached %d", r.Int)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestPubSubParkedSubscriber: a subscriber waiting in its readiness loop, without a goroutine,
// receives messages.
func TestPubSubParkedSubscriber(t *testing.T) {
	requireKvserver(t, "kvserver's parked_clients")
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	c.Do("SUBSCRIBE", "parked")
	waitFor(t, ioTimeout, "the subscriber to park", func() bool { return infoInt(t, srv, "clients", "parked_clients") >= 1 })
	pub := srv.RawConn(t)
	for i := range 3 {
		if r := pub.Do("PUBLISH", "parked", "m"+strconv.Itoa(i)); r.Int != 1 {
			t.Fatalf("PUBLISH: %s", formatReply(r, false))
		}
		if r := c.ReadReply(); len(r.Elems) != 3 || r.Elems[2].Str != "m"+strconv.Itoa(i) {
			t.Fatalf("message %d: %s", i, formatReply(r, false))
		}
		waitFor(t, ioTimeout, "the subscriber to park again", func() bool { return infoInt(t, srv, "clients", "parked_clients") >= 1 })
	}
}

// TestPubSubOutputLimit: a subscriber that never reads is closed by the pubsub class of
// client-output-buffer-limit, and the server goes on.
func TestPubSubOutputLimit(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	admin := srv.RawConn(t)
	if r := admin.Do("CONFIG", "SET", "client-output-buffer-limit", "pubsub 64kb 32kb 1"); r.Str != "OK" {
		t.Fatalf("CONFIG SET: %s", formatReply(r, false))
	}
	// A subscriber with a small receive buffer, which reads nothing after its confirmation.
	d := net.Dialer{Timeout: ioTimeout, Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) {
			_ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
	}}
	conn, err := d.Dial("tcp", srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.Write(encodeCommand("SUBSCRIBE", "limit"))
	pub := srv.RawConn(t)
	waitFor(t, ioTimeout, "the subscription", func() bool { return pub.Do("PUBSUB", "NUMSUB", "limit").Elems[1].Int == 1 })
	// Redis 7.0 (Debian's) has no such counter; 7.2 and kvserver do.
	_, counted := srv.Info(t, "stats")["client_output_buffer_limit_disconnections"]
	var before int64
	if counted {
		before = infoInt(t, srv, "stats", "client_output_buffer_limit_disconnections")
	}
	msg := strings.Repeat("x", 1024)
	var batch strings.Builder
	for range 100 {
		batch.Write(encodeCommand("PUBLISH", "limit", msg))
	}
	sent := 0
	for {
		pub.SendString(batch.String())
		reached := int64(0)
		for range 100 {
			reached += pub.ReadReply().Int
		}
		sent += 100
		if reached < 100 {
			break // the subscriber is gone
		}
		if sent > 200_000 {
			t.Fatalf("%d messages of 1 KiB published to a subscriber that does not read, and it is still there", sent)
		}
	}
	waitFor(t, ioTimeout, "NUMSUB 0", func() bool { return pub.Do("PUBSUB", "NUMSUB", "limit").Elems[1].Int == 0 })
	if counted {
		if after := infoInt(t, srv, "stats", "client_output_buffer_limit_disconnections"); after <= before {
			t.Fatalf("client_output_buffer_limit_disconnections %d, was %d", after, before)
		}
	}
	if r := pub.Do("PING"); r.Str != "PONG" {
		t.Fatalf("PING after: %s", formatReply(r, false))
	}
	if infoInt(t, srv, "stats", "pubsub_channels") != 0 {
		t.Fatal("pubsub_channels not 0 after the subscriber was closed")
	}
}

// TestPubSubInfoAndClientList: INFO's pubsub fields and CLIENT LIST's sub, psub, ssub and P.
func TestPubSubInfoAndClientList(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	c.Do("CLIENT", "SETNAME", "subscriber")
	c.SendString("SUBSCRIBE i:a i:b\r\n")
	c.ReadReply()
	c.ReadReply()
	c.Do("PSUBSCRIBE", "i:*")
	c.Do("SSUBSCRIBE", "i:s")
	other := srv.RawConn(t)
	other.Do("SUBSCRIBE", "i:a")
	st := srv.Info(t, "stats")
	if st["pubsub_channels"] != "2" || st["pubsub_patterns"] != "1" || st["pubsubshard_channels"] != "1" {
		t.Fatalf("INFO stats: pubsub_channels=%s pubsub_patterns=%s pubsubshard_channels=%s",
			st["pubsub_channels"], st["pubsub_patterns"], st["pubsubshard_channels"])
	}
	admin := srv.RawConn(t)
	list := admin.Do("CLIENT", "LIST").Str
	var line string
	for _, l := range strings.Split(list, "\n") {
		if strings.Contains(l, " name=subscriber ") {
			line = l
		}
	}
	for _, want := range []string{" flags=P ", " sub=2 psub=1 ssub=1 "} {
		if !strings.Contains(line, want) {
			t.Fatalf("CLIENT LIST line lacks %q: %s", want, line)
		}
	}
	// CLIENT KILL TYPE pubsub closes the subscribers only.
	if r := admin.Do("CLIENT", "KILL", "TYPE", "pubsub"); r.Int != 2 {
		t.Fatalf("CLIENT KILL TYPE pubsub: %s", formatReply(r, false))
	}
	waitFor(t, ioTimeout, "pubsub_channels 0", func() bool { return infoInt(t, srv, "stats", "pubsub_channels") == 0 })
	st = srv.Info(t, "stats")
	if st["pubsub_patterns"] != "0" || st["pubsubshard_channels"] != "0" {
		t.Fatalf("after the kill: %v %v", st["pubsub_patterns"], st["pubsubshard_channels"])
	}
}

// TestPubSubDisconnectDropsSubscriptions: a subscriber that goes away leaves no subscription.
func TestPubSubDisconnectDropsSubscriptions(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	pub := srv.Client(t)
	for i := range 20 {
		c := srv.RawConn(t)
		c.Do("SUBSCRIBE", "bye")
		c.Do("PSUBSCRIBE", "by*")
		if i%2 == 0 {
			c.Close()
		} else {
			c.Do("QUIT")
		}
	}
	waitFor(t, ioTimeout, "NUMSUB 0", func() bool { return numSub(t, pub, "bye") == 0 })
	waitFor(t, ioTimeout, "NUMPAT 0", func() bool { return pub.PubSubNumPat(context.Background()).Val() == 0 })
}
