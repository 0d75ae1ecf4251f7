package scripting

import (
	"crypto/sha1"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"syscall"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/resp"
)

// Redis's log levels, the values of redis.LOG_*.
const (
	LogDebug = iota
	LogVerbose
	LogNotice
	LogWarning
)

// Propagation flags of redis.set_repl (server.h PROPAGATE_*).
const (
	replNone = 0
	replAOF  = 1
	replRepl = 2
	replAll  = replAOF | replRepl
)

// redisTable builds the redis table of a state (script_lua.c luaRegisterServerAPI); an EVAL
// state's has breakpoint, debug and replicate_commands too (eval.c scriptingInit), a
// functions' state's has not.
func (st *state) redisTable(e *Engine, eval bool) *lua.LTable {
	L := st.L
	t := L.NewTable()
	set := func(name string, fn lua.LGFunction) { t.RawSetString(name, L.NewFunction(fn)) }
	set("call", st.redisCall)
	set("pcall", st.redisPCall)
	set("log", st.redisLog)
	setLogLevels(t)
	setVersion(t, e)
	set("setresp", st.redisSetResp)
	set("sha1hex", redisSha1hex)
	set("error_reply", redisErrorReply)
	set("status_reply", redisStatusReply)
	set("set_repl", redisSetRepl)
	t.RawSetString("REPL_NONE", lua.LNumber(replNone))
	t.RawSetString("REPL_AOF", lua.LNumber(replAOF))
	t.RawSetString("REPL_SLAVE", lua.LNumber(replRepl))
	t.RawSetString("REPL_REPLICA", lua.LNumber(replRepl))
	t.RawSetString("REPL_ALL", lua.LNumber(replAll))
	set("acl_check_cmd", st.redisACLCheck)
	if eval {
		set("breakpoint", func(L *lua.LState) int { L.Push(lua.LFalse); return 1 })
		set("debug", func(L *lua.LState) int { return 0 })
		set("replicate_commands", func(L *lua.LState) int { L.Push(lua.LTrue); return 1 })
	}
	return t
}

func setLogLevels(t *lua.LTable) {
	t.RawSetString("LOG_DEBUG", lua.LNumber(LogDebug))
	t.RawSetString("LOG_VERBOSE", lua.LNumber(LogVerbose))
	t.RawSetString("LOG_NOTICE", lua.LNumber(LogNotice))
	t.RawSetString("LOG_WARNING", lua.LNumber(LogWarning))
}

func setVersion(t *lua.LTable, e *Engine) {
	t.RawSetString("REDIS_VERSION", lua.LString(e.opts.Version))
	t.RawSetString("REDIS_VERSION_NUM", lua.LNumber(e.opts.VersionNum))
}

// pushError pushes Redis's error table for msg (script_lua.c luaPushErrorBuff): msg is
// "-CODE text" (the code kept) or a text to which the ERR code is added; CR/LF at its ends go.
func pushError(L *lua.LState, msg string) *lua.LTable {
	t := L.NewTable()
	t.RawSetString("err", lua.LString(errorText(msg)))
	L.Push(t)
	return t
}

// errorText is luaPushErrorBuff's text for msg.
func errorText(msg string) string {
	var code, text string
	if strings.HasPrefix(msg, "-") {
		if sp := strings.IndexByte(msg, ' '); sp < 0 {
			code, text = "ERR", msg[1:]
		} else {
			code, text = msg[1:sp], msg[sp+1:]
		}
	} else {
		code, text = "ERR", msg
	}
	return code + " " + strings.Trim(text, "\r\n")
}

// raise raises the error table on top of the stack.
func raise(L *lua.LState) int {
	L.Error(L.Get(-1), 0)
	return 0
}

// redisCall is redis.call: an error reply raises its error table.
func (st *state) redisCall(L *lua.LState) int { return st.genericCall(L, true) }

// redisPCall is redis.pcall: an error reply is returned as its error table.
func (st *state) redisPCall(L *lua.LState) int { return st.genericCall(L, false) }

// genericCall runs a command for redis.call / redis.pcall (script_lua.c
// luaRedisGenericCommand).
func (st *state) genericCall(L *lua.LState, raiseErr bool) int {
	if !st.argsFromStack(L) {
		if raiseErr {
			return raise(L)
		}
		return 1
	}
	if st.caller == nil {
		// Only a library's load runs without a caller, and its redis table has no call.
		pushError(L, "redis.call is not available here")
		return raise(L)
	}
	reply := st.caller.Call(st.args, st.resp)
	v, _, err := parseReply(L, reply)
	if err != nil {
		pushError(L, "Protocol error in a command's reply: "+err.Error())
		return raise(L)
	}
	if t, ok := v.(*lua.LTable); ok && len(reply) > 0 && reply[0] == '-' {
		// The command already counted its error: Redis marks the table so that the script's
		// failure is not counted twice.
		t.RawSetString("ignore_error_stats_update", lua.LTrue)
		L.Push(t)
		if raiseErr {
			return raise(L)
		}
		return 1
	}
	L.Push(v)
	return 1
}

// argsFromStack converts the Lua arguments of a redis lib call into st.args (script_lua.c
// luaArgsToRedisArgv). Numbers are written as Redis does: integers without a fraction,
// other numbers in the shortest form that reads back the same. On a wrong argument it
// pushes the error table and returns false.
func (st *state) argsFromStack(L *lua.LState) bool {
	n := L.GetTop()
	if n == 0 {
		pushError(L, "Please specify at least one argument for this redis lib call")
		return false
	}
	st.argBuf = st.argBuf[:0]
	var ends [16]int
	endv := ends[:0]
	for i := 1; i <= n; i++ {
		switch v := L.Get(i).(type) {
		case lua.LString:
			st.argBuf = append(st.argBuf, v...)
		case lua.LNumber:
			st.argBuf = appendNumber(st.argBuf, float64(v))
		default:
			L.SetTop(0)
			pushError(L, "Lua redis lib command arguments must be strings or integers")
			return false
		}
		endv = append(endv, len(st.argBuf))
	}
	st.args = st.args[:0]
	start := 0
	for _, end := range endv {
		st.args = append(st.args, st.argBuf[start:end:end])
		start = end
	}
	L.SetTop(0)
	return true
}

// appendNumber writes a Lua number as a command argument: an integer in the range of a long
// long / 2 in decimal (Redis's double2ll), any other number as Redis 7.2's fpconv_dtoa.
func appendNumber(dst []byte, f float64) []byte {
	if f == math.Trunc(f) && f >= -(1<<62) && f <= 1<<62 {
		return strconv.AppendInt(dst, int64(f), 10)
	}
	return resp.AppendDouble(dst, f)
}

// redisLog is redis.log(level, ...) (script_lua.c luaLogCommand).
func (st *state) redisLog(L *lua.LState) int {
	argc := L.GetTop()
	if argc < 2 {
		pushError(L, "redis.log() requires two arguments or more.")
		return raise(L)
	}
	lv, ok := L.Get(1).(lua.LNumber)
	if !ok {
		if s, isStr := L.Get(1).(lua.LString); isStr {
			if f, err := strconv.ParseFloat(strings.TrimSpace(string(s)), 64); err == nil {
				lv, ok = lua.LNumber(f), true
			}
		}
	}
	if !ok {
		pushError(L, "First argument must be a number (log level).")
		return raise(L)
	}
	level := int(lv)
	if level < LogDebug || level > LogWarning {
		pushError(L, "Invalid debug level.")
		return raise(L)
	}
	var b strings.Builder
	for i := 2; i <= argc; i++ {
		var s string
		switch v := L.Get(i).(type) {
		case lua.LString:
			s = string(v)
		case lua.LNumber:
			s = formatNumber(float64(v))
		default:
			continue
		}
		if i != 2 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	switch {
	case st.caller != nil:
		st.caller.Log(level, b.String())
	case st.loading != nil && !st.loading.first:
		// A state loading a library again for its own use: the lines were logged by the load.
	case st.loadLog != nil:
		st.loadLog(level, b.String())
	}
	return 0
}

// redisSetResp is redis.setresp(2|3): the protocol of the replies redis.call returns.
func (st *state) redisSetResp(L *lua.LState) int {
	if L.GetTop() != 1 {
		pushError(L, "redis.setresp() requires one argument.")
		return raise(L)
	}
	v := int(toNumber(L.Get(1)))
	if v != 2 && v != 3 {
		pushError(L, "RESP version must be 2 or 3.")
		return raise(L)
	}
	st.resp = v
	return 0
}

// toNumber is lua_tonumber: a number, a string holding one, else 0.
func toNumber(v lua.LValue) float64 {
	switch v := v.(type) {
	case lua.LNumber:
		return float64(v)
	case lua.LString:
		if f, err := strconv.ParseFloat(strings.TrimSpace(string(v)), 64); err == nil {
			return f
		}
	}
	return 0
}

// redisSha1hex is redis.sha1hex(s).
func redisSha1hex(L *lua.LState) int {
	if L.GetTop() != 1 {
		pushError(L, "wrong number of arguments")
		return raise(L)
	}
	var s string
	switch v := L.Get(1).(type) {
	case lua.LString:
		s = string(v)
	case lua.LNumber:
		s = formatNumber(float64(v))
	}
	sum := sha1.Sum([]byte(s))
	L.Push(lua.LString(hex.EncodeToString(sum[:])))
	return 1
}

// redisErrorReply is redis.error_reply(msg): the table {err=msg}, with ERR added when msg has
// no '-' code (a wrong argument returns the error table of that, not raising it).
func redisErrorReply(L *lua.LState) int {
	s, ok := L.Get(1).(lua.LString)
	if L.GetTop() != 1 || !ok {
		pushError(L, "wrong number or type of arguments")
		return 1
	}
	msg := string(s)
	if !strings.HasPrefix(msg, "-") {
		msg = "-" + msg
	}
	pushError(L, msg)
	return 1
}

// redisStatusReply is redis.status_reply(msg): the table {ok=msg}.
func redisStatusReply(L *lua.LState) int {
	s, ok := L.Get(1).(lua.LString)
	if L.GetTop() != 1 || !ok {
		pushError(L, "wrong number or type of arguments")
		return 1
	}
	t := L.NewTable()
	t.RawSetString("ok", s)
	L.Push(t)
	return 1
}

// redisSetRepl is redis.set_repl(flags): checked and accepted (commands propagate as the
// server decides: effects replication, Redis 7's only mode).
func redisSetRepl(L *lua.LState) int {
	if L.GetTop() != 1 {
		pushError(L, "redis.set_repl() requires two arguments.")
		return raise(L)
	}
	flags := int(toNumber(L.Get(1)))
	if flags&^replAll != 0 {
		pushError(L, "Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.")
		return raise(L)
	}
	return 0
}

// redisACLCheck is redis.acl_check_cmd(cmd, args...).
func (st *state) redisACLCheck(L *lua.LState) int {
	if !st.argsFromStack(L) {
		return raise(L)
	}
	if st.caller == nil {
		L.Push(lua.LTrue)
		return 1
	}
	ok, errText := st.caller.ACLCheck(st.args)
	if errText != "" {
		pushError(L, errText)
		return raise(L)
	}
	L.Push(lua.LBool(ok))
	return 1
}

// osClock is os.clock(): the CPU time of the process in seconds, as C's clock().
func osClock(L *lua.LState) int {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		L.Push(lua.LNumber(0))
		return 1
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	L.Push(lua.LNumber(cpu.Seconds()))
	return 1
}
