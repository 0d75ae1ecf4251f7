package geofamily

import (
	"errors"
	"math"
	"strconv"

	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// The family's own errors, word for word as Redis 7.2 writes them (geo.c); the shared ones
// are replyerr's.
const (
	errUnit          replyerr.Error = "ERR unsupported unit provided. please use M, KM, FT, MI"
	errNeedRadius    replyerr.Error = "ERR need numeric radius"
	errNeedWidth     replyerr.Error = "ERR need numeric width"
	errNeedHeight    replyerr.Error = "ERR need numeric height"
	errRadiusNeg     replyerr.Error = "ERR radius cannot be negative"
	errBoxNeg        replyerr.Error = "ERR height or width cannot be negative"
	errCountPositive replyerr.Error = "ERR COUNT must be > 0"
	errAnyNeedsCount replyerr.Error = "ERR the ANY argument requires COUNT argument"
	errMember        replyerr.Error = "ERR could not decode requested zset member"
	errStoreWith     replyerr.Error = "ERR STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and WITHCOORD options"
	errSearchStore   replyerr.Error = "ERR GEOSEARCHSTORE is not compatible with WITHDIST, WITHHASH and WITHCOORD options"
)

// errLonLat is extractLongLatOrReply's error for a position outside the limits: the two
// numbers as printf's "%f" writes them.
func errLonLat(long, lat float64) string {
	b := append([]byte("ERR invalid longitude,latitude pair "), fmtF(long)...)
	b = append(b, ',')
	return string(append(b, fmtF(lat)...))
}

// fmtF is printf's "%f": six decimals, "inf" and "-inf" for the infinities.
func fmtF(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'f', 6, 64)
}

// errFrom and errBy are the GEOSEARCH errors naming the command as the client typed it.
func errFrom(name []byte) string {
	return "ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for " + string(name)
}

func errBy(name []byte) string {
	return "ERR exactly one of BYRADIUS and BYBOX can be specified for " + string(name)
}

// replyError is the reply for an error of the keyspace or of zsetval: out of memory is Redis's
// OOM error.
func replyError(err error) string {
	var re replyerr.Error
	if errors.As(err, &re) {
		return re.Error()
	}
	if errors.Is(err, object.ErrOOM) {
		return replyerr.OOM.Error()
	}
	return replyerr.OOM.Error() // the keyspace's only error is out of memory
}
