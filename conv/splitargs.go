package conv

// NextArg is one step of Redis's sdssplitargs: it skips the blanks (IsSpace) of line from pos,
// decodes the argument that follows and appends its bytes to dst. It returns dst, the position
// after the argument, found false when only blanks were left, and ok false when the argument's
// quotes are unbalanced (dst then holds part of it; each caller words the error: the inline
// protocol's "unbalanced quotes in request", the configuration's "Unbalanced quotes in
// configuration line"). The rules:
//
//   - an unquoted argument ends at ' ', '\t', '\r', '\n' or the end of line, so '\v' and '\f'
//     inside one are kept;
//   - a '"' anywhere in an argument opens a double-quoted part with the escapes \n \r \t \b \a
//     and \xHH (two hex digits); any other escaped byte stands for itself;
//   - a '\” opens a single-quoted part in which only \' is an escape;
//   - a closing quote must be followed by a blank or the end of line, and a quote must be
//     closed;
//   - an empty pair of quotes of either kind is an empty argument.
//
// C's version ends the line at a NUL byte; here line ends at len(line), and a NUL inside it is
// an ordinary byte, except that, as C's *(p+1) test reads it, a backslash or a closing quote
// followed by a NUL is taken as followed by the end of line. (The inline protocol never passes
// a NUL.) NextArg allocates only by growing dst.
func NextArg[T Text](dst []byte, line T, pos int) (out []byte, next int, found, ok bool) {
	n := len(line)
	at := func(i int) byte { // C's *(p+i): 0 past the end
		if i < n {
			return line[i]
		}
		return 0
	}
	p := pos
	for p < n && IsSpace(line[p]) {
		p++
	}
	if p >= n {
		return dst, p, false, true
	}
	inq, insq := false, false
	for done := false; !done; {
		c := at(p)
		switch {
		case inq:
			switch {
			case c == '\\' && at(p+1) == 'x' && isHex(at(p+2)) && isHex(at(p+3)):
				dst = append(dst, hexVal(at(p+2))<<4|hexVal(at(p+3)))
				p += 3
			case c == '\\' && at(p+1) != 0:
				p++
				dst = append(dst, unescape(line[p]))
			case c == '"':
				if next := at(p + 1); next != 0 && !IsSpace(next) {
					return dst, p, true, false // closing quote must be followed by a space
				}
				done = true
			case p >= n:
				return dst, p, true, false // unterminated quotes
			default:
				dst = append(dst, c)
			}
		case insq:
			switch {
			case c == '\\' && at(p+1) == '\'':
				p++
				dst = append(dst, '\'')
			case c == '\'':
				if next := at(p + 1); next != 0 && !IsSpace(next) {
					return dst, p, true, false
				}
				done = true
			case p >= n:
				return dst, p, true, false
			default:
				dst = append(dst, c)
			}
		default:
			switch {
			case p >= n || c == ' ' || c == '\n' || c == '\r' || c == '\t':
				done = true
			case c == '"':
				inq = true
			case c == '\'':
				insq = true
			default:
				dst = append(dst, c)
			}
		}
		if p < n {
			p++
		}
	}
	return dst, p, true, true
}

// SplitArgs is Redis's sdssplitargs: line's arguments by NextArg's rules, nil when there are
// none, and ok false when quotes are unbalanced. Redis splits configuration lines, the
// arguments of a configuration directive given on the command line, and inline commands
// with it.
func SplitArgs[T Text](line T) (args []string, ok bool) {
	var buf []byte
	for p := 0; ; {
		var found bool
		buf, p, found, ok = NextArg(buf[:0], line, p)
		if !ok {
			return nil, false
		}
		if !found {
			return args, true
		}
		args = append(args, string(buf))
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// hexVal is the value of a hex digit (isHex).
func hexVal(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
}

// unescape is the byte a backslash escape stands for inside double quotes.
func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'b':
		return '\b'
	case 'a':
		return '\a'
	}
	return c
}
