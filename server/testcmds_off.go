//go:build !kvtestcmds

package server

import "github.com/kvserver/kvserver/command"

// testOnlyCommands is empty in normal builds: the commands that exercise failure paths exist
// only in binaries built with -tags kvtestcmds (testcmds_on.go), never in COMMAND COUNT.
func testOnlyCommands() []*command.Command { return nil }
