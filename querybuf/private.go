package querybuf

import "github.com/kvserver/kvserver/sds"

// Private is a client's private query buffer (Redis's c->querybuf once it is not the shared
// one): the bytes of an unfinished line kept between reads — an inline request, a "*<count>"
// or "$<len>" line, the staged start of a big argument (BigArgStage). Arguments themselves go
// to the parser's arena at once, so this buffer only ever holds a line, and most clients never
// have one. Its memory comes from Buffers.
//
// It grows exactly (the class the allocator rounds to) below 16 KiB, never greedily, and
// qbPeak, the most it held or reserved since the cron's last visit, keeps Trim from shrinking
// what the client is about to use again: together with sds's Resize being a no-op within a
// size class, that keeps a client out of a shrink/grow loop (DESIGN §5).
//
// The zero value is no buffer. A Private is owned by whoever serves its client; the cron calls
// Trim with the client's lock held. Nothing in it is safe for concurrent use.
type Private struct {
	qb     sds.String // nil while the client holds no private buffer
	qbPeak int32      // Redis's querybuf_peak; the buffer never exceeds a line plus a read
}

// Trimming thresholds of the private buffer, Redis's (clientsCronResizeQueryBuffer).
const (
	// qbufIdleMs: a client idle longer than this gives an empty private buffer back, or trims a
	// non-empty one to its contents (Redis's "idletime > 2", in seconds).
	qbufIdleMs = 2000
	// MaxReadPrefix is the most private-buffer bytes a read into a shared buffer makes room for
	// in front: half of it, so that the read still has half a buffer. A longer line (an inline
	// request over 8 KiB) is read into the private buffer itself (ReadSpace).
	MaxReadPrefix = SharedBufferSize / 2
)

// Len returns the bytes held: 0 without a buffer.
func (q *Private) Len(b Buffers) int { return q.qb.Len(b.arena) }

// IsNil reports whether the client holds no private buffer.
func (q *Private) IsNil() bool { return q.qb.IsNil() }

// Peak returns qbPeak: the most bytes held or reserved since the last Trim.
func (q *Private) Peak() int { return int(q.qbPeak) }

func (q *Private) notePeak(n int) { q.qbPeak = int32(max(int(q.qbPeak), n)) }

// Keep appends rest, the unfinished line at the end of a read into a shared buffer, growing
// the buffer exactly (Redis's rule below 16 KiB: no greedy growth for a query buffer). It
// reports false if the arena is out of memory; the buffer is then unchanged.
func (q *Private) Keep(b Buffers, rest []byte) bool {
	b.mu.Lock()
	s := q.qb.MakeRoomFor(b.arena, len(rest), false)
	b.mu.Unlock()
	if s.IsNil() {
		return false
	}
	q.qb = s
	n := s.Len(b.arena)
	copy(s.Spare(b.arena), rest)
	s.SetLen(b.arena, n+len(rest))
	q.notePeak(n + len(rest))
	return true
}

// ReadSpace returns room for a read of n bytes after the bytes held, reserved exactly, for a
// line too long to go in front of a shared buffer (MaxReadPrefix). The peak is raised first, so
// that the cron does not trim what is about to be used. Report the bytes read with Advance. If
// the arena is out of memory the room is what the buffer already had.
func (q *Private) ReadSpace(b Buffers, n int) []byte {
	a := b.arena
	if q.qb.Avail(a) < n {
		b.mu.Lock()
		grown := q.qb.MakeRoomFor(a, n, false)
		b.mu.Unlock()
		if !grown.IsNil() {
			q.qb = grown
		}
	}
	q.notePeak(q.qb.Len(a) + n)
	return q.qb.Spare(a)
}

// ParseShared parses a read into a shared buffer: buf's first prefix bytes are room that the
// bytes held (prefix of them, see MaxReadPrefix) are copied into, and n bytes were read after
// them. The buffer is then empty; the unfinished line at the end, if any, is kept (Keep). buf
// may be reused as soon as it returns.
func (q *Private) ParseShared(b Buffers, p *Parser, buf []byte, prefix, n int) error {
	if prefix > 0 {
		copy(buf, q.qb.Bytes(b.arena))
		q.qb.SetLen(b.arena, 0)
	}
	data := buf[:prefix+n]
	consumed, err := p.Parse(data)
	if rest := data[consumed:]; len(rest) > 0 && err == nil {
		q.Keep(b, rest) // out of memory: the line is lost and the client's command fails, not the server
	} else if prefix > 0 {
		q.releaseIfBig(b, p)
	}
	return err
}

// ParseRead parses the bytes held after a read of n bytes into ReadSpace's room, and keeps
// what the parser left.
func (q *Private) ParseRead(b Buffers, p *Parser, n int) error {
	a := b.arena
	q.qb.SetLen(a, q.qb.Len(a)+n)
	data := q.qb.Bytes(a)
	consumed, err := p.Parse(data)
	q.qb.SetLen(a, copy(data, data[consumed:]))
	q.releaseIfBig(b, p)
	return err
}

// releaseIfBig frees an emptied buffer once the staged start of a big argument has gone into
// the argument's own buffer, where the rest is read: it would otherwise sit empty until the
// cron finds the client idle (as Redis's querybuf, handed over as the argument, is gone).
func (q *Private) releaseIfBig(b Buffers, p *Parser) {
	if q.qb.Len(b.arena) == 0 && p.BigArgSize() > 0 {
		q.Release(b)
	}
}

// Release frees the buffer: the client closes, or holds nothing worth keeping.
func (q *Private) Release(b Buffers) {
	if !q.qb.IsNil() {
		b.mu.Lock()
		q.qb.Free(b.arena)
		b.mu.Unlock()
		q.qb = sds.String{}
	}
	q.qbPeak = 0
}

// Trim is the cron's visit: Redis's clientsCronResizeQueryBuffer for a client idle for idleMs.
//   - Nothing happens unless more than 4 KiB of the buffer is unused: a smaller saving is not
//     worth a copy.
//   - Idle over 2 s: an empty buffer is freed (the client goes back to shared buffers), a
//     non-empty one is trimmed to its contents.
//   - Otherwise a buffer above 32 KiB (PROTO_RESIZE_THRESHOLD: an active client's buffer below
//     it stays) and more than twice the recent peak is trimmed to max(contents, peak) — never
//     below what the client just needed. (Redis also keeps a bulk argument in progress; here
//     those live in the parser's arena, which Parser.Trim keeps.)
//
// The peak then restarts from what is held. A shrink that finds no memory keeps the buffer.
func (q *Private) Trim(b Buffers, idleMs int64) {
	if q.qb.IsNil() {
		q.qbPeak = 0
		return
	}
	a := b.arena
	length, size := q.qb.Len(a), q.qb.AllocSize(a)
	if q.qb.Avail(a) > trimMinFree {
		b.mu.Lock()
		switch {
		case idleMs > qbufIdleMs && length == 0:
			q.qb.Free(a)
			q.qb = sds.String{}
		case idleMs > qbufIdleMs:
			q.qb = keepOnFailure(q.qb, q.qb.RemoveFreeSpace(a, true))
		case size > trimThreshold && size/2 > int(q.qbPeak):
			q.qb = keepOnFailure(q.qb, q.qb.Resize(a, max(length, int(q.qbPeak)), true))
		}
		b.mu.Unlock()
	}
	q.qbPeak = int32(q.qb.Len(a))
}

func keepOnFailure(old, trimmed sds.String) sds.String {
	if trimmed.IsNil() {
		return old
	}
	return trimmed
}
