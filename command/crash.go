package command

import (
	"fmt"
	"os"
)

// crash ends the process after a handler's panic in invariants builds: the panic, the command
// and the stack on standard error, exit status 2 (Go's own for an unrecovered panic). A plain
// re-panic would be recovered again by the connection's goroutine.
func crash(ctx *Ctx, r any, stack []byte) {
	fmt.Fprintf(os.Stderr, "panic in '%s' (invariants build): %v\n\n%s", ctx.Cmd.FullName, r, stack)
	os.Exit(2)
}
