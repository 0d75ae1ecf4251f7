// Package funclib is the registry of function libraries (Redis's functions.c): the libraries
// FUNCTION LOAD, DELETE, FLUSH and RESTORE change, the functions FCALL finds by name, the
// payload of FUNCTION DUMP, and what snapshots write and loads read (package persist's
// Functions).
//
// A library is compiled by the Lua engine (package scripting: its Lua side, the functions it
// registers); the registry checks its metadata line ("#!lua name=mylib") first, as Redis does,
// then links its functions under their names. Library names are case-sensitive; function names
// are not, across libraries (Redis's functions dictionary compares without case), so FCALL
// MYFUNC calls myfunc.
//
// Concurrency: readers (FCALL's Lookup, LIST, DUMP, snapshots' Codes) load an immutable
// version of the registry atomically and never wait; changes are serialized by a mutex, build
// a new version and publish it, then tell the engine to drop the libraries no version holds
// any more. A function found by Lookup stays valid for its run even if its library is deleted
// meanwhile: the engine keeps what a running call uses.
package funclib
