package querybuf

import (
	"math"

	"github.com/kvserver/kvserver/conv"
)

// phase is where the parser stands in the request stream (Redis's reqtype, multibulklen and
// bulklen together).
type phase uint8

const (
	phaseIdle       phase = iota // between commands: the next byte picks the request type
	phaseInline                  // an inline line waiting for its newline
	phaseCount                   // a "*<count>" line waiting for its CR and the byte after it
	phaseBulkHeader              // a "$<len>" line, likewise
	phaseBulkData                // a bulk argument's bytes and the two bytes after them
)

// Parser is one client's incremental RESP2 and inline request parser together with its
// argument arena. The zero value is ready to use with the default Limits. A Parser is owned by
// one goroutine at a time; nothing in it is safe for concurrent use.
type Parser struct {
	limits       Limits
	bigThreshold int // 0 means BigArgThreshold; tests lower it

	// The command in progress.
	phase    phase
	scanned  int    // bytes of the pending line already searched for its terminator
	stuck    bool   // a NUL came first: the pending line can never end (see lineEnd)
	argsLeft int    // arguments of the multibulk command still to complete
	bulkLen  int    // length of the bulk argument being read
	bulkGot  int    // bytes of it received, the two after it included: 0 … bulkLen+2
	big      []byte // the big argument being read, len bulkLen+2; nil for a small one
	bigToken uint32 // big's BigBuffers token, 0 if it is on the Go heap
	staging  bool   // big's first bytes stay with the caller until BigArgStage of them are there
	bigBufs  BigBuffers
	pending  int   // what the unfinished command holds, see PendingBytes
	err      error // the first error; every later call returns it

	arena
}

// NewParser returns a Parser with the given limits.
func NewParser(l Limits) *Parser { return &Parser{limits: l} }

// SetLimits changes the limits (CONFIG SET) from the next header on; an argument already
// announced keeps the limits it was checked against.
func (p *Parser) SetLimits(l Limits) { p.limits = l }

// Parse parses every complete command in data into the arena (see NumCommands and Command) and
// returns how many bytes it consumed: all of them except an incomplete inline line, "*<count>"
// line or "$<len>" line at the end, or the first bytes of a big argument being staged (see
// BigArgStage). The caller keeps those bytes (at most InlineMaxSize or BigArgStage plus the
// last read) and presents them again, followed by what it reads next, as the start of the
// next call's data; Parse remembers how far it searched them and does not search them again.
// Everything else is copied out — the arguments of complete commands and the part received of
// a bulk argument in progress — so the caller may reuse data as soon as Parse returns.
//
// On a *ProtocolError the commands completed before the offending bytes are still in the arena:
// the server runs them, as Redis does, then replies with the error and closes the client. On
// ErrQueryBufLimit it closes the client without running anything. After an error every call
// returns the same error until Reset.
func (p *Parser) Parse(data []byte) (consumed int, err error) {
	if p.err != nil {
		return 0, p.err
	}
	p.active = true
	// Redis checks client-query-buffer-limit right after a read, before parsing it.
	if p.overLimit(len(data)) {
		return 0, p.fail(ErrQueryBufLimit)
	}
	pos := 0
	for pos < len(data) {
		var n int
		switch p.phase {
		case phaseIdle:
			// processInputBuffer: '*' starts a multibulk request, any other byte (even '$') an
			// inline one.
			p.scanned, p.stuck = 0, false
			if data[pos] == '*' {
				p.phase = phaseCount
				p.scanned = 1 // the '*' is neither CR nor NUL
			} else {
				p.phase = phaseInline
			}
			continue
		case phaseInline:
			n, err = p.parseInline(data[pos:])
		case phaseCount:
			n, err = p.parseCount(data[pos:])
		case phaseBulkHeader:
			n, err = p.parseBulkHeader(data[pos:])
		case phaseBulkData:
			n = p.readBulk(data[pos:])
		}
		if err != nil {
			return pos, p.fail(err)
		}
		if n == 0 {
			break // an incomplete line: the caller keeps data[pos:]
		}
		pos += n
	}
	p.notePeak()
	return pos, nil
}

func (p *Parser) fail(err error) error {
	p.err = err
	return err
}

// overLimit reports whether rest more unparsed bytes would take the client past
// client-query-buffer-limit, counting what the unfinished command already holds. Bytes that
// will only fill a big argument's buffer, already counted when it was reserved, count once.
func (p *Parser) overLimit(rest int) bool {
	if p.big != nil {
		rest -= min(rest, len(p.big)-p.bulkGot)
	}
	return int64(p.pending)+int64(rest) > p.limits.queryBufLimit()
}

// headroom is what the unfinished command may still add before the limit: buffers never grow
// past it, so that a client closed at the limit has not first doubled its arena.
func (p *Parser) headroom() int {
	h := p.limits.queryBufLimit() - int64(p.pending)
	return int(max(0, min(h, math.MaxInt32)))
}

func (p *Parser) threshold() int {
	if p.bigThreshold > 0 {
		return p.bigThreshold
	}
	return BigArgThreshold
}

// lineEnd returns the index of the first term in line, or -1. It searches only bytes an
// earlier call has not searched for the same pending line (the caller presents them again).
// Like Redis's strchr on the NUL-terminated query buffer, the search stops at a NUL byte: such
// a line never ends — Redis waits for more bytes until the too-big limit closes the client.
func (p *Parser) lineEnd(line []byte, term byte) int {
	if p.stuck {
		return -1
	}
	for i := p.scanned; i < len(line); i++ {
		switch line[i] {
		case term:
			p.scanned = i
			return i
		case 0:
			p.stuck = true
			return -1
		}
	}
	p.scanned = len(line)
	return -1
}

// parseInline is processInlineBuffer: line starts the inline request. It returns the bytes of
// the line with its newline, or 0 while the newline has not arrived.
func (p *Parser) parseInline(line []byte) (int, error) {
	nl := p.lineEnd(line, '\n')
	if nl < 0 {
		if len(line) > InlineMaxSize {
			return 0, ErrTooBigInlineRequest
		}
		return 0, nil
	}
	end := nl
	if end > 0 && line[end-1] == '\r' { // "\r\n" or a bare "\n" ends the line
		end--
	}
	if err := p.splitInline(line[:end]); err != nil {
		return 0, err
	}
	p.phase = phaseIdle // an empty or blank line is no command
	return nl + 1, nil
}

// parseCount is the first half of processMultibulkBuffer: line starts with '*'.
func (p *Parser) parseCount(line []byte) (int, error) {
	cr := p.lineEnd(line, '\r')
	if cr < 0 {
		if len(line) > InlineMaxSize {
			return 0, ErrTooBigMbulkCountString
		}
		return 0, nil
	}
	// Redis wants one more byte after the CR and skips it without looking: it is meant to be
	// the LF. No length check here: a line whose CR arrived waits for that byte.
	if cr+1 >= len(line) {
		return 0, nil
	}
	ll, ok := conv.String2ll(line[1:cr])
	if !ok || ll > MaxMultibulkLen {
		return 0, ErrInvalidMultibulkLength
	}
	if ll > UnauthMaxMultibulkLen && p.limits.Unauthenticated {
		return 0, ErrUnauthMultibulkLength
	}
	if ll <= 0 { // "*0" and "*-1" are no command
		p.phase = phaseIdle
		return cr + 2, nil
	}
	if err := p.reserveArgs(int(min(ll, maxArgvPrealloc))); err != nil {
		return 0, err
	}
	p.argsLeft = int(ll)
	p.startBulkHeader()
	return cr + 2, nil
}

func (p *Parser) startBulkHeader() {
	p.phase = phaseBulkHeader
	p.scanned, p.stuck = 0, false
}

// parseBulkHeader reads a "$<len>" line at the start of rest (which holds everything unparsed)
// and prepares the argument's room: a buffer of its own for a big one, arena room otherwise.
func (p *Parser) parseBulkHeader(rest []byte) (int, error) {
	// Redis looks for the CR before it looks at the first byte: a long enough line without CR
	// is "too big bulk count string" whatever it starts with.
	cr := p.lineEnd(rest, '\r')
	if cr < 0 {
		if len(rest) > InlineMaxSize {
			return 0, ErrTooBigBulkCountString
		}
		return 0, nil
	}
	if cr+1 >= len(rest) {
		return 0, nil
	}
	if rest[0] != '$' {
		return 0, expectedDollar[rest[0]]
	}
	ll, ok := conv.String2ll(rest[1:cr])
	if !ok || ll < 0 || ll > p.limits.maxBulkLen() {
		return 0, ErrInvalidBulkLength
	}
	if ll > UnauthMaxBulkLen && p.limits.Unauthenticated {
		return 0, ErrUnauthBulkLength
	}
	n := cr + 2
	if err := p.reserveArgs(1); err != nil {
		return 0, err
	}
	p.bulkLen, p.bulkGot = int(ll), 0
	if p.bulkLen >= p.threshold() {
		// Its own buffer of exactly its length plus the two bytes after it, so that the
		// connection can read all of it straight in. It counts in full against the limit from
		// now on, and is refused before it is allocated.
		size := p.bulkLen + 2
		after := len(rest) - n
		if int64(p.pending)+int64(size)+int64(max(0, after-size)) > p.limits.queryBufLimit() {
			return 0, ErrQueryBufLimit
		}
		p.big, p.bigToken = p.getBig(size)
		p.staging = p.bigToken != 0
		p.pending += size
	} else if err := p.reserveFlat(p.bulkLen); err != nil {
		return 0, err
	}
	p.phase = phaseBulkData
	return n, nil
}

// readBulk copies what data holds of the bulk argument in progress and of the two bytes after
// it, and completes the argument when they are all there.
func (p *Parser) readBulk(data []byte) int {
	n := min(p.bulkLen+2-p.bulkGot, len(data))
	if p.staging {
		if n < min(BigArgStage, len(p.big)) {
			return 0 // the caller keeps the first bytes (see BigArgStage) and presents them again
		}
		p.staging = false
	}
	if p.big != nil {
		copy(p.big[p.bulkGot:], data[:n])
	} else if d := min(n, p.bulkLen-p.bulkGot); d > 0 {
		p.buf = append(p.buf, data[:d]...) // room reserved by parseBulkHeader
		p.pending += d
	}
	p.bulkGot += n
	if p.bulkGot == p.bulkLen+2 {
		p.endBulk()
	}
	return n
}

// endBulk completes the bulk argument in progress. The two bytes after its data are skipped
// unchecked, exactly as Redis skips them (qb_pos += bulklen+2): they are meant to be CRLF.
func (p *Parser) endBulk() {
	end := uint32(len(p.buf))
	if p.big != nil {
		p.bigs = grow(p.bigs, 1, minBigsCap, math.MaxInt32)
		p.bigs = append(p.bigs, bigArg{idx: uint32(len(p.argEnd)), token: p.bigToken, b: p.big})
		end |= bigFlag
		p.big, p.bigToken = nil, 0
	}
	p.argEnd = append(p.argEnd, end) // room reserved by parseBulkHeader
	p.pending += argOverhead
	p.argsLeft--
	if p.argsLeft == 0 {
		p.endCommand()
		return
	}
	p.startBulkHeader()
}

// endCommand makes the arguments since the last complete command a command of the batch.
func (p *Parser) endCommand() {
	p.cmdEnd = grow(p.cmdEnd, 1, minCmdsCap, math.MaxInt32)
	p.cmdEnd = append(p.cmdEnd, uint32(len(p.argEnd)))
	p.pending = 0
	p.phase = phaseIdle
}

// BigArgTail returns the unfilled part of the big argument in progress, the two bytes after
// its data included, or nil when none is in progress. The connection may read straight into
// it and report the bytes with BigArgAdvance instead of passing them to Parse. The slice is
// valid until the next call on p.
//
// While the argument's first bytes are staged (see BigArgStage) there is no tail: the caller
// keeps reading into its own buffer and presents the bytes to Parse.
func (p *Parser) BigArgTail() []byte {
	if p.err != nil || p.big == nil || p.staging {
		return nil
	}
	return p.big[p.bulkGot:]
}

// BigArgGot is the number of bytes of the big argument in progress in its buffer (staged bytes,
// still the caller's, not included), or 0.
func (p *Parser) BigArgGot() int {
	if p.err != nil || p.big == nil {
		return 0
	}
	return p.bulkGot
}

// BigArgSize is the size of the buffer of the big argument in progress (its length + 2), or 0.
func (p *Parser) BigArgSize() int {
	if p.err != nil {
		return 0
	}
	return len(p.big)
}

// BigArgAdvance reports n bytes written at the start of BigArgTail. Once the tail is full the
// argument is complete (its last two bytes skipped unchecked, as Redis does), and so is the
// command if it was its last argument. An error means n does not fit the tail: a caller bug.
func (p *Parser) BigArgAdvance(n int) (err error) {
	if p.err != nil {
		return p.err
	}
	if p.big == nil || n < 0 || n > len(p.big)-p.bulkGot {
		return errBigArgAdvance
	}
	p.active = true
	p.bulkGot += n
	if p.bulkGot == len(p.big) {
		p.endBulk()
		p.notePeak()
	}
	return nil
}

// MidCommand reports whether a command is partly parsed: the parser then holds state the next
// bytes continue, even when it holds no bytes yet (after a "*3" line, say).
func (p *Parser) MidCommand() bool { return p.phase != phaseIdle }

// PendingBytes returns the bytes held for the unfinished command: its parsed arguments, the
// received part of one in progress, 4 bytes of offset per argument, and a big argument's whole
// buffer from the moment it is reserved. The caller's unparsed tail is not included. This, plus
// the unparsed bytes, is what client-query-buffer-limit bounds.
func (p *Parser) PendingBytes() int { return p.pending }

// Reset drops every command, complete or not, and any error; capacity is kept.
func (p *Parser) Reset() {
	p.phase, p.scanned, p.stuck = phaseIdle, 0, false
	p.argsLeft, p.bulkLen, p.bulkGot = 0, 0, 0
	for _, b := range p.bigs {
		p.putBig(b.token, len(b.b))
	}
	p.putBig(p.bigToken, len(p.big))
	p.big, p.bigToken, p.pending, p.err, p.staging = nil, 0, 0, nil, false
	clear(p.bigs)
	p.buf, p.argEnd, p.cmdEnd, p.bigs = p.buf[:0], p.argEnd[:0], p.cmdEnd[:0], p.bigs[:0]
}
