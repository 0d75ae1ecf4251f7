package tests

import (
	"bufio"

	"github.com/kvserver/kvserver/internal/cmdfile"
)

// The reply reader, the redis-cli formatting and the redis-cli splitting live in
// internal/cmdfile, shared with the in-process run of the command files; the tests here use
// them under their short names.

// A Reply is one decoded RESP2 or RESP3 reply, as hiredis would hand it to redis-cli.
type Reply = cmdfile.Reply

// readReply reads one complete reply (cmdfile.ReadReply).
func readReply(r *bufio.Reader) (*Reply, error) { return cmdfile.ReadReply(r) }

// formatReply formats a reply as redis-cli prints it to a terminal (cmdfile.Format).
func formatReply(r *Reply, typesOnly bool) string { return cmdfile.Format(r, typesOnly) }

// splitArgs splits a command line as redis-cli does (cmdfile.SplitArgs).
func splitArgs(line string) ([]string, error) { return cmdfile.SplitArgs(line) }

// encodeCommand encodes args as a RESP multibulk request (cmdfile.EncodeCommand).
func encodeCommand(args ...string) []byte { return cmdfile.EncodeCommand(args...) }
