// Package scripting is kvserver's Lua engine: EVAL scripts and FUNCTION libraries run on
// gopher-lua (a Lua 5.1 in Go), behaving as Redis 7.2's script_lua.c, eval.c and
// function_lua.c.
//
// # Model
//
// An Engine compiles each script body once (parse + lua.Compile → a *lua.FunctionProto kept
// in the Script, cached by SHA1) and runs it on a pooled interpreter (state): building one —
// libraries, the redis table, the protections — costs far more than a short script. A state
// serves one run at a time; runs go on in parallel on different states. The proto is shared:
// each run makes its closure from it in its state. Function libraries are compiled once too,
// and each state runs a library's code the first time one of its functions runs there
// (closures cannot move between interpreters).
//
// A run talks to the server only through its Caller (redis.call, redis.pcall,
// redis.acl_check_cmd, redis.log), on the run's goroutine. Replies come back as RESP bytes and
// are converted to Lua values; the script's result is written to a resp.Writer in the
// client's protocol.
//
// # Sandbox
//
// The globals are those of Redis 7.2's allow list (no print, dofile, loadfile, io; os has
// clock only), plus cjson, cmsgpack, bit and struct from scripting/lualib. Globals and library
// tables are read-only to scripts (see state), so that nothing a run does is seen by the next
// one on the same state.
//
// # Errors
//
// A run's error is written as Redis 7.2's luaCallFunction does: an error table keeps its code
// ({err="WRONGTYPE ..."}), any other error is "ERR " and its text, followed by " script:
// <sha or function>, on @user_script:<line>." where it was raised. gopher-lua's runtime errors
// are reworded as Lua 5.1's, naming the variable (luaerrors.go), and its compile errors too.
//
// # Kill
//
// A run whose RunOpts.Ctx is cancelled stops at its next Lua instruction (gopher-lua checks
// the context before every instruction when one is set: about 20-25 ns each on the
// development machine, BenchmarkLoopInstructions) and answers ErrKilled's text. Unlike
// Redis, a pcall cannot catch the kill for good: every instruction raises it again.
//
// # Known differences from Redis's Lua
//
//   - Numbers concatenated with .. are written in Go's shortest form (1/3 is
//     0.3333333333333333), not Lua's %.14g; tostring, redis.log and the arguments of
//     redis.call follow Redis.
//   - Tables iterate in gopher-lua's order (array part, then insertion order), not C Lua's
//     hash order; script results with maps and sets follow it.
//   - Error texts of rarer runtime errors (wrong argument types to library functions…) are
//     gopher-lua's.
package scripting
