package command

import (
	"fmt"
	"strings"

	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

// ReplyHelp writes a HELP reply in Redis's shape (addReplyHelp): a title line naming the
// command, the lines given, and the HELP line itself.
func ReplyHelp(w *resp.Writer, name string, lines []string) {
	w.Array(len(lines) + 3)
	w.Simple(name + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:")
	for _, l := range lines {
		w.Simple(l)
	}
	w.Simple("HELP")
	w.Simple("    Prints this help.")
}

// ReplySubcommandSyntaxError is Redis's addReplySubcommandSyntaxError, for a subcommand a
// handler does not know or whose arguments it cannot take.
func ReplySubcommandSyntaxError(w *resp.Writer, args querybuf.Args) {
	w.Error(fmt.Sprintf("ERR unknown subcommand or wrong number of arguments for '%.128s'. Try %s HELP.",
		args.Arg(1), strings.ToUpper(string(args.Arg(0)))))
}
