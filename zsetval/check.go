package zsetval

import (
	"bytes"
	"fmt"
	"math"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// Check verifies sorted-set record rec: a listpack is well formed (deep), holds pairs with no
// repeated member, every score entry reads as a number that is not NaN, and the pairs are in
// order (score, then member bytes); a skiplist's table and index agree and pass their own
// checks. It reads everything: for tests, and after every write in invariants builds.
func Check(a *alloc.Arena, rec alloc.Handle) error {
	if t := object.TypeOf(a, rec); t != object.TypeZSet {
		return fmt.Errorf("zsetval: record of type %s", t.Name())
	}
	enc, root := object.Root(a, rec)
	switch enc {
	case object.EncListpack:
		return checkListpack(listpack.FromHandle(root).Bytes(a))
	case object.EncSkiplist:
		z := openSkiplist(a, root)
		return z.check()
	}
	return fmt.Errorf("zsetval: encoding %s", enc.Name())
}

// checkListpack is Check of a listpack.
func checkListpack(lp []byte) error {
	if err := listpack.ValidateDups(lp, true); err != nil {
		return fmt.Errorf("zsetval: listpack: %w", err)
	}
	var prev []byte
	prevScore := math.Inf(-1)
	var buf [maxIntLen]byte
	i := 0
	for p := listpack.First(lp); p >= 0; p = lpNextPair(lp, p) {
		sp := listpack.Next(lp, p)
		if s, _, isInt := listpack.Get(lp, sp); !isInt {
			if f, n, _ := strtod(s); n != len(s) || n == 0 || math.IsNaN(f) {
				return fmt.Errorf("zsetval: pair %d: score %q", i, s)
			}
		}
		score := lpScore(lp, sp)
		m := lpMember(lp, p, buf[:0])
		if i > 0 && (score < prevScore || (score == prevScore && bytes.Compare(prev, m) >= 0)) {
			return fmt.Errorf("zsetval: pair %d (%q %v) out of order after (%q %v)", i, m, score, prev, prevScore)
		}
		prev, prevScore = append(prev[:0], m...), score
		i++
	}
	return nil
}

// checkZset panics when Check fails, in invariants builds.
func checkZset(a *alloc.Arena, rec alloc.Handle) {
	if !invariantsOn {
		return
	}
	if err := Check(a, rec); err != nil {
		panic(err)
	}
}
