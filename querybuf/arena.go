package querybuf

import (
	"cmp"
	"slices"
	"unsafe"
)

const (
	// bigFlag marks, in argEnd, an argument kept in a buffer of its own; the low bits still
	// hold the flat end (unchanged by it), so the next argument's start is always at hand.
	bigFlag = 1 << 31
	// maxArena bounds the flat bytes and the argument count to what 31-bit offsets can name.
	// A client that would pass it is over any sensible client-query-buffer-limit anyway, and
	// gets ErrQueryBufLimit.
	maxArena = bigFlag - 1
	// argOverhead is what one argument costs besides its bytes: its offset in argEnd. It counts
	// against client-query-buffer-limit, or one-byte arguments would cost five times the limit.
	argOverhead = 4

	// Smallest capacities once a buffer is needed at all; from there they double. The flat
	// minimum holds a typical SET; 16 offsets hold most commands.
	minBufCap  = 128
	minArgsCap = 16
	minCmdsCap = 8
	minBigsCap = 2

	// Trim's rule, Redis's clientsCronResizeQueryBuffer numbers.
	trimMinFree   = 4 * 1024  // shrink only when more than 4 KiB would be freed
	trimThreshold = 32 * 1024 // PROTO_RESIZE_THRESHOLD: an active client's buffer below it stays
)

// arena holds the arguments of the batch's complete commands in order, then those parsed so
// far of the unfinished command. Small arguments are bytes of one flat buffer, named by end
// offsets; a big argument (see BigArgThreshold) keeps the buffer it was read into.
type arena struct {
	buf    []byte   // bytes of small arguments, and the received part of one in progress
	argEnd []uint32 // per argument: end offset in buf, bigFlag set for a big one
	cmdEnd []uint32 // per complete command: index in argEnd just past its last argument
	bigs   []bigArg // big arguments, by ascending idx

	// What Trim needs: the most in use of each buffer since the last Trim, and whether a
	// Parse happened since.
	peakBuf, peakArgs, peakCmds int
	active                      bool
}

// bigArg is a big argument: b is its buffer, its data followed by the two bytes read after it.
type bigArg struct {
	idx   uint32 // its index in argEnd
	token uint32 // the BigBuffers token of b; 0 for a Go-heap buffer or one taken by TakeBig
	b     []byte
}

// Args is the argument vector of one command: a small view into the arena. It and the slices
// Arg returns are valid until ResetCommands, Trim or Reset; copy what must outlive them.
type Args struct {
	p     *Parser
	first int
	n     int
}

// Len returns the number of arguments (argc); the command name is argument 0.
func (a Args) Len() int { return a.n }

// Arg returns argument i (0 ≤ i < Len). Its capacity is its length, so appending to it copies.
func (a Args) Arg(i int) []byte {
	if uint(i) >= uint(a.n) {
		panic("querybuf: argument index out of range")
	}
	return a.p.arg(a.first + i)
}

// LenSum returns the total length of the arguments: what CLIENT LIST shows as argv-mem for the
// command being run (Redis's argv_len_sum).
func (a Args) LenSum() int { return a.p.argvLen(a.first, a.first+a.n) }

// argvLen is the total length of arguments first to end−1, complete ones only.
func (p *Parser) argvLen(first, end int) int {
	if first >= end {
		return 0
	}
	var start uint32
	if first > 0 {
		start = p.argEnd[first-1] &^ bigFlag
	}
	n := int(p.argEnd[end-1]&^bigFlag - start) // the small ones' bytes are contiguous
	for _, b := range p.bigs {
		if i := int(b.idx); i >= first && i < end {
			n += len(b.b) - 2
		}
	}
	return n
}

// pendingArgvLen is the total length of the unfinished command's complete arguments.
func (p *Parser) pendingArgvLen() int {
	first := 0
	if nc := len(p.cmdEnd); nc > 0 {
		first = int(p.cmdEnd[nc-1])
	}
	return p.argvLen(first, len(p.argEnd))
}

// NumCommands returns the number of complete commands in the arena, in arrival order.
func (p *Parser) NumCommands() int { return len(p.cmdEnd) }

// Command returns complete command i (0 ≤ i < NumCommands).
func (p *Parser) Command(i int) Args {
	first := 0
	if i > 0 {
		first = int(p.cmdEnd[i-1])
	}
	return Args{p: p, first: first, n: int(p.cmdEnd[i]) - first}
}

func (p *Parser) arg(j int) []byte {
	end := p.argEnd[j]
	if end&bigFlag != 0 {
		k, _ := slices.BinarySearchFunc(p.bigs, uint32(j), func(b bigArg, j uint32) int {
			return cmp.Compare(b.idx, j)
		})
		b := p.bigs[k].b
		n := len(b) - 2
		return b[:n:n]
	}
	var start uint32
	if j > 0 {
		start = p.argEnd[j-1] &^ bigFlag
	}
	return p.buf[start:end:end]
}

// ResetCommands drops the complete commands — the server calls it once it has run them — and
// keeps the parsed arguments of the unfinished one, moved to the front. Big argument buffers of
// dropped commands are released. Every Args view becomes invalid.
func (p *Parser) ResetCommands() {
	nc := len(p.cmdEnd)
	if nc == 0 {
		return
	}
	first := int(p.cmdEnd[nc-1]) // the unfinished command's first argument
	var flat uint32
	if first > 0 {
		flat = p.argEnd[first-1] &^ bigFlag
	}
	p.argEnd = p.argEnd[:copy(p.argEnd, p.argEnd[first:])]
	for i := range p.argEnd {
		p.argEnd[i] -= flat // keeps bigFlag: the low bits are ≥ flat
	}
	p.buf = p.buf[:copy(p.buf, p.buf[flat:])]
	kept := 0
	for kept < len(p.bigs) && int(p.bigs[kept].idx) < first {
		kept++
	}
	for _, b := range p.bigs[:kept] {
		p.putBig(b.token, len(b.b))
	}
	n := copy(p.bigs, p.bigs[kept:])
	clear(p.bigs[n:])
	p.bigs = p.bigs[:n]
	for i := range p.bigs {
		p.bigs[i].idx -= uint32(first)
	}
	p.cmdEnd = p.cmdEnd[:0]
}

// ArgvMem returns the bytes the arena holds: the capacity of its buffers, big argument buffers
// included (the one being read too). CLIENT LIST's argv-mem is not this but Use.ArgvMem.
func (p *Parser) ArgvMem() int {
	m := cap(p.buf) + 4*cap(p.argEnd) + 4*cap(p.cmdEnd) + cap(p.bigs)*int(unsafe.Sizeof(bigArg{}))
	for _, b := range p.bigs {
		m += cap(b.b)
	}
	return m + cap(p.big)
}

// reserveFlat makes room in buf for n more bytes.
func (p *Parser) reserveFlat(n int) error {
	if len(p.buf)+n > maxArena {
		return ErrQueryBufLimit
	}
	p.buf = grow(p.buf, n, minBufCap, len(p.buf)+n+p.headroom())
	return nil
}

// reserveArgs makes room in argEnd for n more arguments.
func (p *Parser) reserveArgs(n int) error {
	if len(p.argEnd)+n > maxArena {
		return ErrQueryBufLimit
	}
	p.argEnd = grow(p.argEnd, n, minArgsCap, len(p.argEnd)+n+p.headroom()/argOverhead)
	return nil
}

// grow returns s with room for extra more elements. Capacity doubles, from minCap at least,
// but stops at ceiling elements unless more are needed right now.
func grow[T any](s []T, extra, minCap, ceiling int) []T {
	need := len(s) + extra
	if need <= cap(s) {
		return s
	}
	c := max(2*cap(s), minCap)
	c = max(min(c, ceiling), need)
	ns := make([]T, len(s), c)
	copy(ns, s)
	return ns
}

// Trim gives back arena capacity the client is unlikely to need soon; the server's cron calls
// it between batches. What is in use is always kept. For each of the arena's buffers, Redis's
// query buffer rule (clientsCronResizeQueryBuffer):
//
//   - an idle client (no Parse or BigArgAdvance since the previous Trim: it idled for a whole
//     cron period, where Redis says 2 s) loses every empty buffer, so it holds no arena;
//   - otherwise nothing happens unless more than 4 KiB of the buffer is unused: a smaller
//     saving is not worth the copy;
//   - an idle client's buffer then shrinks to its contents;
//   - an active client's buffer shrinks only if it is above 32 KiB and more than twice the
//     most used since the previous Trim, and then to that peak — not lower, since a client
//     that just needed it will likely need it again.
//
// The peaks then restart from what is in use. Args views are invalid afterwards.
func (p *Parser) Trim() {
	idle := !p.active
	// Room reserved for a small bulk argument in progress and its offset stays, as Redis never
	// shrinks below the bulk length in progress.
	needBuf, needArgs := len(p.buf), len(p.argEnd)
	if p.phase == phaseBulkData {
		needArgs++
		if p.big == nil {
			needBuf += p.bulkLen - min(p.bulkGot, p.bulkLen)
		}
	}
	p.buf = trimmed(p.buf, needBuf, p.peakBuf, idle)
	p.argEnd = trimmed(p.argEnd, needArgs, p.peakArgs, idle)
	p.cmdEnd = trimmed(p.cmdEnd, len(p.cmdEnd), p.peakCmds, idle)
	if idle && len(p.bigs) == 0 {
		p.bigs = nil
	}
	p.peakBuf, p.peakArgs, p.peakCmds = len(p.buf), len(p.argEnd), len(p.cmdEnd)
	p.active = false
}

// trimmed applies Trim's rule to s, which must keep room for need elements.
func trimmed[T byte | uint32](s []T, need, peak int, idle bool) []T {
	if idle && need == 0 {
		return nil
	}
	size := int(unsafe.Sizeof(*new(T)))
	if (cap(s)-need)*size <= trimMinFree {
		return s
	}
	var c int
	switch {
	case idle:
		c = need
	case cap(s)*size > trimThreshold && cap(s) > 2*peak:
		c = max(need, peak)
	default:
		return s
	}
	ns := make([]T, len(s), c)
	copy(ns, s)
	return ns
}

// Recycle makes an idle parser (nothing complete or unfinished in it) ready for another
// client, as Reset does, and drops each arena buffer above 32 KiB: only a command bigger than
// a read fills one — a read brings at most 16 KiB, so the arguments and offsets of one read
// and of an unfinished command of ordinary size fit in 32 KiB each — and keeping it would give
// the next client the memory of someone else's big command. This is Trim's rule for an active
// client with a peak of zero, which is what the next client's peak starts from. Smaller
// buffers are kept: a pipelining client needs them again at its next read.
func (p *Parser) Recycle() {
	p.Reset()
	if cap(p.buf) > trimThreshold {
		p.buf = nil
	}
	if 4*cap(p.argEnd) > trimThreshold {
		p.argEnd = nil
	}
	if 4*cap(p.cmdEnd) > trimThreshold {
		p.cmdEnd = nil
	}
	if cap(p.bigs) > minBigsCap {
		p.bigs = nil
	}
	p.peakBuf, p.peakArgs, p.peakCmds, p.active = 0, 0, 0, false
}

// DropBigArena frees the arena buffers above 32 KiB once a batch has run and nothing is half
// parsed: only a command bigger than a read fills one, and Redis frees a command's argv as soon
// as it has run (freeClientArgv), so a client that sent one 47 KB command does not keep 47 KB
// until it next goes idle. It costs three comparisons when there is nothing to drop.
func (p *Parser) DropBigArena() {
	if cap(p.buf) <= trimThreshold && 4*cap(p.argEnd) <= trimThreshold && 4*cap(p.cmdEnd) <= trimThreshold {
		return
	}
	if p.MidCommand() || p.PendingBytes() > 0 || p.NumCommands() > 0 || len(p.buf) > 0 || len(p.argEnd) > 0 {
		return
	}
	if cap(p.buf) > trimThreshold {
		p.buf = nil
	}
	if 4*cap(p.argEnd) > trimThreshold {
		p.argEnd = nil
	}
	if 4*cap(p.cmdEnd) > trimThreshold {
		p.cmdEnd = nil
	}
	p.peakBuf, p.peakArgs, p.peakCmds = 0, 0, 0
}

func (p *Parser) notePeak() {
	p.peakBuf = max(p.peakBuf, len(p.buf))
	p.peakArgs = max(p.peakArgs, len(p.argEnd))
	p.peakCmds = max(p.peakCmds, len(p.cmdEnd))
}
