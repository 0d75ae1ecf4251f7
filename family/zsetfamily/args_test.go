package zsetfamily

import (
	"math"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/querybuf"
)

// argsOf parses a command line into querybuf.Args.
func argsOf(t *testing.T, line string) querybuf.Args {
	t.Helper()
	p := querybuf.NewParser(querybuf.DefaultLimits())
	fields := strings.Fields(line)
	data := []byte("*" + itoa(len(fields)) + "\r\n")
	for _, f := range fields {
		data = append(data, "$"+itoa(len(f))+"\r\n"+f+"\r\n"...)
	}
	if n, err := p.Parse(data); err != nil || n != len(data) {
		t.Fatalf("parse %q: %d %v", line, n, err)
	}
	return p.Command(0)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// errText is an error's text, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestParseZaddOptions: flags in any order and case, repeated; the pairs; the conflicts in
// Redis's order (pairs first, then XX+NX, then GT/LT/NX, then INCR with several pairs).
func TestParseZaddOptions(t *testing.T) {
	for _, c := range []struct {
		line, err  string
		scoreIdx   int
		pairs      int
		nx, xx, ch bool
		gt, lt     bool
		incr       bool
	}{
		{line: "ZADD k 1 a", scoreIdx: 2, pairs: 1},
		{line: "ZADD k nx Ch 1 a 2 b", scoreIdx: 4, pairs: 2, nx: true, ch: true},
		{line: "ZADD k XX GT xx 1 a", scoreIdx: 5, pairs: 1, xx: true, gt: true},
		{line: "ZADD k XX LT INCR 1 a", scoreIdx: 5, pairs: 1, xx: true, lt: true, incr: true},
		{line: "ZADD k 1 a 2", err: "ERR syntax error"},
		{line: "ZADD k NX", err: "ERR syntax error"},
		{line: "ZADD k NX XX 1", err: "ERR syntax error"}, // the pairs are checked first
		{line: "ZADD k NX XX 1 a", err: "ERR XX and NX options at the same time are not compatible"},
		{line: "ZADD k NX GT 1 a", err: "ERR GT, LT, and/or NX options at the same time are not compatible"},
		{line: "ZADD k LT NX 1 a", err: "ERR GT, LT, and/or NX options at the same time are not compatible"},
		{line: "ZADD k GT LT 1 a", err: "ERR GT, LT, and/or NX options at the same time are not compatible"},
		{line: "ZADD k XX NX GT 1 a", err: "ERR XX and NX options at the same time are not compatible"},
		{line: "ZADD k INCR 1 a 2 b", err: "ERR INCR option supports a single increment-element pair"},
		// A flag after the first score is a member or a score, not a flag.
		{line: "ZADD k 1 nx", scoreIdx: 2, pairs: 1},
	} {
		o, err := parseZaddOptions(argsOf(t, c.line), false)
		if got := errText(err); got != c.err {
			t.Errorf("%s: error %q, want %q", c.line, got, c.err)
			continue
		}
		if c.err != "" {
			continue
		}
		want := zaddOptions{nx: c.nx, xx: c.xx, gt: c.gt, lt: c.lt, incr: c.incr, ch: c.ch, scoreIdx: c.scoreIdx, pairs: c.pairs}
		if o != want {
			t.Errorf("%s: %+v, want %+v", c.line, o, want)
		}
	}
	// ZINCRBY is ZADD with INCR: one pair only.
	if _, err := parseZaddOptions(argsOf(t, "ZINCRBY k 1 a"), true); err != nil {
		t.Errorf("ZINCRBY: %v", err)
	}
}

// TestParseScores: every score is read before the key is touched; the longest member.
func TestParseScores(t *testing.T) {
	args := argsOf(t, "ZADD k 1 a -inf bbb (1 c")
	o, err := parseZaddOptions(args, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := parseScores(args, o, nil); errText(err) != "ERR value is not a valid float" {
		t.Errorf("(1: %v", err)
	}
	args = argsOf(t, "ZADD k 1.5 a -inf bbb +inf cc")
	o, _ = parseZaddOptions(args, false)
	scores, maxLen, err := parseScores(args, o, nil)
	if err != nil || maxLen != 3 || len(scores) != 3 || scores[0] != 1.5 || !math.IsInf(scores[1], -1) || !math.IsInf(scores[2], 1) {
		t.Errorf("scores %v maxLen %d err %v", scores, maxLen, err)
	}
	for _, bad := range []string{"nan", "abc", "1e", "0x"} {
		args = argsOf(t, "ZADD k "+bad+" a")
		o, _ = parseZaddOptions(args, false)
		if _, _, err := parseScores(args, o, nil); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// TestParseRangeOptions: ZRANGE's grammar — what each command leaves open, LIMIT's two
// numbers, the conflicts, the range swapped for a reversed score or lex range.
func TestParseRangeOptions(t *testing.T) {
	type cmd struct {
		keyIdx int
		store  bool
		kind   rangeKind
		dir    direction
	}
	zrange := cmd{1, false, rangeAuto, dirAuto}
	zrangestore := cmd{2, true, rangeAuto, dirAuto}
	zrevrangebyscore := cmd{1, false, rangeScore, dirReverse}
	zrangebylex := cmd{1, false, rangeLex, dirForward}
	zrevrange := cmd{1, false, rangeRank, dirReverse}
	for _, c := range []struct {
		c    cmd
		line string
		err  string
		want string // kind, direction, WITHSCORES, offset, limit, the range
	}{
		{c: zrange, line: "ZRANGE k 0 -1", want: "rank fwd 0 -1 [0 -1]"},
		{c: zrange, line: "ZRANGE k 0 -1 withscores REV", want: "rank rev scores 0 -1 [0 -1]"},
		{c: zrange, line: "ZRANGE k (1 +inf BYSCORE LIMIT 1 2", want: "score fwd 1 2 (1 +inf]"},
		{c: zrange, line: "ZRANGE k 5 (1 BYSCORE REV", want: "score rev 0 -1 (1 5]"},
		{c: zrange, line: "ZRANGE k [b - BYLEX REV LIMIT 0 -5", want: "lex rev 0 -5 (-inf b]"},
		{c: zrange, line: "ZRANGE k 0 -1 LIMIT 0 -1", want: "rank fwd 0 -1 [0 -1]"},
		{c: zrange, line: "ZRANGE k 0 -1 LIMIT 0 1", err: "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX"},
		{c: zrange, line: "ZRANGE k - + BYLEX WITHSCORES", err: "ERR syntax error, WITHSCORES not supported in combination with BYLEX"},
		{c: zrange, line: "ZRANGE k 0 -1 BYSCORE BYLEX", err: "ERR syntax error"},
		{c: zrange, line: "ZRANGE k 0 -1 LIMIT 1", err: "ERR syntax error"},
		{c: zrange, line: "ZRANGE k 0 -1 BYSCORE LIMIT x 1", err: "ERR value is not an integer or out of range"},
		{c: zrange, line: "ZRANGE k a 1", err: "ERR value is not an integer or out of range"},
		{c: zrange, line: "ZRANGE k a 1 BYSCORE", err: "ERR min or max is not a float"},
		{c: zrange, line: "ZRANGE k a 1 BYLEX", err: "ERR min or max not valid string range item"},
		{c: zrangestore, line: "ZRANGESTORE d k 0 -1 WITHSCORES", err: "ERR syntax error"},
		{c: zrangestore, line: "ZRANGESTORE d k 1 2 BYSCORE", want: "score fwd 0 -1 [1 2]"},
		{c: zrevrangebyscore, line: "ZREVRANGEBYSCORE k 10 (2 WITHSCORES", want: "score rev scores 0 -1 (2 10]"},
		{c: zrevrangebyscore, line: "ZREVRANGEBYSCORE k 10 2 REV", err: "ERR syntax error"},
		{c: zrevrangebyscore, line: "ZREVRANGEBYSCORE k 10 2 BYLEX", err: "ERR syntax error"},
		{c: zrangebylex, line: "ZRANGEBYLEX k (a [c", want: "lex fwd 0 -1 (a c]"},
		{c: zrevrange, line: "ZREVRANGE k 0 1 WITHSCORES", want: "rank rev scores 0 -1 [0 1]"},
		{c: zrevrange, line: "ZREVRANGE k 0 1 BYSCORE", err: "ERR syntax error"},
	} {
		o, err := parseRangeOptions(argsOf(t, c.line), c.c.keyIdx, c.c.store, c.c.kind, c.c.dir)
		if got := errText(err); got != c.err {
			t.Errorf("%s: error %q, want %q", c.line, got, c.err)
			continue
		}
		if c.err != "" {
			continue
		}
		if got := describeRange(o); got != c.want {
			t.Errorf("%s: %s, want %s", c.line, got, c.want)
		}
	}
}

// describeRange prints parsed range options for TestParseRangeOptions.
func describeRange(o rangeOptions) string {
	var b strings.Builder
	b.WriteString([...]string{"auto", "rank", "score", "lex"}[o.kind])
	if o.reverse {
		b.WriteString(" rev")
	} else {
		b.WriteString(" fwd")
	}
	if o.withScores {
		b.WriteString(" scores")
	}
	b.WriteString(" " + fmtInt(o.offset) + " " + fmtInt(o.limit) + " ")
	bound := func(ex bool, open, closed string) string {
		if ex {
			return open
		}
		return closed
	}
	switch o.kind {
	case rangeRank:
		b.WriteString("[" + fmtInt(o.start) + " " + fmtInt(o.end) + "]")
	case rangeScore:
		b.WriteString(bound(o.score.MinEx, "(", "[") + fmtFloat(o.score.Min) + " " + fmtFloat(o.score.Max) + bound(o.score.MaxEx, ")", "]"))
	case rangeLex:
		lex := func(inf int8, v []byte) string {
			switch inf {
			case -1:
				return "-inf"
			case 1:
				return "+inf"
			}
			return string(v)
		}
		b.WriteString(bound(o.lex.MinEx, "(", "[") + lex(o.lex.MinInf, o.lex.Min) + " " + lex(o.lex.MaxInf, o.lex.Max) + bound(o.lex.MaxEx, ")", "]"))
	}
	return b.String()
}

func fmtInt(n int64) string {
	if n < 0 {
		return "-" + itoa(int(-n))
	}
	return itoa(int(n))
}

func fmtFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "+inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return fmtInt(int64(f))
}

// TestNormalizeRanks: Redis's rank sanitising.
func TestNormalizeRanks(t *testing.T) {
	for _, c := range []struct {
		start, end int64
		n          int
		s, e       int
		ok         bool
	}{
		{0, -1, 5, 0, 4, true},
		{-2, -1, 5, 3, 4, true},
		{-100, 100, 5, 0, 4, true},
		{3, 2, 5, 0, 0, false},
		{5, 10, 5, 0, 0, false},
		{0, -6, 5, 0, 0, false},
		{0, 0, 0, 0, 0, false},
		{math.MinInt64, math.MaxInt64, 3, 0, 2, true},
	} {
		s, e, ok := normalizeRanks(c.start, c.end, c.n)
		if s != c.s || e != c.e || ok != c.ok {
			t.Errorf("%d %d of %d: %d %d %v", c.start, c.end, c.n, s, e, ok)
		}
	}
}

// TestParseSetOpOptions: WEIGHTS (one per key), AGGREGATE, WITHSCORES and LIMIT where each
// command allows them, in any order, repeated; numkeys' own checks.
func TestParseSetOpOptions(t *testing.T) {
	for _, c := range []struct {
		line     string
		op       setOp
		store    bool
		cardOnly bool
		err      string
		want     string // weights agg withscores limit
	}{
		{line: "ZUNION 2 a b", op: opUnion, want: "[1 1] sum false 0"},
		{line: "ZUNION 2 a b weights 2 -inf AGGREGATE max WITHSCORES", op: opUnion, want: "[2 -inf] max true 0"},
		{line: "ZINTER 2 a b aggregate MIN aggregate sum weights 1 2 weights 3 4", op: opInter, want: "[3 4] sum false 0"},
		{line: "ZUNION 2 a b WEIGHTS 1", op: opUnion, err: "ERR syntax error"},
		{line: "ZUNION 2 a b WEIGHTS 1 x", op: opUnion, err: "ERR weight value is not a float"},
		{line: "ZUNION 2 a b WEIGHTS 1 nan", op: opUnion, err: "ERR weight value is not a float"},
		{line: "ZUNION 2 a b AGGREGATE avg", op: opUnion, err: "ERR syntax error"},
		{line: "ZUNION 2 a b AGGREGATE", op: opUnion, err: "ERR syntax error"},
		{line: "ZUNIONSTORE d 2 a b WITHSCORES", op: opUnion, store: true, err: "ERR syntax error"},
		{line: "ZDIFF 2 a b WEIGHTS 1 2", op: opDiff, err: "ERR syntax error"},
		{line: "ZDIFF 2 a b WITHSCORES", op: opDiff, want: "[1 1] sum true 0"},
		{line: "ZINTERCARD 2 a b LIMIT 5", op: opInter, cardOnly: true, want: "[1 1] sum false 5"},
		{line: "ZINTERCARD 2 a b LIMIT -1", op: opInter, cardOnly: true, err: "ERR LIMIT can't be negative"},
		{line: "ZINTERCARD 2 a b LIMIT x", op: opInter, cardOnly: true, err: "ERR LIMIT can't be negative"},
		{line: "ZINTERCARD 2 a b WITHSCORES", op: opInter, cardOnly: true, err: "ERR syntax error"},
		{line: "ZINTERCARD 2 a b WEIGHTS 1 1", op: opInter, cardOnly: true, err: "ERR syntax error"},
		{line: "ZINTER 2 a b LIMIT 1", op: opInter, err: "ERR syntax error"},
	} {
		args := argsOf(t, c.line)
		idx := 1
		if c.store {
			idx = 2
		}
		n, err := parseNumkeys(args, idx, "x")
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		o, err := parseSetOpOptions(args, idx+1+n, n, c.op, c.store, c.cardOnly, nil)
		if got := errText(err); got != c.err {
			t.Errorf("%s: error %q, want %q", c.line, got, c.err)
			continue
		}
		if c.err != "" {
			continue
		}
		ws := "["
		for i, w := range o.weights {
			if i > 0 {
				ws += " "
			}
			ws += fmtFloat(w)
		}
		got := ws + "] " + [...]string{"sum", "min", "max"}[o.agg] + " " + map[bool]string{true: "true", false: "false"}[o.withScores] + " " + fmtInt(o.limit)
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.line, got, c.want)
		}
	}
	for line, want := range map[string]string{
		"ZUNION x a":     "ERR value is not an integer or out of range",
		"ZUNION 0 a":     "ERR at least 1 input key is needed for 'zunion' command",
		"ZUNION -1 a":    "ERR at least 1 input key is needed for 'zunion' command",
		"ZUNION 3 a b":   "ERR syntax error",
		"ZUNION 2 a b":   "",
		"ZUNION 1 a b c": "",
	} {
		_, err := parseNumkeys(argsOf(t, line), 1, "zunion")
		if got := errText(err); got != want {
			t.Errorf("%s: %q, want %q", line, got, want)
		}
	}
}
