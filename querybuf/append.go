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

// Flatten appends the arguments of a to flat, one after the other, and the end offset of each
// in flat to ends: a compact copy of a command line that outlives its arena (a blocked
// command's), which AppendFlat turns back into Args.
func Flatten(a Args, flat []byte, ends []uint32) ([]byte, []uint32) {
	for i := range a.Len() {
		flat = append(flat, a.Arg(i)...)
		ends = append(ends, uint32(len(flat)))
	}
	return flat, ends
}

// AppendFlat copies a command line made by Flatten into p's arena as a new complete command
// and returns it, as AppendCommand does.
func (p *Parser) AppendFlat(flat []byte, ends []uint32) Args {
	first := len(p.argEnd)
	start := uint32(0)
	for _, end := range ends {
		p.buf = append(p.buf, flat[start:end]...)
		p.argEnd = append(p.argEnd, uint32(len(p.buf)))
		start = end
	}
	p.cmdEnd = append(p.cmdEnd, uint32(len(p.argEnd)))
	return Args{p: p, first: first, n: len(ends)}
}
