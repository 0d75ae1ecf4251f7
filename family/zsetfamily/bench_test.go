package zsetfamily

import (
	"fmt"
	"testing"
)

// benchCommand measures one command line run again and again through the pipeline, on a set
// of 100 members (a listpack) or 1000 (a skiplist once zsetval has it).
func benchCommand(b *testing.B, members int, args ...string) {
	h := newHarness(b)
	for i := range members {
		h.Do("ZADD", "z", fmt.Sprint(i), fmt.Sprintf("m%d", i))
	}
	data := fmt.Appendf(nil, "*%d\r\n", len(args))
	for _, a := range args {
		data = fmt.Appendf(data, "$%d\r\n%s\r\n", len(a), a)
	}
	h.Parser.ResetCommands()
	if _, err := h.Parser.Parse(data); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		h.RunParsed()
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
