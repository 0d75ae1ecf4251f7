// Package scanargs parses the arguments the SCAN family shares (Redis's
// parseScanCursorOrReply and scanGenericCommand's option loop): the cursor, MATCH and COUNT.
// HSCAN and SSCAN (and ZSCAN later) use Parse; SCAN uses ParseWithType, which also knows TYPE.
// Run (run.go) is the collection scans' whole command flow, given the type's own Scanner.
package scanargs

import (
	"bytes"

	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

const (
	// ErrInvalidCursor is Redis's reply to a cursor parseScanCursorOrReply refuses.
	ErrInvalidCursor replyerr.Error = "ERR invalid cursor"

	// DefaultCount is Redis's COUNT when none is given.
	DefaultCount = 10
	// maxCount bounds COUNT: a scan visits at most ten times as many buckets.
	maxCount = 1 << 40
)

// ParseCursor is Redis's parseScanCursorOrReply, which reads the cursor with C's strtoul: the
// argument ends at its first NUL byte; it must not start with a space; an optional sign, then
// decimal digits and nothing else, within 64 bits (a '-' negates modulo 2^64). The empty string
// is cursor 0.
func ParseCursor(arg []byte) (uint64, bool) {
	if i := bytes.IndexByte(arg, 0); i >= 0 {
		arg = arg[:i]
	}
	if len(arg) > 0 && conv.IsSpace(arg[0]) {
		return 0, false
	}
	v, whole, overflow := conv.Strtoull(arg, 10)
	if !whole || overflow {
		return 0, false
	}
	return v, true
}

// Options are a scan's MATCH and COUNT, and SCAN's TYPE.
type Options struct {
	Count      int
	Pattern    []byte // MATCH, when UsePattern; a view of the argument
	UsePattern bool   // false for no MATCH or MATCH *
	TypeName   []byte // TYPE (SCAN only), nil for none; a view of the argument
}

// Parse reads the options from argument from on, in the order given (a repeated option: the
// last one counts), as scanGenericCommand does for a key's collection: COUNT must be an
// integer (replyerr.NotInteger) of at least 1 (replyerr.Syntax); anything else, TYPE
// included, is replyerr.Syntax.
func Parse(args querybuf.Args, from int) (Options, error) { return parse(args, from, false) }

// ParseWithType is Parse for SCAN, which also takes TYPE.
func ParseWithType(args querybuf.Args, from int) (Options, error) { return parse(args, from, true) }

func parse(args querybuf.Args, from int, withType bool) (Options, error) {
	o := Options{Count: DefaultCount}
	for i := from; i < args.Len(); i += 2 {
		opt, more := args.Arg(i), args.Len()-i >= 2
		switch {
		case conv.EqFold(opt, "count") && more:
			v, ok := conv.String2ll(args.Arg(i + 1))
			if !ok {
				return o, replyerr.NotInteger
			}
			if v < 1 {
				return o, replyerr.Syntax
			}
			o.Count = int(min(v, maxCount))
		case conv.EqFold(opt, "match") && more:
			o.Pattern = args.Arg(i + 1)
			o.UsePattern = !(len(o.Pattern) == 1 && o.Pattern[0] == '*')
		case withType && conv.EqFold(opt, "type") && more:
			o.TypeName = args.Arg(i + 1)
		default:
			return o, replyerr.Syntax
		}
	}
	return o, nil
}
