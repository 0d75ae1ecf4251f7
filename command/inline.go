package command

import (
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/querybuf"
)

// InlineRangeMax is the most elements a range read may name and still run on a readiness loop
// (SmallRange): its reply is then at most a few kilobytes, and its cost a lookup of its start
// plus that many steps — as much as an MGET of as many keys, which runs inline.
const InlineRangeMax = 128

// SmallRange returns an InlineIf for range reads by index (LRANGE, ZRANGE, ZREVRANGE): a call
// runs inline when its start and stop (arguments startArg and startArg+1) are integers of the
// same sign naming at most InlineRangeMax elements — whatever the collection's length, as both
// count from the same end — and every further argument is one of options (WITHSCORES, REV:
// not BYSCORE or BYLEX, whose ranges are not counts, nor LIMIT).
func SmallRange(startArg int, options ...string) func(args querybuf.Args) bool {
	return func(args querybuf.Args) bool {
		if args.Len() < startArg+2 || args.Len() > startArg+2+len(options) {
			return false
		}
	next:
		for i := startArg + 2; i < args.Len(); i++ {
			for _, o := range options {
				if conv.EqFold(args.Arg(i), o) {
					continue next
				}
			}
			return false
		}
		start, ok1 := conv.String2ll(args.Arg(startArg))
		stop, ok2 := conv.String2ll(args.Arg(startArg + 1))
		if !ok1 || !ok2 || (start < 0) != (stop < 0) {
			return false
		}
		return stop-start < InlineRangeMax
	}
}

// FewMembers returns an InlineIf for reads that look up each of their members once (GEOPOS,
// GEOHASH, GEODIST: a table lookup and a decode per member): a call runs inline when it names
// at most InlineRangeMax members after its first memberArg arguments, as an MGET of as many
// keys does.
func FewMembers(memberArg int) func(args querybuf.Args) bool {
	return func(args querybuf.Args) bool {
		return args.Len()-memberArg <= InlineRangeMax
	}
}
