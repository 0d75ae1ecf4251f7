package debugfamily

import (
	"strconv"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/object"
)

// DEBUG POPULATE's errors: a count or size that is not a positive number (Redis passes this
// text to getPositiveLongFromObjectOrReply), and a count whose keys cannot fit (Redis's reply
// when it cannot allocate a table for them).
const (
	errPopulateRange = "ERR value is out of range, must be positive"
	errPopulateOOM   = "ERR OOM in dictTryExpand"
)

// debugPopulateCommand: DEBUG POPULATE count [prefix] [size] — count string keys named
// prefix:N (prefix "key") for N from 0, holding "value:N", cut or padded with zero bytes to
// size when size is given and not 0. Keys that exist are left alone (an expired one is
// replaced, as lookupKeyWrite removes it). Written in the client's database, with every shard
// held: like Redis, a big count keeps the server busy until it is done.
func debugPopulateCommand(ctx *command.Ctx) {
	args := ctx.Args
	count, ok := conv.String2ll(args.Arg(2))
	if !ok || count < 0 {
		ctx.W.Error(errPopulateRange)
		return
	}
	// Every key takes at least one slot of the smallest class in its shard's arena, whose
	// address space is at most alloc.DefaultReserve: a count beyond that can never be stored.
	if count > int64(ctx.KS.NumShards())*(alloc.DefaultReserve/alloc.Quantum) {
		ctx.W.Error(errPopulateOOM)
		return
	}
	var size int64
	if args.Len() == 5 {
		if size, ok = conv.String2ll(args.Arg(4)); !ok || size < 0 {
			ctx.W.Error(errPopulateRange)
			return
		}
	}
	prefix := []byte("key")
	if args.Len() >= 4 {
		prefix = args.Arg(3)
	}
	key := append(append([]byte(nil), prefix...), ':')
	base := len(key)
	var val []byte
	for j := range count {
		key = strconv.AppendInt(key[:base], j, 10)
		sh := ctx.Shard(key)
		if _, exists := ctx.LookupWrite(sh, key); exists {
			continue
		}
		val = populateValue(val[:0], j, size)
		h, err := object.NewString(sh.Arena(), key, val, 0, object.WriteSet)
		if err == nil {
			if err = sh.InsertLocked(ctx.DB, key, h); err != nil {
				object.Free(sh.Arena(), h)
			} else {
				ctx.NotifyNew(key)
			}
		}
		if err != nil {
			ctx.W.Error(err.Error())
			return
		}
	}
	ctx.W.OK()
}

// populateValue appends "value:j" to dst, cut or padded with zero bytes to size unless size
// is 0.
func populateValue(dst []byte, j, size int64) []byte {
	dst = strconv.AppendInt(append(dst, "value:"...), j, 10)
	if size == 0 {
		return dst
	}
	if int64(len(dst)) >= size {
		return dst[:size]
	}
	for int64(len(dst)) < size {
		dst = append(dst, 0)
	}
	return dst
}
