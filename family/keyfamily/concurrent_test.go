package keyfamily

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestConcurrently runs the family from many connections at once over one keyspace, so that
// -race and the invariants build see RENAME and COPY between shards, MOVE, SWAPDB, KEYS, SCAN,
// RANDOMKEY and the expire commands together, each holding only the shards its row declares.
// Tokens only ever move (RENAMENX between names of many shards): KEYS, which sees the whole
// keyspace at one instant, must always count exactly as many tokens as were made.
func TestConcurrently(t *testing.T) {
	wd := newWorld(t)
	const (
		tokens  = 40
		names   = 400
		workers = 8
		rounds  = 1500
	)
	setup := wd.conn(t)
	for i := range tokens {
		setup.do(fmt.Sprintf("SET tok:%d token-%d", i, i))
	}
	var workersWG, readerWG sync.WaitGroup
	errs := make(chan string, workers+1)
	for w := range workers {
		workersWG.Add(1)
		go func() {
			defer workersWG.Done()
			c := wd.conn(t)
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for range rounds {
				a, b := fmt.Sprintf("tok:%d", r.IntN(names)), fmt.Sprintf("tok:%d", r.IntN(names))
				if got := c.do("RENAMENX " + a + " " + b); strings.HasPrefix(got, "(error)") && got != "(error) ERR no such key" {
					errs <- "RENAMENX: " + got
					return
				}
				var got string
				switch r.IntN(9) {
				case 0:
					got = c.do(fmt.Sprintf("COPY %s copy:%d REPLACE", b, r.IntN(50)))
				case 1:
					c.do(fmt.Sprintf("SET mv:%d v", r.IntN(50)))
					got = c.do(fmt.Sprintf("MOVE mv:%d %d", r.IntN(50), 1+r.IntN(3)))
				case 2:
					c.do(fmt.Sprintf("PEXPIRE copy:%d %d", r.IntN(50), r.IntN(3)))
					wd.advance(1)
					got = c.do(fmt.Sprintf("TTL copy:%d", r.IntN(50)))
				case 3:
					got = c.do("SCAN " + strconv.FormatUint(r.Uint64()>>8, 10) + " COUNT " + strconv.Itoa(1+r.IntN(40)))
				case 4:
					got = c.do("RANDOMKEY")
				case 5:
					got = c.do("SWAPDB 2 3")
				case 6:
					got = c.do("DEL copy:1 copy:2 copy:3 mv:1 mv:2")
				case 7:
					got = c.do("OBJECT ENCODING " + b)
				case 8:
					c.ctx.DB = 1 + r.IntN(3)
					got = c.do("FLUSHDB")
					c.ctx.DB = 0
					c.do("DBSIZE")
				}
				if strings.HasPrefix(got, "(error)") {
					errs <- got
					return
				}
			}
		}()
	}
	// KEYS sees the whole keyspace at one instant: always every token, each once.
	done := make(chan struct{})
	readerWG.Add(1)
	go func() {
		defer readerWG.Done()
		c := wd.conn(t)
		for {
			select {
			case <-done:
				return
			default:
			}
			if n := strings.Count(c.do("KEYS tok:*"), `"`) / 2; n != tokens {
				errs <- fmt.Sprintf("KEYS tok:* counted %d tokens, want %d", n, tokens)
				return
			}
		}
	}()
	workersWG.Wait()
	close(done)
	readerWG.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if n := strings.Count(setup.do("KEYS tok:*"), `"`) / 2; n != tokens {
		t.Errorf("after the run: %d tokens, want %d", n, tokens)
	}
}
