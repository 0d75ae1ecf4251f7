package querybuf

import "github.com/kvserver/kvserver/conv"

// splitInline splits one inline line (newline removed) into arguments by sdssplitargs' rules
// (conv.NextArg) and, when there is at least one, adds them to the arena as a complete
// command; unbalanced quotes are "unbalanced quotes in request". The line holds no NUL
// (lineEnd would have stopped there), so it ends where C's string would.
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

// splitArgs appends line's arguments to the arena, split by conv.NextArg (sdssplitargs).
func (p *Parser) splitArgs(line []byte) error {
	for i := 0; ; {
		var found, ok bool
		p.buf, i, found, ok = conv.NextArg(p.buf, line, i)
		if !ok {
			return ErrUnbalancedQuotes
		}
		if !found {
			return nil
		}
		if err := p.reserveArgs(1); err != nil {
			return err
		}
		p.argEnd = append(p.argEnd, uint32(len(p.buf)))
	}
}
