package cmdfile

import (
	"fmt"
	"github.com/kvserver/kvserver/conv"
)

// SplitArgs splits a command line as redis-cli does (Redis's sdssplitargs, conv.SplitArgs):
// blanks separate arguments; "double quotes" allow \n \r \t \b \a \xHH and \<any> escapes;
// 'single quotes' allow only \'; a closing quote must be followed by a blank or the end.
func SplitArgs(line string) ([]string, error) {
	args, ok := conv.SplitArgs(line)
	if !ok {
		return nil, fmt.Errorf("unbalanced quotes in %q", line)
	}
	return args, nil
}

// EncodeCommand encodes args as a RESP multibulk request.
func EncodeCommand(args ...string) []byte {
	b := fmt.Appendf(nil, "*%d\r\n", len(args))
	for _, a := range args {
		b = fmt.Appendf(b, "$%d\r\n%s\r\n", len(a), a)
	}
	return b
}
