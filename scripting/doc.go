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
// # Kill
//
// A run whose RunOpts.Ctx is cancelled stops at its next Lua instruction (gopher-lua checks
// the context between instructions when one is set) and answers ErrKilled's text.
package scripting
