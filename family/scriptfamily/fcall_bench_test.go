package scriptfamily

import (
	"testing"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/keyfamily"
	"github.com/kvserver/kvserver/family/stringfamily"
	"github.com/kvserver/kvserver/funclib"
	"github.com/kvserver/kvserver/internal/familytest"
	"github.com/kvserver/kvserver/scripting"
)

// BenchmarkFcall: FCALL of a function running the three commands of BenchmarkEvalSha (GET,
// INCR, EXPIRE), through the pipeline on one connection: what a function costs beside a script.
func BenchmarkFcall(b *testing.B) {
	e := scripting.New(scripting.Options{})
	sc := command.NewScripts(nil, nil)
	f := New(e, sc)
	f.Functions = funclib.New(e)
	h := familytest.New(b, f.Commands(), stringfamily.Commands(), keyfamily.Commands())
	sc.P, sc.Table = h.P, h.Tab
	code := "#!lua name=bench\nredis.register_function('gie', function(keys) redis.call('get', keys[1]) " +
		"redis.call('incr', keys[1]) return redis.call('expire', keys[1], 100) end)"
	if got := h.Do("FUNCTION", "LOAD", code); got != "$5\r\nbench\r\n" {
		b.Fatalf("FUNCTION LOAD: %q", got)
	}
	h.Parser.ResetCommands()
	data := familytest.AppendCommand(nil, "FCALL", "gie", "1", "counter")
	h.Parser.Parse(data)
	b.ReportAllocs()
	for b.Loop() {
		h.RunParsed()
	}
}
