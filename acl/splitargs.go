package acl

import (
	"errors"
	"strings"
)

var errUnbalanced = errors.New("unbalanced quotes")

// SplitArgs splits a line into arguments as Redis's sdssplitargs does: white space separates,
// "double quotes" take \n \r \t \b \a \\ \" and \xHH escapes, 'single quotes' take \', and a
// closing quote must be followed by a space or the end. It is how an aclfile line and a
// selector's inside are read.
func SplitArgs(line string) ([]string, error) {
	if i := strings.IndexByte(line, 0); i >= 0 {
		line = line[:i] // Redis reads a C string: it ends at the first NUL
	}
	args := []string{}
	p := 0
	for {
		for p < len(line) && isSpace(line[p]) {
			p++
		}
		if p >= len(line) {
			return args, nil
		}
		var cur []byte
		inq, insq := false, false
		for done := false; !done; {
			switch {
			case inq:
				if p >= len(line) {
					return nil, errUnbalanced
				}
				c := line[p]
				if c == '\\' && p+3 < len(line) && line[p+1] == 'x' && isHex(line[p+2]) && isHex(line[p+3]) {
					cur = append(cur, hexVal(line[p+2])<<4|hexVal(line[p+3]))
					p += 3
				} else if c == '\\' && p+1 < len(line) {
					p++
					switch line[p] {
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
					default:
						c = line[p]
					}
					cur = append(cur, c)
				} else if c == '"' {
					if p+1 < len(line) && !isSpace(line[p+1]) {
						return nil, errUnbalanced
					}
					done = true
				} else {
					cur = append(cur, c)
				}
			case insq:
				if p >= len(line) {
					return nil, errUnbalanced
				}
				c := line[p]
				if c == '\\' && p+1 < len(line) && line[p+1] == '\'' {
					p++
					cur = append(cur, '\'')
				} else if c == '\'' {
					if p+1 < len(line) && !isSpace(line[p+1]) {
						return nil, errUnbalanced
					}
					done = true
				} else {
					cur = append(cur, c)
				}
			default:
				if p >= len(line) {
					done = true
					break
				}
				switch c := line[p]; c {
				case ' ', '\n', '\r', '\t', 0:
					done = true
				case '"':
					inq = true
				case '\'':
					insq = true
				default:
					cur = append(cur, c)
				}
			}
			if p < len(line) {
				p++
			}
		}
		args = append(args, string(cur))
	}
}

func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
