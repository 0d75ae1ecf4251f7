package scripting

import (
	"context"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/resp"
)

// Caller is what a run asks of the server. It is called on the run's goroutine only.
type Caller interface {
	// Call runs one command for redis.call / redis.pcall and returns its reply as RESP bytes
	// in protocol proto (2 or 3, as redis.setresp chose), valid until the next Call. Errors of
	// the command or of the checks before it are RESP error replies ("-ERR ...\r\n"); the
	// engine turns them into Lua error tables (redis.call raises, pcall returns). args and
	// their bytes are the engine's, valid during the call only: copy what is kept.
	Call(args [][]byte, proto int) []byte
	// ACLCheck answers redis.acl_check_cmd (no ACL yet: true for a known command; for an
	// unknown one errText is the error's text, "Invalid command passed to
	// redis.acl_check_cmd()").
	ACLCheck(args [][]byte) (ok bool, errText string)
	// Log is redis.log: level is LogDebug…LogWarning.
	Log(level int, msg string)
}

// RunOpts is one run's inputs.
type RunOpts struct {
	Keys, Argv [][]byte
	Proto      int             // the client's protocol: how the script's result is written to w
	Ctx        context.Context // cancelled by SCRIPT KILL / FUNCTION KILL (nil: not killable)
}

// Run runs s and writes its result, or its error in Redis's words, to w. Lua numbers become
// integers (truncated), tables arrays up to the first nil, {ok=…}/{err=…} status and error
// replies, false a null; RESP3 maps, sets, doubles and big numbers are written as such when
// the client speaks RESP3 — as Redis 7.2's script_lua.c.
func (e *Engine) Run(s *Script, c Caller, opts RunOpts, w *resp.Writer) {
	st := e.evalPool.get()
	fn := st.lastFn
	if st.lastScript != s {
		fn = st.L.NewFunctionFromProto(s.proto)
		st.lastScript, st.lastFn = s, fn
	}
	fn.Env = st.evalEnv
	st.setArray(&st.keys, &st.nkeys, opts.Keys)
	st.setArray(&st.argv, &st.nargv, opts.Argv)
	st.run(fn, 0, s.SHA, c, opts, w, ErrKilled)
	e.evalPool.put(st)
}

// setArray fills a reused KEYS or ARGV table with vals, or a new one when the script wrote a
// key the table did not have. *n is the table's length after the previous run: the entries
// past len(vals) are cleared (a script may have set some to nil, leaving holes). A string
// equal to the one already at its index is kept, without allocating.
func (st *state) setArray(t **lua.LTable, n *int, vals [][]byte) {
	if st.keysDirty {
		st.keys, st.argv = st.L.NewTable(), st.L.NewTable()
		st.nkeys, st.nargv = 0, 0
		st.keysDirty = false
		st.watchKeys()
		st.globals.RawSetString("KEYS", st.keys)
		st.globals.RawSetString("ARGV", st.argv)
	}
	tbl := *t
	for i, v := range vals {
		if old, ok := tbl.RawGetInt(i + 1).(lua.LString); ok && string(old) == string(v) {
			continue
		}
		tbl.RawSetInt(i+1, lua.LString(v))
	}
	for i := *n; i > len(vals); i-- {
		tbl.RawSetInt(i, lua.LNil)
	}
	*n = len(vals)
}

// run calls fn with nargs arguments already pushed above it and writes its result or error to
// w; name is the script's SHA or the function's name for error texts.
func (st *state) run(fn *lua.LFunction, nargs int, name string, c Caller, opts RunOpts, w *resp.Writer, killed error) {
	L := st.L
	st.caller, st.resp, st.name = c, 2, name
	L.Env = fn.Env
	if opts.Ctx != nil {
		L.SetContext(opts.Ctx)
	}
	if opts.Proto == 2 || opts.Proto == 3 {
		if old := w.Proto(); old != opts.Proto {
			w.SetProto(opts.Proto)
			defer w.SetProto(old)
		}
	}
	L.Insert(fn, L.GetTop()-nargs+1)
	err := L.PCall(nargs, 1, st.errFunc)
	if opts.Ctx != nil {
		L.RemoveContext()
	}
	if err != nil {
		if opts.Ctx != nil && opts.Ctx.Err() != nil {
			st.writeError(w, lua.LString(killed.Error()), true)
		} else if ae, ok := err.(*lua.ApiError); ok {
			st.writeError(w, ae.Object, false)
		} else {
			w.Error(err.Error())
		}
	} else {
		writeReply(w, L.Get(-1), st.resp, 0)
	}
	L.SetTop(0)
	st.caller = nil
}

// writeError writes a run's error as Redis's luaCallFunction: an error table keeps its code, any
// other value is "ERR " and its text; then " script: <name>, on <source>:<line>." where it was
// raised is known. coded says the text already has its code.
func (st *state) writeError(w *resp.Writer, obj lua.LValue, coded bool) {
	var msg string
	switch v := obj.(type) {
	case *lua.LTable:
		if s, ok := v.RawGetString("err").(lua.LString); ok {
			msg = string(s)
		} else {
			msg = "ERR " + v.String()
		}
	case lua.LString:
		msg = string(v)
		if !coded {
			msg = "ERR " + msg
		}
	default:
		msg = "ERR " + obj.String()
	}
	if st.errLine < 0 {
		// The handler could not run (a stack overflow leaves no frame for it): Lua's message
		// starts with the position, "user_script:1: ...".
		st.errSrc, st.errLine = positionOf(msg)
	}
	if st.errLine >= 0 && st.errSrc != "" {
		msg += " script: " + st.name + ", on " + st.errSrc + ":" + strconv.Itoa(st.errLine) + "."
	}
	st.errLine, st.errSrc = -1, ""
	w.Error("-" + msg)
}

// positionOf reads the "<source>:<line>:" a Lua error message starts with (after "ERR ").
func positionOf(msg string) (src string, line int) {
	msg = strings.TrimPrefix(msg, "ERR ")
	colon := strings.IndexByte(msg, ':')
	if colon <= 0 || strings.ContainsAny(msg[:colon], " \t") {
		return "", -1
	}
	rest := msg[colon+1:]
	end := strings.IndexByte(rest, ':')
	if end <= 0 {
		return "", -1
	}
	n, err := strconv.Atoi(rest[:end])
	if err != nil || n < 0 {
		return "", -1
	}
	return "@" + msg[:colon], n
}
