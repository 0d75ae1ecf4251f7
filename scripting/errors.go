package scripting

import "errors"

// ErrKilled is the error a run stopped by SCRIPT KILL answers (script_lua.c
// luaMaskCountHook); Run appends Redis's " script: <sha>, on @user_script:<line>." to it.
var ErrKilled = errors.New("ERR Script killed by user with SCRIPT KILL...")

// FunctionKilled is ErrKilled for a function stopped by FUNCTION KILL.
var FunctionKilled = errors.New("ERR Script killed by user with FUNCTION KILL...")

// errTimeout is a library load that ran longer than the load time limit (500 ms).
var errTimeout = errors.New("FUNCTION LOAD timeout")

// scriptError returns an error whose text is Redis's reply to the client: msg with the ERR
// code in front.
func scriptError(msg string) error { return errors.New("ERR " + msg) }
