package querybuf

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// conn plays the connection's part: it keeps what Parse leaves unconsumed and presents it again
// before the next piece, scribbles over each data buffer once Parse returns (nothing may refer
// to it), runs (collects) the complete commands and resets them, and optionally reads straight
// into a big argument's buffer.
type conn struct {
	p       *Parser
	tail    []byte
	cmds    [][]string
	err     error
	maxData int // the longest data presented to Parse
	rng     *rand.Rand
	direct  bool // read into BigArgTail when a big argument is in progress
}

func newConn(p *Parser, rng *rand.Rand, direct bool) *conn {
	return &conn{p: p, rng: rng, direct: direct}
}

func (c *conn) feed(t testing.TB, piece []byte) error {
	t.Helper()
	for c.err == nil && c.direct && len(piece) > 0 && len(c.p.BigArgTail()) > 0 {
		if len(c.tail) != 0 {
			t.Fatalf("a big argument is in progress but %d bytes are left unconsumed", len(c.tail))
		}
		tail := c.p.BigArgTail()
		n := min(len(tail), len(piece))
		if c.rng != nil && n > 1 {
			n = 1 + c.rng.IntN(n)
		}
		copy(tail, piece[:n])
		if err := c.p.BigArgAdvance(n); err != nil {
			t.Fatalf("BigArgAdvance(%d) with a tail of %d: %v", n, len(tail), err)
		}
		piece = piece[n:]
		c.collect()
	}
	if c.err != nil || len(piece) == 0 {
		return c.err
	}
	data := make([]byte, 0, len(c.tail)+len(piece))
	data = append(append(data, c.tail...), piece...)
	c.maxData = max(c.maxData, len(data))
	n, err := c.p.Parse(data)
	if n < 0 || n > len(data) {
		t.Fatalf("Parse consumed %d of %d bytes", n, len(data))
	}
	c.tail = append(c.tail[:0], data[n:]...)
	for k := 0; k < len(data); k += len(scribble) {
		copy(data[k:], scribble)
	}
	if err != nil {
		c.err = err
		if errors.Is(err, ErrQueryBufLimit) {
			c.p.ResetCommands() // closed without running anything
			return err
		}
	}
	c.collect()
	return err
}

func (c *conn) collect() {
	for i := range c.p.NumCommands() {
		a := c.p.Command(i)
		args := make([]string, a.Len())
		for j := range args {
			args[j] = string(a.Arg(j))
		}
		c.cmds = append(c.cmds, args)
	}
	c.p.ResetCommands()
}

var scribble = bytes.Repeat([]byte{0xAA}, 4096)

// pieces cuts b into pieces whose sizes follow one of a few patterns picked by rng.
func pieces(b []byte, rng *rand.Rand) [][]byte {
	var out [][]byte
	total := len(b)
	mode := rng.IntN(5)
	if len(b) > 8192 && (mode == 1 || mode == 2) {
		// Tiny pieces of a long input cost quadratic time in the naive model and in the
		// re-presented tail; the splits of TestParseCases cover them on small inputs.
		mode = 3
	}
	for len(b) > 0 {
		var n int
		switch mode {
		case 0:
			n = len(b)
		case 1:
			n = 1
		case 2:
			n = 1 + rng.IntN(8)
		case 3:
			n = 1 + rng.IntN(max(64, total/16))
		default:
			n = 1 + rng.IntN(len(b))
		}
		n = min(n, len(b))
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

// parseAll feeds the pieces to a fresh Parser and returns the commands and the error.
func parseAll(t testing.TB, lim Limits, threshold int, ps [][]byte) ([][]string, error) {
	t.Helper()
	p := NewParser(lim)
	p.bigThreshold = threshold
	c := newConn(p, nil, false)
	for _, piece := range ps {
		if c.feed(t, piece) != nil {
			break
		}
	}
	return c.cmds, c.err
}

// checkModel feeds input in pieces chosen by seed to a Parser and to redisModel, and checks
// that they agree on every command and on the error, and that the Parser stays within its
// memory bounds after every piece. Only ErrQueryBufLimit (a deliberate difference) may cut the
// Parser's commands short of the model's.
func checkModel(t testing.TB, input []byte, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed>>32^0x9e3779b97f4a7c15))
	lim := Limits{MaxBulkLen: 1 << 20, QueryBufLimit: 1 << 20}
	if rng.IntN(3) == 0 {
		lim.QueryBufLimit = 4096
	}
	threshold := BigArgThreshold
	if rng.IntN(2) == 0 {
		threshold = 1 + rng.IntN(16)
	}
	p := NewParser(lim)
	p.bigThreshold = threshold
	c := newConn(p, rng, rng.IntN(2) == 0)
	m := newRedisModel(lim.MaxBulkLen)
	for _, piece := range pieces(input, rng) {
		err := c.feed(t, piece)
		m.read(piece)
		if pb := p.PendingBytes(); int64(pb) > lim.QueryBufLimit {
			t.Fatalf("PendingBytes %d over the limit %d", pb, lim.QueryBufLimit)
		}
		if err == nil && len(c.tail) > InlineMaxSize+len(piece) {
			t.Fatalf("%d bytes left unconsumed after a piece of %d", len(c.tail), len(piece))
		}
		if bound := 3*int(lim.QueryBufLimit) + 16*c.maxData + 128<<10; p.ArgvMem() > bound {
			t.Fatalf("ArgvMem %d over %d (limit %d, longest data %d)", p.ArgvMem(), bound, lim.QueryBufLimit, c.maxData)
		}
		if err != nil {
			break
		}
	}
	if errors.Is(c.err, ErrQueryBufLimit) {
		if len(c.cmds) > len(m.cmds) || !slices.EqualFunc(c.cmds, m.cmds[:len(c.cmds)], slices.Equal) {
			t.Fatalf("before the limit: commands %q, model %q", c.cmds, m.cmds)
		}
		return
	}
	if !slices.EqualFunc(c.cmds, m.cmds, slices.Equal) {
		t.Fatalf("input %q:\ncommands %q\nmodel    %q", trunc(input), c.cmds, m.cmds)
	}
	got := ""
	if c.err != nil {
		got = c.err.Error()
	}
	if got != m.err {
		t.Fatalf("input %q: error %q, model %q", trunc(input), got, m.err)
	}
}

func trunc(b []byte) []byte {
	if len(b) > 300 {
		return b[:300]
	}
	return b
}
