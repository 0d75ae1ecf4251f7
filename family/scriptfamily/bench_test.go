package scriptfamily

import (
	"testing"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/keyfamily"
	"github.com/kvserver/kvserver/family/stringfamily"
	"github.com/kvserver/kvserver/internal/familytest"
	"github.com/kvserver/kvserver/scripting"
)

// BenchmarkEvalSha: EVALSHA of a three-command script (GET, INCR, EXPIRE), bench's
// measurement 11, through the pipeline on one connection (the script's keyspace events are recorded
// by the harness's publisher).
func BenchmarkEvalSha(b *testing.B) {
	sc := command.NewScripts(nil, nil)
	f := New(scripting.New(scripting.Options{}), sc)
	h := familytest.New(b, f.Commands(), stringfamily.Commands(), keyfamily.Commands())
	sc.P, sc.Table = h.P, h.Tab
	body := "redis.call('get', KEYS[1]) redis.call('incr', KEYS[1]) return redis.call('expire', KEYS[1], 100)"
	h.Do("SCRIPT", "LOAD", body)
	h.Parser.ResetCommands()
	data := familytest.AppendCommand(nil, "EVALSHA", scripting.SHA1Hex([]byte(body)), "1", "counter")
	h.Parser.Parse(data)
	b.ReportAllocs()
	for b.Loop() {
		h.RunParsed()
	}
}
