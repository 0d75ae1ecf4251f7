package server

import (
	"strconv"
)

// eqFold reports whether arg equals the lower-case token in any case, without allocating.
func eqFold(arg []byte, lower string) bool {
	if len(arg) != len(lower) {
		return false
	}
	for i, ch := range arg {
		if 'A' <= ch && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		if ch != lower[i] {
			return false
		}
	}
	return true
}

// parseInt parses an argument as Redis's string2ll does: an optional '-', digits, no '+',
// spaces or leading zeros (except "0" itself), within int64.
func parseInt(arg []byte) (int64, bool) {
	if len(arg) == 0 || len(arg) > 20 {
		return 0, false
	}
	if arg[0] == '+' || (arg[0] == '0' && len(arg) > 1) || (arg[0] == '-' && (len(arg) == 1 || arg[1] == '0')) {
		return 0, false
	}
	v, err := strconv.ParseInt(string(arg), 10, 64)
	return v, err == nil
}

func isSpace(ch byte) bool {
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f'
}

// cString is arg as C's %s prints it: up to the first NUL byte.
func cString(arg []byte) string {
	for i, ch := range arg {
		if ch == 0 {
			return string(arg[:i])
		}
	}
	return string(arg)
}
