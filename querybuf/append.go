package querybuf

// AppendCommand copies the arguments of a — a command of another parser's arena — into p's
// arena as a new complete command and returns it: MULTI's queue keeps its commands this way,
// out of the connection's query buffer. p must be used for nothing else (no Parse): its
// commands stay valid until ResetCommands or Reset.
func (p *Parser) AppendCommand(a Args) Args {
	first := len(p.argEnd)
	for i := range a.Len() {
		p.buf = append(p.buf, a.Arg(i)...)
		p.argEnd = append(p.argEnd, uint32(len(p.buf)))
	}
	p.cmdEnd = append(p.cmdEnd, uint32(len(p.argEnd)))
	return Args{p: p, first: first, n: a.Len()}
}
