package cmdfile

import (
	"fmt"
	"strconv"
	"strings"
)

// SplitArgs splits a command line as redis-cli does (Redis's sdssplitargs): blanks separate
// arguments; "double quotes" allow \n \r \t \b \a \xHH and \<any> escapes; 'single quotes'
// allow only \'; a closing quote must be followed by a blank or the end of the line.
func SplitArgs(line string) ([]string, error) {
	var args []string
	i := 0
	isSpace := func(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f' }
	isHex := func(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }
	for {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) {
			return args, nil
		}
		var cur []byte
		inq, insq := false, false
		for done := false; !done; {
			switch {
			case inq:
				switch {
				case i >= len(line):
					return nil, fmt.Errorf("unbalanced quotes in %q", line)
				case line[i] == '\\' && i+3 < len(line) && line[i+1] == 'x' && isHex(line[i+2]) && isHex(line[i+3]):
					v, _ := strconv.ParseUint(line[i+2:i+4], 16, 8)
					cur = append(cur, byte(v))
					i += 3
				case line[i] == '\\' && i+1 < len(line):
					i++
					c := line[i]
					switch c {
					case 'n':
						c = '\n'
					case 'r':
						c = '\r'
					case 't':
						c = '\t'
					case 'b':
						c = '\b'
					case 'a':
						c = '\a'
					}
					cur = append(cur, c)
				case line[i] == '"':
					if i+1 < len(line) && !isSpace(line[i+1]) {
						return nil, fmt.Errorf("closing quote must be followed by a space in %q", line)
					}
					done = true
				default:
					cur = append(cur, line[i])
				}
			case insq:
				switch {
				case i >= len(line):
					return nil, fmt.Errorf("unbalanced quotes in %q", line)
				case line[i] == '\\' && i+1 < len(line) && line[i+1] == '\'':
					i++
					cur = append(cur, '\'')
				case line[i] == '\'':
					if i+1 < len(line) && !isSpace(line[i+1]) {
						return nil, fmt.Errorf("closing quote must be followed by a space in %q", line)
					}
					done = true
				default:
					cur = append(cur, line[i])
				}
			default:
				if i >= len(line) {
					done = true
					break
				}
				switch line[i] {
				case ' ', '\n', '\r', '\t':
					done = true
				case '"':
					inq = true
				case '\'':
					insq = true
				default:
					cur = append(cur, line[i])
				}
			}
			if i < len(line) {
				i++
			}
		}
		args = append(args, string(cur))
	}
}

// EncodeCommand encodes args as a RESP multibulk request.
func EncodeCommand(args ...string) []byte {
	b := fmt.Appendf(nil, "*%d\r\n", len(args))
	for _, a := range args {
		b = fmt.Appendf(b, "$%d\r\n%s\r\n", len(a), a)
	}
	return b
}
