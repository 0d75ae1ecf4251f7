package querybuf

// BigBuffers provides the buffers of big arguments (BigArgThreshold bytes or more). The server
// gives them from its allocator, so that a big value can become a stored value without a copy
// (TakeBig); without one they come from the Go heap and are always copied.
type BigBuffers interface {
	// Get returns a buffer of exactly n bytes and a non-zero token naming it, or ok false.
	Get(n int) (buf []byte, token uint32, ok bool)
	// Put gives back a buffer of n bytes that was not taken.
	Put(token uint32, n int)
}

// BigArgStage is how many of a big argument's first bytes the caller keeps, in its own buffer,
// before they go into the argument's buffer from BigBuffers. That buffer is a fresh mapping
// whose pages cost memory only once written, and its first write touches at least one page:
// a connection that sent the first 5,000 bytes of a 100,000-byte SET and then waits would hold
// two pages (8 KiB) for 5,000 bytes, where a buffer of exactly the received bytes holds 5 KiB.
// So the first bytes are staged until two pages' worth have come — usually the first read has
// more, and nothing is staged. Big arguments on the Go heap are not staged.
const BigArgStage = 8 << 10

// SetBigBuffers sets where big argument buffers come from (nil: the Go heap). Set it while no
// big argument is held.
func (p *Parser) SetBigBuffers(b BigBuffers) { p.bigBufs = b }

func (p *Parser) getBig(n int) ([]byte, uint32) {
	if p.bigBufs != nil {
		if b, token, ok := p.bigBufs.Get(n); ok {
			return b, token
		}
	}
	return make([]byte, n), 0
}

func (p *Parser) putBig(token uint32, n int) {
	if token != 0 && p.bigBufs != nil {
		p.bigBufs.Put(token, n)
	}
}

// TakeBig hands over the buffer of the big argument whose view is arg (as Args.Arg returned
// it): the caller now owns the token's buffer, of len(arg)+2 bytes, and the parser will not
// give it back. It reports false for any other slice, including big arguments on the Go heap.
// The view stays readable until ResetCommands.
func (p *Parser) TakeBig(arg []byte) (token uint32, ok bool) {
	if len(arg) == 0 {
		return 0, false
	}
	for i := range p.bigs {
		b := &p.bigs[i]
		if b.token != 0 && len(b.b) == len(arg)+2 && &b.b[0] == &arg[0] {
			token, b.token = b.token, 0
			return token, true
		}
	}
	return 0, false
}
