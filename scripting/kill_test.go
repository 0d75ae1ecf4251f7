package scripting

import (
	"context"
	"testing"

	"github.com/kvserver/kvserver/resp"
)

// killCaller cancels the run's context when the script calls KILLME, as SCRIPT KILL would
// from another client while the script runs.
type killCaller struct {
	fakeCaller
	cancel context.CancelFunc
}

func (k *killCaller) Call(args [][]byte, proto int) []byte {
	if string(args[0]) == "KILLME" {
		k.cancel()
		return []byte("+OK\r\n")
	}
	return k.fakeCaller.Call(args, proto)
}

func TestKill(t *testing.T) {
	for _, body := range []string{
		"redis.call('KILLME')\nwhile true do end",
		// pcall cannot keep a killed script alive: every instruction raises again.
		"redis.call('KILLME')\nlocal n = 0\nwhile true do pcall(function() while true do end end) n = n + 1 end",
	} {
		e := newTestEngine()
		s, err := e.Load([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		c := &killCaller{cancel: cancel}
		var w resp.Writer
		e.Run(s, c, RunOpts{Proto: 2, Ctx: ctx}, &w)
		if got, want := string(w.Bytes()), "-ERR Script killed by user with SCRIPT KILL... script: "+s.SHA+", on @user_script:"; len(got) < len(want) || got[:len(want)] != want {
			t.Errorf("%q: reply %q", body, got)
		}
		// The state is usable again, without the old context.
		w.Reset()
		s2, _ := e.Load([]byte("return 7"))
		e.Run(s2, c, RunOpts{Proto: 2}, &w)
		if string(w.Bytes()) != ":7\r\n" {
			t.Errorf("run after a kill: %q", w.Bytes())
		}
	}
}

// A killed function answers the same words, with the function's name.
func TestKillFunction(t *testing.T) {
	e := newTestEngine()
	lib, err := e.LoadLibrary([]byte("#!lua name=busy\nredis.register_function('spin', function(k, a)\n  redis.call('KILLME')\n  while true do end\nend)"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var w resp.Writer
	e.CallFunction(lib.Functions[0], &killCaller{cancel: cancel}, RunOpts{Proto: 2, Ctx: ctx}, &w)
	if got, want := string(w.Bytes()), "-ERR Script killed by user with SCRIPT KILL... script: spin, on @user_function:4.\r\n"; got != want {
		t.Errorf("reply %q, want %q", got, want)
	}
}
