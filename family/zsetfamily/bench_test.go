package zsetfamily

import (
	"fmt"
	"testing"
)

// runParsed runs the command the harness's parser holds, as do does, without building it.
func (h *harness) runParsed() {
	a := h.parser.Command(0)
	cmd, errText := h.tab.Lookup(a)
	h.ctx.Args, h.ctx.Cmd = a, cmd
	h.w.Reset()
	h.p.Run(h.ctx, &fakeConn{}, errText, false)
}

// benchCommand measures one command line run again and again through the pipeline, on a set
// of 100 members (a listpack) or 1000 (a skiplist once zsetval has it).
func benchCommand(b *testing.B, members int, args ...string) {
	h := newHarness(b)
	for i := range members {
		h.do("ZADD", "z", fmt.Sprint(i), fmt.Sprintf("m%d", i))
	}
	data := fmt.Appendf(nil, "*%d\r\n", len(args))
	for _, a := range args {
		data = fmt.Appendf(data, "$%d\r\n%s\r\n", len(a), a)
	}
	h.parser.ResetCommands()
	if _, err := h.parser.Parse(data); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		h.runParsed()
	}
}

func BenchmarkZaddExisting100(b *testing.B)  { benchCommand(b, 100, "ZADD", "z", "7", "m50") }
func BenchmarkZaddExisting1000(b *testing.B) { benchCommand(b, 1000, "ZADD", "z", "7", "m500") }
func BenchmarkZincrby1000(b *testing.B)      { benchCommand(b, 1000, "ZINCRBY", "z", "1", "m500") }
func BenchmarkZscore1000(b *testing.B)       { benchCommand(b, 1000, "ZSCORE", "z", "m500") }
func BenchmarkZrank1000(b *testing.B)        { benchCommand(b, 1000, "ZRANK", "z", "m500") }
func BenchmarkZrange10of1000(b *testing.B) {
	benchCommand(b, 1000, "ZRANGE", "z", "500", "509", "WITHSCORES")
}
func BenchmarkZrangebyscore10of1000(b *testing.B) {
	benchCommand(b, 1000, "ZRANGEBYSCORE", "z", "500", "+inf", "LIMIT", "0", "10")
}
func BenchmarkZunion2x100(b *testing.B) { benchCommand(b, 100, "ZUNION", "2", "z", "z") }
