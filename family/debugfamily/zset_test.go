package debugfamily

import (
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/zsetval"
)

// tzaddRow is a test command making a sorted set through zsetval (the sorted-set family is not
// this package's): TZADD key score member [score member ...], making the key anew.
func tzaddRow() *command.Command {
	return &command.Command{Name: "tzadd", Arity: -4, First: 1, Last: 1, Step: 1, Locking: command.LockKeys, Handler: func(ctx *command.Ctx) {
		key := ctx.Args.Arg(1)
		sh := ctx.Shard(key)
		a := sh.Arena()
		maxLen := 0
		for j := 3; j < ctx.Args.Len(); j += 2 {
			maxLen = max(maxLen, len(ctx.Args.Arg(j)))
		}
		rec, err := zsetval.New(a, key, (ctx.Args.Len()-2)/2, maxLen, 0)
		for j := 2; err == nil && j+1 < ctx.Args.Len(); j += 2 {
			score, ok := zsetval.ParseScore(ctx.Args.Arg(j))
			if !ok {
				ctx.W.Error("ERR not a float")
				return
			}
			_, _, err = zsetval.Add(a, rec, ctx.Args.Arg(j+1), score, 0)
		}
		if err == nil {
			_, err = sh.ReplaceFlagsLocked(ctx.DB, key, rec, 0)
		}
		if err != nil {
			ctx.W.Error(err.Error())
			return
		}
		ctx.W.OK()
	}}
}

// TestZSetDigestAndObject: DEBUG DIGEST, DIGEST-VALUE and DEBUG OBJECT's encoding and
// serializedlength for sorted sets, against what redis-server 7.0.15 printed for the same data
// (scores whose "%.17g" text, 7.0.15's, is fpconv_dtoa's, 7.2's: integers below 10^8, the
// infinities, short binary fractions). The skiplists' encoding and length are checked once
// zsetval makes skiplists; the digest does not depend on the encoding.
func TestZSetDigestAndObject(t *testing.T) {
	wd := newWorld(t)
	wd.tab = command.New(Commands(wd.srv), append(testRows(), append(collectionRows(), tzaddRow())...))
	c := wd.conn(t)
	var big, long strings.Builder
	for i := 1; i <= 200; i++ {
		big.WriteString(" " + strconv.Itoa(i*3) + " member-" + strconv.Itoa(i))
	}
	for i := 1; i <= 5; i++ {
		long.WriteString(" " + strconv.Itoa(i) + ".5 m" + strconv.Itoa(i))
	}
	long.WriteString(" 7 " + strings.Repeat("L", 70))
	c.script(`
TZADD z 1 a 2 b 1.5 c -2.5 d 0.25 e inf f -inf g 100 h 12345678 12 -> OK
TZADD zi 1 1 2 2 3 3 -> OK
TZADD zb` + big.String() + ` -> OK
TZADD zl` + long.String() + ` -> OK
DEBUG DIGEST-VALUE z zi zb zl -> [28c3cb2f60615525a95d43d282fe505b211c8bcb, db582fb2710e3e8815ae2a587113eab05f557ae0, 358a3949dcb86c386ab9aca2aa5ec9063c3622c6, 828aaaadb944bee7fd5161ddf9bab1b21cad9893]
DEBUG DIGEST -> a2c21930c897d5174c7031ab33239b272bfbd3db
`)
	skiplists := strings.Contains(c.do("DEBUG OBJECT zb"), "encoding:skiplist")
	for _, k := range []struct {
		key, enc string
		length   int
	}{
		{"z", "listpack", 75}, {"zi", "listpack", 20}, {"zb", "skiplist", 3694}, {"zl", "skiplist", 77},
	} {
		if k.enc == "skiplist" && !skiplists {
			t.Logf("%s: no skiplist encoding yet", k.key)
			continue
		}
		got := c.do("DEBUG OBJECT " + k.key)
		want := "encoding:" + k.enc + " serializedlength:" + strconv.Itoa(k.length) + " "
		if !strings.Contains(got, want) {
			t.Errorf("DEBUG OBJECT %s = %s, want %q in it", k.key, got, want)
		}
	}
}
