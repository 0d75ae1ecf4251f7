package zindex

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// fuzzScores are the scores a program picks from: ties, both zeros, infinities, extremes.
var fuzzScores = []float64{math.Inf(-1), -1e300, -2, -1, math.Copysign(0, -1), 0, 5e-324, 0.5,
	1, 1.0000000000000002, 2, 3, 1e300, math.Inf(1)}

// FuzzModel runs a program of index operations against the sorted-slice model, checking the
// whole index after every operation. Each operation is three bytes: an opcode, a member (256
// members per bank, the opcode's high bits choose among 8 banks) and a score (one of
// fuzzScores, or a small integer).
func FuzzModel(f *testing.F) {
	f.Add([]byte{0, 1, 2, 0, 2, 3, 1, 1, 0, 4, 0, 0, 5, 3, 0})
	f.Add(func() []byte { // grow past a few splits, then shrink
		var p []byte
		for i := range 400 {
			p = append(p, byte(i>>8)<<3, byte(i), byte(i%20))
		}
		for i := range 400 {
			p = append(p, 1|byte(i>>8)<<3, byte(i*7), 0)
		}
		return p
	}())
	f.Add(func() []byte { // appends, range deletes, queries
		var p []byte
		for i := range 300 {
			p = append(p, 6|byte(i>>8)<<3, byte(i), 0)
		}
		for i := range 40 {
			p = append(p, 3, byte(i*5), byte(i), 4, byte(i), byte(i*3))
		}
		return p
	}())
	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) > 6000 {
			prog = prog[:6000]
		}
		th := newHarness(t)
		th.check = true
		score := func(b byte) float64 {
			if int(b) < len(fuzzScores) {
				return fuzzScores[b]
			}
			return float64(b >> 2)
		}
		appended := 0
		for i := 0; i+2 < len(prog); i += 3 {
			op, x, y := prog[i], int(prog[i+1]), prog[i+2]
			m := fmt.Sprintf("m%d", int(op>>3)*256+x)
			switch op % 8 {
			case 0, 5:
				th.insert(score(y), m)
			case 1:
				th.delete(m)
			case 2:
				th.queries(score(y), m, x*int(y+1))
			case 3:
				if n := len(th.model); n > 0 {
					start := (x * 31) % n
					th.deleteRange(start, min(n-1, start+int(y)))
				}
			case 4:
				// Lex searches assume members ordered as the entries (equal scores).
				if slices.IsSortedFunc(th.model, func(a, b ent) int { return strings.Compare(a.member, b.member) }) {
					th.lexQueries(m)
				}
			case 6:
				// Append after everything: the highest score so far, a fresh member.
				s := 1e301
				if n := len(th.model); n > 0 {
					s = math.Nextafter(math.Max(s, th.model[n-1].score), math.Inf(1))
				}
				if math.IsInf(s, 0) {
					continue
				}
				appended++
				th.append(s, fmt.Sprintf("a%d", appended))
			case 7:
				th.verify()
			}
		}
		th.verify()
		th.destroy(int(len(prog) % 97))
	})
}
