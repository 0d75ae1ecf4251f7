package querybuf

// Use is what a client holds for its input, in the terms of CLIENT LIST, whose numbers follow
// Redis's meaning although the bytes live elsewhere: Redis keeps every unparsed byte in
// c->querybuf and each argument in an object of its own, kvserver keeps an unfinished line in
// the private buffer and arguments in the parser's arena.
type Use struct {
	// Qbuf (qbuf) is the bytes of the unfinished command that are not arguments yet: the
	// private buffer's, and the received part of the argument in progress, wherever it sits —
	// what Redis's querybuf would hold.
	Qbuf int
	// QbufFree (qbuf-free) is the room beside them: the private buffer's spare capacity and
	// what a big argument's buffer still awaits. A small argument in progress has no room of
	// its own (the arena's is in Mem), so a client holding "$5\r\nhel" shows qbuf=3 qbuf-free=0.
	QbufFree int
	// ArgvMem (argv-mem) is the bytes of the unfinished command's complete arguments: Redis's
	// argv_len_sum, 0 between commands. The arena's capacity is not in it, but in Mem.
	ArgvMem int
	// Mem is all the input memory held: the private buffer's allocation, the arena's capacity
	// and the big arguments' buffers (the input part of tot-mem).
	Mem int
}

// Use returns what the client holds: its private buffer q, and its parser p (nil for a client
// without one, which holds no argument).
func (q *Private) Use(b Buffers, p *Parser) Use {
	a := b.arena
	u := Use{Qbuf: q.qb.Len(a), QbufFree: q.qb.Avail(a), Mem: q.qb.AllocSize(a)}
	if p == nil {
		return u
	}
	got, room := p.argInProgress()
	if p.staging {
		room -= u.Qbuf // the staged start, held here, goes into the big buffer's room
	}
	u.Qbuf += got
	u.QbufFree += max(0, room)
	u.ArgvMem = p.pendingArgvLen()
	u.Mem += p.ArgvMem()
	return u
}

// argInProgress returns the bytes received of the bulk argument being read (the two after its
// data included, as Redis counts them) and, for a big one, the bytes its buffer still awaits.
func (p *Parser) argInProgress() (got, room int) {
	if p.err != nil || p.phase != phaseBulkData {
		return 0, 0
	}
	if p.big != nil {
		return p.bulkGot, len(p.big) - p.bulkGot
	}
	return p.bulkGot, 0
}
