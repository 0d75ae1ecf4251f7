package zsetfamily

import (
	"strings"
	"testing"

	"github.com/kvserver/kvserver/querybuf"
)

// FuzzParsers runs every option grammar on arbitrary command lines (words separated by
// spaces): none may panic or read past the line, and what they accept must be consistent —
// ZADD's pairs fill the line exactly, a set operation has one weight per key.
func FuzzParsers(f *testing.F) {
	for _, s := range []string{
		"ZADD k NX CH 1 a 2 b",
		"ZADD k GT LT INCR 1 a",
		"ZRANGE k (1 +inf BYSCORE REV LIMIT 0 5 WITHSCORES",
		"ZRANGE k [a - BYLEX LIMIT 1",
		"ZUNION 2 a b WEIGHTS 1 2 AGGREGATE MAX WITHSCORES",
		"ZINTERCARD 3 a b c LIMIT 4",
		"ZUNIONSTORE d 9 a",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		fields := strings.Fields(line)
		if len(fields) < 4 || len(fields) > 40 {
			return
		}
		args := fuzzArgs(t, fields)
		if args.Len() != len(fields) {
			return
		}
		if o, err := parseZaddOptions(args, false); err == nil {
			if o.scoreIdx+2*o.pairs != args.Len() || o.pairs < 1 {
				t.Fatalf("%q: %+v", line, o)
			}
			_, _, _ = parseScores(args, o, nil)
		}
		for _, k := range []rangeKind{rangeAuto, rangeRank, rangeScore, rangeLex} {
			for _, d := range []direction{dirAuto, dirForward, dirReverse} {
				_, _ = parseRangeOptions(args, 1, false, k, d)
				if args.Len() >= 5 {
					_, _ = parseRangeOptions(args, 2, true, k, d)
				}
			}
		}
		for _, idx := range []int{1, 2} {
			n, err := parseNumkeys(args, idx, "x")
			if err != nil {
				continue
			}
			if idx+1+n > args.Len() {
				t.Fatalf("%q: numkeys %d past the line", line, n)
			}
			for _, op := range []setOp{opUnion, opInter, opDiff} {
				for _, card := range []bool{false, true} {
					o, err := parseSetOpOptions(args, idx+1+n, n, op, idx == 2, card, nil)
					if err == nil && len(o.weights) != n {
						t.Fatalf("%q: %d weights for %d keys", line, len(o.weights), n)
					}
				}
			}
		}
	})
}

// fuzzArgs is argsOf for the fuzzer's words.
func fuzzArgs(t *testing.T, fields []string) querybuf.Args {
	p := querybuf.NewParser(querybuf.DefaultLimits())
	data := []byte("*" + itoa(len(fields)) + "\r\n")
	for _, f := range fields {
		data = append(data, "$"+itoa(len(f))+"\r\n"+f+"\r\n"...)
	}
	if n, err := p.Parse(data); err != nil || n != len(data) || p.NumCommands() != 1 {
		t.Skip()
	}
	return p.Command(0)
}
