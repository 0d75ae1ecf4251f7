package keyfamily

import (
	"math"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/replyerr"
)

// getIntFromObject is Redis's getIntFromObjectOrReply without the reply: an integer argument
// (string2ll) within a C int.
func getIntFromObject(arg []byte) (int, error) {
	v, ok := conv.String2ll(arg)
	switch {
	case !ok:
		return 0, replyerr.NotInteger
	case v < math.MinInt32 || v > math.MaxInt32:
		return 0, replyerr.IntRange
	}
	return int(v), nil
}

// getDBIndex parses a database index as MOVE and COPY do: an int, then a database that exists.
func getDBIndex(ctx *command.Ctx, arg []byte) (int, error) {
	db, err := getIntFromObject(arg)
	if err != nil {
		return 0, err
	}
	if db < 0 || db >= ctx.KS.Databases() {
		return 0, replyerr.DBIndex
	}
	return db, nil
}
