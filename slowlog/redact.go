package slowlog

import (
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/querybuf"
)

// redacted is what an entry shows for a secret argument (Redis's shared.redacted).
const redacted = "(redacted)"

// sensitiveConfigs are the parameters Redis flags SENSITIVE_CONFIG: CONFIG SET hides their
// values from the slow log.
var sensitiveConfigs = []string{"requirepass", "masterauth", "masteruser"}

// secretArgs marks the arguments of a command line that carry a password, as Redis's handlers
// do with redactClientCommandArgument before anything logs the command: AUTH's arguments,
// HELLO's AUTH username and password, and CONFIG SET's values of sensitive parameters. Redis
// redacts only once a handler has checked the argument count; kvserver redacts whatever the
// count, so that a malformed AUTH does not log its password either.
func secretArgs(fullName string, args querybuf.Args) []bool {
	n := args.Len()
	var secret []bool
	mark := func(j int) {
		if secret == nil {
			secret = make([]bool, n)
		}
		secret[j] = true
	}
	switch fullName {
	case "auth":
		for j := 1; j < n; j++ {
			mark(j)
		}
	case "hello":
		// hello [protover [AUTH username password] [SETNAME clientname]]: Redis's option loop,
		// which stops at the first option it does not know.
		for j := 2; j < n; j++ {
			more := n - 1 - j
			switch opt := args.Arg(j); {
			case conv.EqFold(opt, "auth") && more >= 2:
				mark(j + 1)
				mark(j + 2)
				j += 2
			case conv.EqFold(opt, "setname") && more >= 1:
				j++
			default:
				return secret
			}
		}
	case "config|set":
		for j := 2; j+1 < n; j += 2 {
			for _, name := range sensitiveConfigs {
				if conv.EqFold(args.Arg(j), name) {
					mark(j + 1)
				}
			}
		}
	}
	return secret
}
