package scripting

import (
	"strings"
	"testing"

	"github.com/kvserver/kvserver/resp"
)

// fakeCaller records the commands a script calls and answers canned RESP replies: replies
// maps a command's name (upper case) to its reply; an unknown command gets Redis's error.
type fakeCaller struct {
	calls   [][]string
	protos  []int
	replies map[string]string
	logs    []string
}

func (f *fakeCaller) Call(args [][]byte, proto int) []byte {
	var call []string
	for _, a := range args {
		call = append(call, string(a))
	}
	f.calls = append(f.calls, call)
	f.protos = append(f.protos, proto)
	if r, ok := f.replies[strings.ToUpper(call[0])]; ok {
		return []byte(r)
	}
	return []byte("-ERR Unknown Redis command called from script\r\n")
}

func (f *fakeCaller) ACLCheck(args [][]byte) (bool, string) {
	if _, ok := f.replies[strings.ToUpper(string(args[0]))]; ok {
		return true, ""
	}
	return false, "Invalid command passed to redis.acl_check_cmd()"
}

func (f *fakeCaller) Log(level int, msg string) {
	f.logs = append(f.logs, string(rune('0'+level))+" "+msg)
}

func newTestEngine() *Engine {
	return New(Options{Version: "7.2.4", VersionNum: 0x070204})
}

// eval loads body and runs it with keys and argv for a client of protocol proto; it returns
// the reply's RESP text.
func eval(t testing.TB, e *Engine, c Caller, proto int, body string, keys, argv []string) string {
	t.Helper()
	s, err := e.Load([]byte(body))
	if err != nil {
		return "LOAD " + err.Error()
	}
	var w resp.Writer
	w.SetProto(proto)
	e.Run(s, c, RunOpts{Keys: toBytes(keys), Argv: toBytes(argv), Proto: proto}, &w)
	return string(w.Bytes())
}

func toBytes(ss []string) [][]byte {
	var out [][]byte
	for _, s := range ss {
		out = append(out, []byte(s))
	}
	return out
}
