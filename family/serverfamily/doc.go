// Package serverfamily is the family of commands about the server as a whole that need no
// client's socket: COMMAND and its subcommands (answered from Redis 7.2's metadata in package
// command), CONFIG GET / SET / RESETSTAT / REWRITE / HELP and TIME (SCRIPT and FUNCTION are
// family/scriptfamily's).
//
// What only the server knows — its command table, its configuration file, its statistics, its
// clock and logger, the descriptor limit — comes through Host, which package server implements.
// The commands about connections (CLIENT, HELLO, AUTH, SELECT …), INFO and DEBUG live elsewhere.
package serverfamily
