package querybuf

// isSpace is C's isspace in the C locale, which sdssplitargs uses to skip blanks and to
// accept what follows a closing quote.
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

// splitInline splits one inline line (newline removed) into arguments by sdssplitargs' rules
// and, when there is at least one, adds them to the arena as a complete command:
//
//   - blanks (isspace) separate arguments; an unquoted argument ends at ' ', '\t', '\r' or
//     '\n' only, so '\v' and '\f' inside one are kept;
//   - a '"' anywhere in an argument opens a double-quoted part with the escapes \n \r \t \b \a
//     and \xHH (two hex digits); any other escaped byte stands for itself;
//   - a single quote opens a single-quoted part in which only a backslash-quote is an escape;
//   - a closing quote must be followed by a blank or the end of the line, and a quote must be
//     closed: otherwise the line is "unbalanced quotes in request";
//   - an empty pair of quotes of either kind is an empty argument.
//
// The line holds no NUL (lineEnd would have stopped there), so a 0 from at means its end, as
// the terminating NUL does in C.
func (p *Parser) splitInline(line []byte) error {
	// Decoded arguments are never longer than the line.
	if err := p.reserveFlat(len(line)); err != nil {
		return err
	}
	buf0, args0 := len(p.buf), len(p.argEnd)
	if err := p.splitArgs(line); err != nil {
		p.buf, p.argEnd = p.buf[:buf0], p.argEnd[:args0]
		return err
	}
	if len(p.argEnd) > args0 {
		p.endCommand()
	}
	return nil
}

// splitArgs appends line's arguments to the arena. It follows sdssplitargs statement by
// statement, with at(i) for C's *(p+i).
func (p *Parser) splitArgs(line []byte) error {
	n := len(line)
	at := func(i int) byte {
		if i < n {
			return line[i]
		}
		return 0
	}
	i := 0
	for {
		for i < n && isSpace[line[i]] {
			i++
		}
		if i == n {
			return nil
		}
		inq, insq, done := false, false, false
		for !done {
			c := at(i)
			switch {
			case inq:
				switch {
				case c == '\\' && at(i+1) == 'x' && isHex(at(i+2)) && isHex(at(i+3)):
					p.buf = append(p.buf, hexVal(at(i+2))<<4|hexVal(at(i+3)))
					i += 3
				case c == '\\' && at(i+1) != 0:
					i++
					p.buf = append(p.buf, unescape(line[i]))
				case c == '"':
					if next := at(i + 1); next != 0 && !isSpace[next] {
						return ErrUnbalancedQuotes
					}
					done = true
				case c == 0:
					return ErrUnbalancedQuotes // unterminated quotes
				default:
					p.buf = append(p.buf, c)
				}
			case insq:
				switch {
				case c == '\\' && at(i+1) == '\'':
					i++
					p.buf = append(p.buf, '\'')
				case c == '\'':
					if next := at(i + 1); next != 0 && !isSpace[next] {
						return ErrUnbalancedQuotes
					}
					done = true
				case c == 0:
					return ErrUnbalancedQuotes
				default:
					p.buf = append(p.buf, c)
				}
			default:
				switch c {
				case ' ', '\n', '\r', '\t', 0:
					done = true
				case '"':
					inq = true
				case '\'':
					insq = true
				default:
					p.buf = append(p.buf, c)
				}
			}
			if at(i) != 0 {
				i++
			}
		}
		if err := p.reserveArgs(1); err != nil {
			return err
		}
		p.argEnd = append(p.argEnd, uint32(len(p.buf)))
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

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
