package tests

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The read path's memory design (issue 6): shared read buffers, private buffers only for an
// unfinished command, big arguments read into a buffer of their own, and the cron's trimming.

// clientFields returns the CLIENT LIST fields of the client with the given name.
func clientFields(t *testing.T, srv *server, name string) map[string]string {
	t.Helper()
	c := srv.RawConn(t)
	defer c.Close()
	r := c.Do("CLIENT", "LIST")
	for _, line := range strings.Split(r.Str, "\n") {
		fields := map[string]string{}
		for _, kv := range strings.Fields(line) {
			k, v, _ := strings.Cut(kv, "=")
			fields[k] = v
		}
		if fields["name"] == name {
			return fields
		}
	}
	t.Fatalf("no client named %q in CLIENT LIST:\n%s", name, r.Str)
	return nil
}

func fieldInt(t *testing.T, fields map[string]string, name string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(fields[name], 10, 64)
	if err != nil {
		t.Fatalf("field %s=%q: %v", name, fields[name], err)
	}
	return v
}

// named opens a raw connection and names it.
func named(t *testing.T, srv *server, name string) *rawConn {
	t.Helper()
	c := srv.RawConn(t)
	if r := c.Do("CLIENT", "SETNAME", name); r.Str != "OK" {
		t.Fatalf("CLIENT SETNAME: %s", formatReply(r, false))
	}
	return c
}

// waitFor polls cond every 10 ms for up to d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestIdleClientHoldsNoBuffers(t *testing.T) {
	requireKvserver(t, "kvserver's buffer accounting")
	t.Parallel()
	srv := startServer(t, "--hz", "100")
	c := named(t, srv, "idle")
	c.Do("SET", "k", strings.Repeat("v", 1000))
	c.Do("GET", "k")
	waitFor(t, 3*time.Second, "idle client still holds buffers", func() bool {
		f := clientFields(t, srv, "idle")
		return f["qbuf"] == "0" && f["qbuf-free"] == "0" && f["rbs"] == "0" && f["argv-mem"] == "0"
	})
	if out := infoInt(t, srv, "stats", "shared_read_buffers_out"); out != 0 {
		t.Fatalf("%d shared read buffers out while every client is idle", out)
	}
}

func TestBigArgumentGetsItsOwnBuffer(t *testing.T) {
	requireKvserver(t, "kvserver's CLIENT LIST figures")
	t.Parallel()
	srv := startServer(t, "--hz", "100")
	c := named(t, srv, "big")
	c.SendString("*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1000000\r\n")
	waitFor(t, 3*time.Second, "no buffer of the big argument's size", func() bool {
		f := clientFields(t, srv, "big")
		return fieldInt(t, f, "qbuf")+fieldInt(t, f, "qbuf-free") >= 1000000
	})
	// Half of it, then the client stays active: the argument in progress is never trimmed.
	value := bytes.Repeat([]byte("0123456789"), 100000)
	c.Send(value[:500000])
	time.Sleep(300 * time.Millisecond) // 30 cron ticks
	f := clientFields(t, srv, "big")
	if got := fieldInt(t, f, "qbuf") + fieldInt(t, f, "qbuf-free"); got < 1000000 || fieldInt(t, f, "qbuf") < 500000 {
		t.Fatalf("argument in progress trimmed: qbuf=%s qbuf-free=%s", f["qbuf"], f["qbuf-free"])
	}
	c.Send(append(value[500000:], '\r', '\n'))
	if r := c.ReadReply(); r.Str != "OK" {
		t.Fatalf("SET: %s", formatReply(r, false))
	}
	if r := c.Do("GET", "a"); !bytes.Equal([]byte(r.Str), value) {
		t.Fatalf("GET returned %d bytes, not the value", len(r.Str))
	}
}

// TestNoResizeLoop: a client that got a private buffer (one unfinished line) and then sends
// small commands, single and pipelined across read boundaries, for 50+ cron ticks at hz=100
// sees at most one reallocation of it.
func TestNoResizeLoop(t *testing.T) {
	requireKvserver(t, "kvserver's realloc counter")
	t.Parallel()
	srv := startServer(t, "--hz", "100")
	c := named(t, srv, "steady")
	c.SendString("*1\r\n$4") // an unfinished line: kept in a private buffer
	time.Sleep(20 * time.Millisecond)
	c.SendString("\r\nPING\r\n")
	if r := c.ReadReply(); r.Str != "PONG" {
		t.Fatalf("PING: %s", formatReply(r, false))
	}
	before := infoInt(t, srv, "stats", "client_query_buffer_reallocs")
	for i := 0; i < 80; i++ { // 80 × 10 ms = 80 ticks
		if i%2 == 0 {
			c.SendString("*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$2\r\n" + fmt.Sprintf("%02d", i) + "\r\n")
			c.ReadReply()
		} else {
			c.SendString("*1\r\n$4\r\nPING\r\n*2\r\n$3\r\nGET\r\n$") // split in a header line
			time.Sleep(2 * time.Millisecond)
			c.SendString("1\r\nx\r\n")
			c.ReadReply()
			c.ReadReply()
		}
		time.Sleep(10 * time.Millisecond)
	}
	after := infoInt(t, srv, "stats", "client_query_buffer_reallocs")
	// The test means something only if the client really read into a private buffer.
	if f := clientFields(t, srv, "steady"); fieldInt(t, f, "qbuf-free") == 0 {
		t.Fatalf("the client has no private buffer: %v", f)
	}
	t.Logf("private query buffer reallocations: %d before the steady traffic, %d during", before, after-before)
	if after-before > 1 {
		t.Fatalf("private query buffer reallocated %d times during steady traffic", after-before)
	}
}

// TestIdlePartialCommandTrimmed: a short unfinished line is kept in a buffer of its size; a
// long one (more than half a read buffer) is read into directly, with room reserved while the
// client is active, and trimmed to its contents after more than 2 s idle; both commands
// complete afterwards.
func TestIdlePartialCommandTrimmed(t *testing.T) {
	requireKvserver(t, "kvserver's CLIENT LIST figures")
	t.Parallel()
	srv := startServer(t, "--hz", "100")
	c := named(t, srv, "partial")
	c.SendString("*1\r\n$4") // private buffer
	time.Sleep(20 * time.Millisecond)
	c.SendString("\r\nPING\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1") // PING, then a partial line
	c.ReadReply()
	f := clientFields(t, srv, "partial")
	if f["qbuf"] != "2" || fieldInt(t, f, "qbuf-free") >= 4096 {
		t.Fatalf("a 2-byte partial line should be kept in a buffer of about its size: %v", f)
	}
	c.SendString("\r\nv\r\n")
	if r := c.ReadReply(); r.Str != "OK" {
		t.Fatalf("completing the command: %s", formatReply(r, false))
	}

	long := "SET k " + strings.Repeat("x", 9000)
	c.SendString(long)
	waitFor(t, 2*time.Second, "long inline line not held", func() bool {
		return fieldInt(t, clientFields(t, srv, "partial"), "qbuf") == int64(len(long))
	})
	c.SendString("yy")
	waitFor(t, 2*time.Second, "room not reserved for an active client's long line", func() bool {
		f := clientFields(t, srv, "partial")
		return fieldInt(t, f, "qbuf") == int64(len(long)+2) && fieldInt(t, f, "qbuf-free") >= 4096
	})
	waitFor(t, 5*time.Second, "idle partial command's buffer not trimmed", func() bool {
		f := clientFields(t, srv, "partial")
		return fieldInt(t, f, "qbuf") == int64(len(long)+2) && fieldInt(t, f, "qbuf-free") < 4096
	})
	c.SendString("\r\n")
	if r := c.ReadReply(); r.Str != "OK" {
		t.Fatalf("completing the inline command: %s", formatReply(r, false))
	}
}

// TestBigSetThenSmallSets: after a 400 KB SET, steady small SETs leave no 400 KB buffer behind.
func TestBigSetThenSmallSets(t *testing.T) {
	requireKvserver(t, "kvserver's CLIENT LIST figures")
	t.Parallel()
	srv := startServer(t, "--hz", "100")
	c := named(t, srv, "fat")
	c.Do("SET", "big", strings.Repeat("x", 400000))
	for i := 0; i < 50; i++ {
		c.Do("SET", "small", strconv.Itoa(i))
		time.Sleep(10 * time.Millisecond)
	}
	f := clientFields(t, srv, "fat")
	if held := fieldInt(t, f, "qbuf") + fieldInt(t, f, "qbuf-free") + fieldInt(t, f, "argv-mem"); held > 64<<10 {
		t.Fatalf("client still holds %d bytes after small SETs: %v", held, f)
	}
	if r := c.Do("STRLEN", "big"); r.Int != 400000 && r.Str == "" {
		if g := c.Do("GET", "big"); len(g.Str) != 400000 {
			t.Fatalf("big value has %d bytes", len(g.Str))
		}
	}
}

// TestManyPartialCommands: 1,000 clients each hold an unfinished command, then complete it;
// afterwards, and after clients killed mid-command, the shared buffer free list balances.
func TestManyPartialCommands(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--maxclients", "2000")
	const n = 1000
	conns := make([]*rawConn, n)
	for i := range conns {
		conns[i] = srv.RawConn(t)
		conns[i].SendString(fmt.Sprintf("*3\r\n$3\r\nSET\r\n$6\r\nk%05d\r\n$6\r\nv", i))
	}
	time.Sleep(100 * time.Millisecond)
	for i, c := range conns {
		c.SendString(fmt.Sprintf("%05d\r\n", i))
	}
	for i, c := range conns {
		if r := c.ReadReply(); r.Str != "OK" {
			t.Fatalf("client %d: %s", i, formatReply(r, false))
		}
	}
	check := srv.Client(t)
	ctx := context.Background()
	for _, i := range []int{0, 1, 499, 999} {
		if v, err := check.Get(ctx, fmt.Sprintf("k%05d", i)).Result(); err != nil || v != fmt.Sprintf("v%05d", i) {
			t.Fatalf("k%05d = %q, %v", i, v, err)
		}
	}
	if targetRedis {
		return
	}
	// Kill clients in the middle of a command, by id.
	for i := 0; i < 100; i++ {
		conns[i].SendString("*2\r\n$3\r\nGET\r\n$100\r\nabc")
	}
	time.Sleep(50 * time.Millisecond)
	killer := srv.RawConn(t)
	self := fmt.Sprintf("id=%d ", killer.Do("CLIENT", "ID").Int)
	list := killer.Do("CLIENT", "LIST").Str
	killed := 0
	for _, line := range strings.Split(list, "\n") {
		if strings.Contains(line, "argv-mem=") && !strings.Contains(line, "argv-mem=0 ") && !strings.HasPrefix(line, self) {
			id := strings.TrimPrefix(strings.Fields(line)[0], "id=")
			if r := killer.Do("CLIENT", "KILL", "ID", id); r.Int == 1 {
				killed++
			}
		}
	}
	if killed < 100 {
		t.Fatalf("killed %d clients mid-command, want 100", killed)
	}
	for _, c := range conns {
		c.Close()
	}
	waitFor(t, 5*time.Second, "shared read buffers not all returned", func() bool {
		return infoInt(t, srv, "stats", "shared_read_buffers_out") == 0 &&
			infoInt(t, srv, "clients", "connected_clients") <= 3
	})
}

// TestConcurrentValuesCrossingReadBoundaries: values of every size around the 16 KiB read size
// and the 32 KiB big-argument threshold read back byte-exact under many concurrent clients.
func TestConcurrentValuesCrossingReadBoundaries(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for w := 0; w < 20; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c := srv.Client(t)
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for i := 0; i < 40; i++ {
				size := []int{1, 16383, 16384, 16385, 32767, 32768, 32769, 100000}[i%8] + rng.IntN(50)
				val := make([]byte, size)
				for j := range val {
					val[j] = byte(rng.IntN(256))
				}
				key := fmt.Sprintf("w%d:%d", w, i)
				pipe := c.Pipeline()
				pipe.Set(ctx, key, val, 0)
				get := pipe.Get(ctx, key)
				if _, err := pipe.Exec(ctx); err != nil {
					errs <- err
					return
				}
				if got := get.Val(); got != string(val) {
					errs <- fmt.Errorf("%s: got %d bytes, want %d", key, len(got), size)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestBigValueAdoptedWithoutCopy: a big argument read into its own buffer becomes the stored
// value by changing owner, not by a copy (INFO's counters prove which path ran).
func TestBigValueAdoptedWithoutCopy(t *testing.T) {
	requireKvserver(t, "kvserver's adoption counters")
	t.Parallel()
	srv := startServer(t)
	c := srv.RawConn(t)
	value := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	adopted := infoInt(t, srv, "stats", "big_argument_adoptions")
	copied := infoInt(t, srv, "stats", "big_argument_copies")
	datasetBefore := infoInt(t, srv, "memory", "used_memory_dataset")
	c.Send(append([]byte(fmt.Sprintf("*3\r\n$3\r\nSET\r\n$3\r\nbig\r\n$%d\r\n", len(value))), append(value, '\r', '\n')...))
	if r := c.ReadReply(); r.Str != "OK" {
		t.Fatalf("SET: %s", formatReply(r, false))
	}
	if a, cp := infoInt(t, srv, "stats", "big_argument_adoptions"), infoInt(t, srv, "stats", "big_argument_copies"); a != adopted+1 || cp != copied {
		t.Fatalf("adoptions %d→%d, copies %d→%d: the value was not adopted", adopted, a, copied, cp)
	}
	if grown := infoInt(t, srv, "memory", "used_memory_dataset") - datasetBefore; grown < int64(len(value)) {
		t.Fatalf("dataset grew by %d bytes for a %d-byte value: the adopted buffer is not charged to the shard", grown, len(value))
	}
	if r := c.Do("GET", "big"); r.Str != string(value) {
		t.Fatalf("GET returned %d bytes, not the value", len(r.Str))
	}
	if r := c.Do("APPEND", "big", "!"); r.Int != int64(len(value)+1) {
		t.Fatalf("APPEND to the adopted value: %s", formatReply(r, false))
	}
	c.Do("DEL", "big")
	if after := infoInt(t, srv, "memory", "used_memory_dataset"); after > datasetBefore+4096 {
		t.Fatalf("dataset %d after DEL, %d before SET: the adopted value was not freed", after, datasetBefore)
	}
}
