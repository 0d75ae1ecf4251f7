package serverfamily

import "github.com/kvserver/kvserver/command"

// Commands returns the family's rows, fresh on each call (command.New finishes them in place);
// their handlers reach the server through h. None of them touches keys: nothing is locked.
func Commands(h Host) []*command.Command {
	f := family{h}
	return []*command.Command{
		{Name: "time", Locking: command.LockNone, Handler: f.timeCommand},
		{Name: "command", Locking: command.LockNone, Handler: f.commandCommand, Subcommands: []*command.Command{
			{Name: "count", Locking: command.LockNone, Handler: f.commandCountCommand},
			{Name: "info", Locking: command.LockNone, Handler: f.commandInfoCommand},
			{Name: "list", Locking: command.LockNone, Handler: f.commandListCommand},
			{Name: "docs", Locking: command.LockNone, Handler: f.commandDocsCommand},
			{Name: "getkeys", Locking: command.LockNone, Handler: f.commandGetKeysCommand},
			{Name: "getkeysandflags", Locking: command.LockNone, Handler: f.commandGetKeysAndFlagsCommand},
			{Name: "help", Locking: command.LockNone, Handler: commandHelpCommand},
		}},
		{Name: "config", Subcommands: []*command.Command{
			{Name: "get", Locking: command.LockNone, Handler: configGetCommand},
			{Name: "set", Flags: command.MayReplicate | command.Protected, Locking: command.LockNone, Handler: f.configSetCommand},
			{Name: "resetstat", Locking: command.LockNone, Handler: f.configResetStatCommand},
			{Name: "rewrite", Locking: command.LockNone, Handler: f.configRewriteCommand},
			{Name: "help", Locking: command.LockNone, Handler: configHelpCommand},
		}},
	}
}

// family carries the host to the handlers that need it.
type family struct{ h Host }
