package tests

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestStressChecksummedValues: 32 clients run SET (some with short PX) / APPEND / SETRANGE /
// DEL / RENAME / PEXPIRE (0–29 ms, so keys vanish under the others) / EXPIRE / PERSIST / GET /
// GETRANGE / STRLEN / SET GET / GETDEL / MSET / MGET / COPY at once, one command per round trip
// or in pipelines of 2–10, on 512 shared keys (half the operations on 16 hot ones; RENAME, COPY,
// MSET and MGET mostly across shards, RENAME now and then onto its own key). Every value any of
// them reads is verified, and every key once more at the end: whatever interleaving a correct
// server picks, every value it can hold is self-validating, so a torn, mixed or corrupt value
// is caught wherever it is read.
//
// A value is a sequence of fixed-size blocks (stressBlock bytes), each its own record:
//
//	[0:4]   magic "kvR1" (a run block) or "kvS1" (a SETRANGE block)
//	[4:12]  id: unique per write (client, sequence)
//	[12:16] run block: index j within its run; SETRANGE block: its block position in the value
//	[16:20] run block: the run's length n in blocks; SETRANGE block: 0
//	[20:96] filler derived from id and j
//	[96:100] CRC-32 (IEEE) of [0:96]
//
// or an all-zero block, which only SETRANGE beyond the end of a value produces (Redis pads
// with zero bytes). SET writes one run (n blocks, j = 0…n-1) and APPEND appends one, so a run
// always starts at a block boundary and stays at its position; SETRANGE overwrites exactly one
// block at a block-aligned offset with a SETRANGE block tagged with that position; RENAME moves
// a whole value. The block size does not divide 16 KiB, so blocks straddle every 16 KiB
// boundary of the large (10–100 KB) values. A value read must therefore:
//
//   - have a length that is a multiple of the block size;
//   - hold only blocks with a valid CRC, SETRANGE blocks at the position they were written to,
//     and run blocks at position start+j of their run;
//   - cover each run's positions start…start+n-1 completely with the run's own blocks or
//     SETRANGE blocks (a torn SET or APPEND leaves a run short or overlapped by another run);
//   - hold each run in one place only, zero blocks only outside runs, and no zero block last.
//
// GETRANGE windows are checked the same way within the window; the lengths APPEND, SETRANGE
// and STRLEN answer must be whole blocks. Bounded by operation count (2,000 per client) and by
// time (10 s of load at most); KVSERVER_STRESS_LONG=1 runs ten times longer.
// KVSERVER_STRESS_SEED fixes the operation mix (the interleaving stays the scheduler's).
func TestStressChecksummedValues(t *testing.T) {
	t.Parallel()
	cfg := stressConfig{
		clients:   32,
		opsPer:    2000,
		duration:  10 * time.Second,
		keys:      512,
		hotKeys:   16,
		maxLen:    256 << 10,
		largeMinB: 100,  // 10 KB
		largeMaxB: 1000, // 100 KB
	}
	if os.Getenv("KVSERVER_STRESS_LONG") != "" {
		cfg.opsPer *= 10
		cfg.duration *= 10
	}
	srv := startServer(t)
	ctx := context.Background()

	st := &stressState{cfg: cfg}
	st.keyNames = make([]string, cfg.keys)
	for i := range st.keyNames {
		st.keyNames[i] = "stress:" + strconv.Itoa(i)
	}
	deadline := time.Now().Add(cfg.duration)
	seed := time.Now().UnixNano()
	if s := os.Getenv("KVSERVER_STRESS_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatalf("KVSERVER_STRESS_SEED=%q: %v", s, err)
		}
	}
	t.Logf("seed %d; %d clients × %d ops, at most %v; %d keys (%d hot)",
		seed, cfg.clients, cfg.opsPer, cfg.duration, cfg.keys, cfg.hotKeys)

	workers := make([]*stressWorker, cfg.clients)
	for i := range workers {
		workers[i] = &stressWorker{
			st:  st,
			id:  i,
			rc:  srv.Client(t),
			rng: rand.New(rand.NewSource(seed + int64(i)*7919)),
		}
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			w.run(ctx, deadline)
		}()
	}
	began := time.Now()
	close(start)
	wg.Wait()
	elapsed := time.Since(began)

	// A last pass: every key still present must hold a valid value.
	if !st.failed.Load() {
		rc := srv.Client(t)
		pipe := rc.Pipeline()
		cmds := make([]*redis.StringCmd, len(st.keyNames))
		for i, k := range st.keyNames {
			cmds[i] = pipe.Get(ctx, k)
		}
		pipe.Exec(ctx)
		var c stressCounts
		for i, cmd := range cmds {
			v, err := cmd.Result()
			switch {
			case errors.Is(err, redis.Nil):
				c.nilReads++
			case err != nil:
				st.fail("final GET %s: %v", st.keyNames[i], err)
			default:
				st.verify(&c, "final GET", st.keyNames[i], v, 0, true)
			}
		}
		st.mu.Lock()
		st.final = c
		st.mu.Unlock()
	}

	var total stressCounts
	for _, w := range workers {
		total.add(&w.counts)
	}
	total.add(&st.final)
	var ops []string
	for _, name := range stressOpNames {
		if n := total.ops[name]; n > 0 {
			ops = append(ops, fmt.Sprintf("%s %d", name, n))
		}
	}
	sort.Strings(ops)
	t.Logf("%d ops in %v (%.0f/s): %s", total.allOps, elapsed.Round(time.Millisecond),
		float64(total.allOps)/elapsed.Seconds(), strings.Join(ops, ", "))
	t.Logf("verified reads %d (%d full values, %d GETRANGE windows; %.1f MB, %d blocks, %d SETRANGE blocks, %d zero blocks; largest %d bytes), nil reads %d",
		total.verified, total.verified-total.windows, total.windows, float64(total.bytes)/1e6,
		total.blocks, total.srBlocks, total.zeroBlocks, total.largest, total.nilReads)
	t.Logf("RENAMEs of a missing key %d; APPEND trims %d", total.renameMissing, total.trims)
	if st.failed.Load() {
		st.mu.Lock()
		defer st.mu.Unlock()
		for _, f := range st.failures {
			t.Error(f)
		}
		if st.dropped > 0 {
			t.Errorf("… and %d more failures", st.dropped)
		}
		return
	}
	if total.verified == 0 {
		t.Fatal("no value was verified")
	}
	info := srv.Info(t, "stats")
	var fields []string
	for _, f := range []string{"expired_keys", "keyspace_hits", "keyspace_misses", "big_argument_adoptions", "big_argument_copies"} {
		if v, ok := info[f]; ok {
			fields = append(fields, f+" "+v)
		}
	}
	t.Logf("server: %s", strings.Join(fields, ", "))
}

const (
	stressBlock   = 100 // bytes per block: does not divide 16 KiB
	stressCRCAt   = stressBlock - 4
	stressFillAt  = 20
	stressMaxFail = 10
)

var (
	stressMagicRun = [4]byte{'k', 'v', 'R', '1'}
	stressMagicSR  = [4]byte{'k', 'v', 'S', '1'}
	stressOpNames  = []string{"GET", "SET", "SET PX", "SET large", "SET GET", "GETDEL", "APPEND",
		"SETRANGE", "GETRANGE", "STRLEN", "DEL", "RENAME", "PEXPIRE short", "EXPIRE", "PERSIST", "MSET", "MGET",
		"COPY", "pipeline"}
)

type stressConfig struct {
	clients, opsPer      int
	duration             time.Duration
	keys, hotKeys        int
	maxLen               int // an APPEND that makes a value longer than this deletes it next
	largeMinB, largeMaxB int // the block counts of large SETs
}

type stressState struct {
	cfg      stressConfig
	keyNames []string

	failed   atomic.Bool
	mu       sync.Mutex
	failures []string
	dropped  int
	final    stressCounts
}

func (st *stressState) fail(format string, args ...any) {
	st.failed.Store(true)
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.failures) >= stressMaxFail {
		st.dropped++
		return
	}
	st.failures = append(st.failures, fmt.Sprintf(format, args...))
}

// verify checks v, read by op from key, whose first block is at block position base (0 but
// for GETRANGE); whole says that v ends where the value ends. It counts the read.
func (st *stressState) verify(c *stressCounts, op, key, v string, base int, whole bool) {
	res, err := checkStressBlocks([]byte(v), base, whole)
	if err != nil {
		st.fail("%s %s: corrupt value (%d bytes, first block at position %d): %v\n%s",
			op, key, len(v), base, err, stressDump([]byte(v), res.badAt))
		return
	}
	c.verified++
	if op == "GETRANGE" {
		c.windows++
	}
	c.bytes += int64(len(v))
	c.blocks += int64(res.blocks)
	c.srBlocks += int64(res.srBlocks)
	c.zeroBlocks += int64(res.zeroBlocks)
	if len(v) > c.largest {
		c.largest = len(v)
	}
}

type stressCounts struct {
	ops                           map[string]int
	allOps                        int
	verified, windows, nilReads   int
	bytes, blocks, srBlocks       int64
	zeroBlocks                    int64
	largest, renameMissing, trims int
}

func (c *stressCounts) op(name string) {
	if c.ops == nil {
		c.ops = map[string]int{}
	}
	c.ops[name]++
	c.allOps++
}

func (c *stressCounts) add(o *stressCounts) {
	if c.ops == nil {
		c.ops = map[string]int{}
	}
	for k, n := range o.ops {
		c.ops[k] += n
	}
	c.allOps += o.allOps
	c.verified += o.verified
	c.windows += o.windows
	c.nilReads += o.nilReads
	c.bytes += o.bytes
	c.blocks += o.blocks
	c.srBlocks += o.srBlocks
	c.zeroBlocks += o.zeroBlocks
	c.largest = max(c.largest, o.largest)
	c.renameMissing += o.renameMissing
	c.trims += o.trims
}

// stressWorker is one client.
type stressWorker struct {
	st     *stressState
	id     int
	rc     *redis.Client
	rng    *rand.Rand
	seq    uint32
	counts stressCounts
	trim   []string // keys grown past maxLen, deleted before the next operation
}

// nextID is unique across the run: the client in the high half, a sequence in the low.
func (w *stressWorker) nextID() uint64 {
	w.seq++
	return uint64(w.id+1)<<32 | uint64(w.seq)
}

func (w *stressWorker) key() string {
	cfg := w.st.cfg
	if w.rng.Intn(2) == 0 {
		return w.st.keyNames[w.rng.Intn(cfg.hotKeys)]
	}
	return w.st.keyNames[w.rng.Intn(cfg.keys)]
}

// stressPending is a command sent and the check of its reply.
type stressPending struct {
	name  string
	key   string
	cmd   redis.Cmder
	check func() // called after the reply arrived
}

func (w *stressWorker) run(ctx context.Context, deadline time.Time) {
	st := w.st
	for done := 0; done < st.cfg.opsPer && !st.failed.Load() && time.Now().Before(deadline); {
		if len(w.trim) > 0 {
			for _, k := range w.trim {
				if err := w.rc.Del(ctx, k).Err(); err != nil {
					st.fail("client %d: DEL %s (trim): %v", w.id, k, err)
					return
				}
				w.counts.trims++
			}
			w.trim = w.trim[:0]
		}
		// Mostly one command per round trip; one round in ten is a pipeline of 2–10.
		n := 1
		if w.rng.Intn(10) == 0 {
			n = 2 + w.rng.Intn(9)
			w.counts.op("pipeline")
			w.counts.allOps-- // the pipeline's commands count, not the pipeline
		}
		pipe := w.rc.Pipeline()
		pend := make([]stressPending, 0, n)
		for i := 0; i < n; i++ {
			pend = append(pend, w.queue(ctx, pipe, n == 1))
		}
		pipe.Exec(ctx) // each command's error is checked below
		for _, p := range pend {
			if st.failed.Load() {
				return
			}
			w.counts.op(p.name)
			p.check()
		}
		done += n
	}
}

// queue adds one random operation to pipe. alone says that it is the only command of its
// round trip, so it may first look at the key (SETRANGE reads STRLEN to pick a block that
// exists).
func (w *stressWorker) queue(ctx context.Context, pipe redis.Pipeliner, alone bool) stressPending {
	st, rng := w.st, w.rng
	key := w.key()
	p := stressPending{key: key}
	// errCheck fails on any error (redis.Nil included unless nilOK).
	errCheck := func(nilOK bool) bool {
		err := p.cmd.Err()
		if err == nil {
			return true
		}
		if nilOK && errors.Is(err, redis.Nil) {
			w.counts.nilReads++
			return false
		}
		st.fail("client %d: %s %s: %v", w.id, p.name, key, err)
		return false
	}
	switch r := rng.Intn(110); {
	case r < 22: // GET
		p.name = "GET"
		cmd := pipe.Get(ctx, key)
		p.cmd = cmd
		p.check = func() {
			if errCheck(true) {
				st.verify(&w.counts, "GET", key, cmd.Val(), 0, true)
			}
		}
	case r < 34: // SET of a small run, sometimes with a short PX
		nb := 1 + rng.Intn(16)
		var ttl time.Duration
		p.name = "SET"
		if rng.Intn(5) == 0 {
			ttl = time.Duration(1+rng.Intn(50)) * time.Millisecond
			p.name = "SET PX"
		}
		cmd := pipe.Set(ctx, key, stressRun(w.nextID(), nb), ttl)
		p.cmd = cmd
		p.check = func() {
			if errCheck(false) && cmd.Val() != "OK" {
				st.fail("client %d: SET %s: %q", w.id, key, cmd.Val())
			}
		}
	case r < 37: // SET of a large run: 10–100 KB
		nb := st.cfg.largeMinB + rng.Intn(st.cfg.largeMaxB-st.cfg.largeMinB+1)
		p.name = "SET large"
		var ttl time.Duration
		if rng.Intn(4) == 0 {
			ttl = time.Duration(1+rng.Intn(50)) * time.Millisecond
		}
		cmd := pipe.Set(ctx, key, stressRun(w.nextID(), nb), ttl)
		p.cmd = cmd
		p.check = func() {
			if errCheck(false) && cmd.Val() != "OK" {
				st.fail("client %d: SET %s: %q", w.id, key, cmd.Val())
			}
		}
	case r < 40: // SET … GET: the old value is a read
		nb := 1 + rng.Intn(8)
		if rng.Intn(10) == 0 {
			nb = st.cfg.largeMinB + rng.Intn(st.cfg.largeMaxB-st.cfg.largeMinB+1)
		}
		p.name = "SET GET"
		cmd := pipe.SetArgs(ctx, key, stressRun(w.nextID(), nb), redis.SetArgs{Get: true})
		p.cmd = cmd
		p.check = func() {
			if errCheck(true) {
				st.verify(&w.counts, "SET GET", key, cmd.Val(), 0, true)
			}
		}
	case r < 42: // GETDEL
		p.name = "GETDEL"
		cmd := pipe.GetDel(ctx, key)
		p.cmd = cmd
		p.check = func() {
			if errCheck(true) {
				st.verify(&w.counts, "GETDEL", key, cmd.Val(), 0, true)
			}
		}
	case r < 56: // APPEND a run
		nb := 1 + rng.Intn(4)
		if rng.Intn(50) == 0 {
			nb = 100 + rng.Intn(400) // 10–50 KB: across 16 KiB boundaries, and a big argument
		}
		p.name = "APPEND"
		cmd := pipe.Append(ctx, key, stressRun(w.nextID(), nb))
		p.cmd = cmd
		p.check = func() {
			if !errCheck(false) {
				return
			}
			n := int(cmd.Val())
			if n%stressBlock != 0 || n < nb*stressBlock {
				st.fail("client %d: APPEND %s of %d bytes: new length %d", w.id, key, nb*stressBlock, n)
			}
			if n > st.cfg.maxLen {
				w.trim = append(w.trim, key)
			}
		}
	case r < 68: // SETRANGE one block
		pos := rng.Intn(8)
		if alone {
			n, err := w.rc.StrLen(ctx, key).Result()
			w.counts.op("STRLEN")
			if err != nil {
				st.fail("client %d: STRLEN %s: %v", w.id, key, err)
			} else if n%stressBlock != 0 {
				st.fail("client %d: STRLEN %s = %d: not whole blocks", w.id, key, n)
			} else if nb := int(n / stressBlock); nb > 0 && rng.Intn(8) != 0 {
				pos = rng.Intn(nb) // in place (unless the key changes meanwhile)
			} else {
				pos = nb + rng.Intn(3) // at the end, or past it: zero padding
			}
		}
		p.name = "SETRANGE"
		cmd := pipe.SetRange(ctx, key, int64(pos*stressBlock), stressSetrangeBlock(w.nextID(), pos))
		p.cmd = cmd
		p.check = func() {
			if !errCheck(false) {
				return
			}
			if n := int(cmd.Val()); n%stressBlock != 0 || n < (pos+1)*stressBlock {
				st.fail("client %d: SETRANGE %s at block %d: new length %d", w.id, key, pos, n)
			}
		}
	case r < 74: // GETRANGE a block-aligned window
		base := rng.Intn(4)
		if rng.Intn(4) == 0 {
			base = rng.Intn(1000) // inside a large value, across 16 KiB boundaries
		}
		want := 1 + rng.Intn(200)
		p.name = "GETRANGE"
		cmd := pipe.GetRange(ctx, key, int64(base*stressBlock), int64((base+want)*stressBlock-1))
		p.cmd = cmd
		p.check = func() {
			if !errCheck(false) {
				return
			}
			v := cmd.Val()
			if v == "" {
				w.counts.nilReads++
				return
			}
			// A window shorter than asked for ends at the value's end.
			st.verify(&w.counts, "GETRANGE", key, v, base, len(v) < want*stressBlock)
		}
	case r < 76: // STRLEN
		p.name = "STRLEN"
		cmd := pipe.StrLen(ctx, key)
		p.cmd = cmd
		p.check = func() {
			if errCheck(false) && cmd.Val()%stressBlock != 0 {
				st.fail("client %d: STRLEN %s = %d: not whole blocks", w.id, key, cmd.Val())
			}
		}
	case r < 81: // DEL
		p.name = "DEL"
		cmd := pipe.Del(ctx, key)
		p.cmd = cmd
		p.check = func() {
			if errCheck(false) && cmd.Val() != 0 && cmd.Val() != 1 {
				st.fail("client %d: DEL %s = %d", w.id, key, cmd.Val())
			}
		}
	case r < 91: // RENAME, mostly to another shard; now and then onto itself
		dst := w.key()
		if rng.Intn(20) == 0 {
			dst = key
		}
		p.name = "RENAME"
		cmd := pipe.Rename(ctx, key, dst)
		p.cmd = cmd
		p.check = func() {
			err := cmd.Err()
			switch {
			case err != nil && err.Error() == "ERR no such key":
				w.counts.renameMissing++
			case err != nil:
				st.fail("client %d: RENAME %s %s: %v", w.id, key, dst, err)
			case cmd.Val() != "OK":
				st.fail("client %d: RENAME %s %s: %q", w.id, key, dst, cmd.Val())
			}
		}
	case r < 96: // PEXPIRE short: the key vanishes under the other clients
		p.name = "PEXPIRE short"
		cmd := pipe.PExpire(ctx, key, time.Duration(rng.Intn(30))*time.Millisecond)
		p.cmd = cmd
		p.check = func() { errCheck(false) }
	case r < 98: // EXPIRE 1 s
		p.name = "EXPIRE"
		cmd := pipe.Expire(ctx, key, time.Second)
		p.cmd = cmd
		p.check = func() { errCheck(false) }
	case r < 100:
		p.name = "PERSIST"
		cmd := pipe.Persist(ctx, key)
		p.cmd = cmd
		p.check = func() { errCheck(false) }
	case r < 104: // MSET of 2–4 keys, in several shards
		kv := []any{key, w.msetValue()}
		for n := 1 + rng.Intn(3); n > 0; n-- {
			kv = append(kv, w.key(), w.msetValue())
		}
		p.name = "MSET"
		cmd := pipe.MSet(ctx, kv...)
		p.cmd = cmd
		p.check = func() {
			if errCheck(false) && cmd.Val() != "OK" {
				st.fail("client %d: MSET %s…: %q", w.id, key, cmd.Val())
			}
		}
	case r < 108: // MGET of 2–6 keys: every value is a read
		keys := []string{key}
		for n := 1 + rng.Intn(5); n > 0; n-- {
			keys = append(keys, w.key())
		}
		p.name = "MGET"
		cmd := pipe.MGet(ctx, keys...)
		p.cmd = cmd
		p.check = func() {
			if !errCheck(false) {
				return
			}
			vals := cmd.Val()
			if len(vals) != len(keys) {
				st.fail("client %d: MGET of %d keys: %d values", w.id, len(keys), len(vals))
				return
			}
			for i, v := range vals {
				switch v := v.(type) {
				case nil:
					w.counts.nilReads++
				case string:
					st.verify(&w.counts, "MGET", keys[i], v, 0, true)
				default:
					st.fail("client %d: MGET %s: a %T", w.id, keys[i], v)
				}
			}
		}
	default: // COPY … REPLACE to another key: the value is then in both
		dst := w.key()
		for dst == key {
			dst = w.key()
		}
		p.name = "COPY"
		cmd := pipe.Copy(ctx, key, dst, 0, true)
		p.cmd = cmd
		p.check = func() {
			if errCheck(false) && cmd.Val() != 0 && cmd.Val() != 1 {
				st.fail("client %d: COPY %s %s = %d", w.id, key, dst, cmd.Val())
			}
		}
	}
	return p
}

// msetValue is a run for MSET: mostly small, one in eight 10–100 KB.
func (w *stressWorker) msetValue() string {
	nb := 1 + w.rng.Intn(8)
	if w.rng.Intn(8) == 0 {
		nb = w.st.cfg.largeMinB + w.rng.Intn(w.st.cfg.largeMaxB-w.st.cfg.largeMinB+1)
	}
	return stressRun(w.nextID(), nb)
}

// stressRun is a run of nb blocks written by one SET or APPEND.
func stressRun(id uint64, nb int) string {
	b := make([]byte, nb*stressBlock)
	for j := 0; j < nb; j++ {
		stressFillBlock(b[j*stressBlock:(j+1)*stressBlock], stressMagicRun, id, uint32(j), uint32(nb))
	}
	return string(b)
}

// stressSetrangeBlock is the block SETRANGE writes at block position pos.
func stressSetrangeBlock(id uint64, pos int) string {
	b := make([]byte, stressBlock)
	stressFillBlock(b, stressMagicSR, id, uint32(pos), 0)
	return string(b)
}

func stressFillBlock(b []byte, magic [4]byte, id uint64, j, n uint32) {
	copy(b[0:4], magic[:])
	binary.BigEndian.PutUint64(b[4:12], id)
	binary.BigEndian.PutUint32(b[12:16], j)
	binary.BigEndian.PutUint32(b[16:20], n)
	x := id*0x9E3779B97F4A7C15 ^ uint64(j)*0xBF58476D1CE4E5B9 | 1
	for i := stressFillAt; i < stressCRCAt; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = byte(x)
	}
	binary.BigEndian.PutUint32(b[stressCRCAt:], crc32.ChecksumIEEE(b[:stressCRCAt]))
}

type stressCheck struct {
	blocks, srBlocks, zeroBlocks int
	badAt                        int // byte offset of the fault, for the dump
}

// checkStressBlocks checks v, whose first block is at block position base of its value (0
// for a whole value). complete says that v ends where the value ends, so the last run must
// be whole and the last block must not be zero padding.
func checkStressBlocks(v []byte, base int, complete bool) (res stressCheck, err error) {
	if len(v)%stressBlock != 0 {
		res.badAt = len(v) / stressBlock * stressBlock
		return res, fmt.Errorf("length %d is not a multiple of the %d-byte block", len(v), stressBlock)
	}
	var (
		haveRun  bool
		curID    uint64
		curStart int // block position of the current run's j = 0
		curEnd   int // one past the current run's last position; runs must not overlap
		lastZero = -1
		seen     = map[uint64]bool{}
	)
	nb := len(v) / stressBlock
	for i := 0; i < nb; i++ {
		pos := base + i
		b := v[i*stressBlock : (i+1)*stressBlock]
		res.badAt = i * stressBlock
		if stressAllZero(b) {
			if pos < curEnd {
				return res, fmt.Errorf("block %d: zero padding inside the run of id %#x at %d…%d", pos, curID, curStart, curEnd-1)
			}
			lastZero = pos
			res.zeroBlocks++
			continue
		}
		if got, want := binary.BigEndian.Uint32(b[stressCRCAt:]), crc32.ChecksumIEEE(b[:stressCRCAt]); got != want {
			return res, fmt.Errorf("block %d: CRC %08x, want %08x (torn or corrupt)", pos, got, want)
		}
		id := binary.BigEndian.Uint64(b[4:12])
		j := int(binary.BigEndian.Uint32(b[12:16]))
		n := int(binary.BigEndian.Uint32(b[16:20]))
		switch [4]byte(b[0:4]) {
		case stressMagicSR:
			if j != pos {
				return res, fmt.Errorf("block %d: SETRANGE block written at position %d", pos, j)
			}
			res.srBlocks++
		case stressMagicRun:
			if n < 1 || j >= n {
				return res, fmt.Errorf("block %d: run block %d of %d", pos, j, n)
			}
			start := pos - j
			if haveRun && id == curID {
				if start != curStart {
					return res, fmt.Errorf("block %d: block %d of the run of id %#x that starts at %d, not %d", pos, j, id, curStart, start)
				}
				break
			}
			// A new run: it starts after the previous one ended (so that one was whole), at or
			// after block 0, after any zero padding, and appears nowhere else.
			switch {
			case start < 0:
				return res, fmt.Errorf("block %d: block %d of a run would start at %d", pos, j, start)
			case start < curEnd:
				return res, fmt.Errorf("block %d: run of id %#x (%d blocks from %d) overlaps the run of id %#x at %d…%d: torn write",
					pos, id, n, start, curID, curStart, curEnd-1)
			case start <= lastZero:
				return res, fmt.Errorf("block %d: run of id %#x from %d covers zero padding at %d", pos, id, start, lastZero)
			case seen[id]:
				return res, fmt.Errorf("block %d: run of id %#x appears twice", pos, id)
			}
			seen[id] = true
			haveRun, curID, curStart, curEnd = true, id, start, start+n
		default:
			return res, fmt.Errorf("block %d: bad magic %q", pos, b[0:4])
		}
		res.blocks++
	}
	res.badAt = len(v)
	if complete {
		if end := base + nb; end < curEnd {
			return res, fmt.Errorf("value ends at block %d inside the run of id %#x at %d…%d: torn write", end, curID, curStart, curEnd-1)
		}
		if nb > 0 && lastZero == base+nb-1 {
			return res, fmt.Errorf("value ends with zero padding")
		}
	}
	return res, nil
}

func stressAllZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// stressDump is a hex dump of v's first 128 bytes and of the blocks around byte offset at.
func stressDump(v []byte, at int) string {
	var sb strings.Builder
	head := v[:min(len(v), 128)]
	sb.WriteString("first bytes:\n")
	sb.WriteString(hex.Dump(head))
	if at > 128-stressBlock {
		from := max(0, at-stressBlock)
		from -= from % 16
		to := min(len(v), at+2*stressBlock)
		if from < to {
			fmt.Fprintf(&sb, "bytes %d…%d:\n", from, to-1)
			d := hex.Dump(v[from:to])
			sb.WriteString(d)
		}
	}
	return sb.String()
}

// TestStressChecker: the value checker of TestStressChecksummedValues accepts every state a
// correct server can produce from the stress operations and rejects torn and corrupt ones.
// It needs no server.
func TestStressChecker(t *testing.T) {
	t.Parallel()
	blk := func(s string, i int) string { return s[i*stressBlock : (i+1)*stressBlock] }
	zero := string(make([]byte, stressBlock))
	a := stressRun(1<<32|1, 400) // 40 KB: crosses two 16 KiB boundaries
	b := stressRun(1<<32|2, 400)
	c := stressRun(2<<32|1, 3)
	sr := func(pos int) string { return stressSetrangeBlock(3<<32|uint64(pos), pos) }
	// setrange overwrites block pos of v, padding with zero blocks like Redis.
	setrange := func(v string, pos int) string {
		for len(v) < pos*stressBlock {
			v += zero
		}
		if len(v) == pos*stressBlock {
			return v + sr(pos)
		}
		return v[:pos*stressBlock] + sr(pos) + v[(pos+1)*stressBlock:]
	}
	valid := map[string]string{
		"SET":                        a,
		"SET, APPEND":                a + c,
		"SETRANGE in place":          setrange(a+c, 401),
		"SETRANGE over a whole run":  setrange(setrange(setrange(c, 0), 1), 2),
		"SETRANGE of a missing key":  setrange("", 3),
		"SETRANGE past the end":      setrange(c, 5),
		"padding then APPEND":        setrange(c, 5) + b,
		"padding overwritten":        setrange(setrange(c, 5), 4),
		"SETRANGE at a run's start":  setrange(c+b, 3),
		"SETRANGE at the last block": setrange(a, 399),
	}
	for name, v := range valid {
		if _, err := checkStressBlocks([]byte(v), 0, true); err != nil {
			t.Errorf("%s: rejected: %v", name, err)
		}
	}
	// A window of a valid value: runs may start before it and go on after it.
	if _, err := checkStressBlocks([]byte(a[150*stressBlock:200*stressBlock]), 150, false); err != nil {
		t.Errorf("window: rejected: %v", err)
	}
	if _, err := checkStressBlocks([]byte(a[150*stressBlock:]), 150, true); err != nil {
		t.Errorf("window to the end: rejected: %v", err)
	}
	flip := []byte(a)
	flip[20000] ^= 1
	shifted := a[:1000] + a[1001:] + "x"
	torn := map[string]string{
		"two SETs torn at 16 KiB":    a[:16384] + b[16384:],
		"two SETs torn at a block":   a[:200*stressBlock] + b[200*stressBlock:],
		"APPEND cut short":           a + c[:2*stressBlock],
		"SET cut short":              a[:399*stressBlock],
		"SET cut mid-block":          a[:16384],
		"a flipped bit":              string(flip),
		"a byte lost":                shifted,
		"blocks swapped":             a[:stressBlock] + blk(a, 2) + blk(a, 1) + a[3*stressBlock:],
		"SETRANGE block misplaced":   c[:stressBlock] + sr(2) + blk(c, 2),
		"zero block inside a run":    c[:stressBlock] + zero + blk(c, 2),
		"trailing zero block":        c + zero,
		"a run twice":                c + c,
		"old SET's tail after a SET": c + a[3*stressBlock:],
	}
	for name, v := range torn {
		if _, err := checkStressBlocks([]byte(v), 0, true); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
