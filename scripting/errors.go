package scripting

import "errors"

// ErrKilled is the error a run stopped by SCRIPT KILL answers (script_lua.c
// luaMaskCountHook); Run appends Redis's " script: <sha>, on @user_script:<line>." to it.
var ErrKilled = errors.New("ERR Script killed by user with SCRIPT KILL...")

// FunctionKilled is the error of a function stopped by FUNCTION KILL: Redis answers the same
// words as for SCRIPT KILL (its hook has one text), with " script: <function>, on
// @user_function:<line>." after them.
var FunctionKilled = ErrKilled

// scriptError returns an error whose text is Redis's reply to the client: msg with the ERR
// code in front.
func scriptError(msg string) error { return errors.New("ERR " + msg) }
