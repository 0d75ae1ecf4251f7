package persist

import (
	"encoding/binary"
	"errors"
	"io"
	"math"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/rdb"
	"github.com/kvserver/kvserver/zsetval"
)

// Sorted-set records to and from RDB, as Redis 7.2's rdbSaveObject and rdbLoadObject: a
// listpack-encoded set written as type 17 (its listpack as it is), a skiplist as type 5 (the
// member count, then each member and its binary score from the highest score down, so that
// Redis's loader always inserts at the head); read from type 17 (and 12, which package rdb
// converts and reports alike) as the listpack, or from type 5 (and 3) pair by pair. Records are
// built by zsetval.Builder, which makes the conversions of Redis's loader: a listpack over
// zset-max-listpack-entries becomes a skiplist, a type-5 set within both limits a listpack.

// zsetBuilder makes a sorted-set record from the pairs of a type-5 or type-3 value through
// zsetval.Builder, which finds a member given twice as Redis's loader does with its dict
// ("Duplicate zset fields detected"). Past the listpack limits the Builder puts the members in
// the arena as they come, so add, finish and abort run under the shard's lock.
type zsetBuilder struct {
	b *zsetval.Builder
	n int // pairs added
}

// newZSetBuilder starts the sorted set of key with about n members (a hint from the input,
// bounded) and expire expireMs (unix ms, 0 for none).
func newZSetBuilder(a *alloc.Arena, key []byte, n uint64, expireMs int64) *zsetBuilder {
	return &zsetBuilder{b: zsetval.NewBuilder(a, key, int(min(n, maxSizeHint)), 0, expireMs)}
}

// add adds a member and its score (not NaN: package rdb refuses it): a member twice is
// ErrDuplicateElement, a full arena object.ErrOOM.
func (z *zsetBuilder) add(m []byte, score float64) error {
	z.n++
	return zsetErr(z.b.Add(m, score))
}

// finish makes the record: a member twice is ErrDuplicateElement, no member at all
// rdb.ErrDumpData, a full arena object.ErrOOM; on error nothing is left allocated.
func (z *zsetBuilder) finish() (alloc.Handle, error) {
	defer z.abort()
	if z.n == 0 {
		return 0, rdb.ErrDumpData
	}
	h, err := z.b.Finish()
	return h, zsetErr(err)
}

// abort frees what was built so far.
func (z *zsetBuilder) abort() {
	if z.b != nil {
		z.b.Abort()
		z.b = nil
	}
}

// zsetErr words zsetval.Builder's errors as this package's: ErrDuplicateElement, object.ErrOOM.
func zsetErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, zsetval.ErrDuplicate):
		return ErrDuplicateElement
	}
	return object.ErrOOM
}

// newZSetListpackRecord makes the record of key from lp, a sorted set's listpack package rdb
// validated (type 17, or 12 converted).
func newZSetListpackRecord(a *alloc.Arena, key, lp []byte, expireMs int64) (alloc.Handle, error) {
	b := zsetval.NewBuilder(a, key, 0, 0, expireMs)
	if err := b.AppendListpack(lp); err != nil {
		b.Abort()
		return 0, zsetErr(err)
	}
	h, err := b.Finish()
	return h, zsetErr(err)
}

// newZSetRecord makes a sorted-set record from the pairs (rdb.TypeZSet2) d reads, for
// NewRecord: errors as NewRecord's.
func newZSetRecord(a *alloc.Arena, key []byte, d *rdb.Decoder, ent rdb.Entry, expireMs int64) (alloc.Handle, error) {
	z := newZSetBuilder(a, key, ent.Len, expireMs)
	for {
		m, score, err := d.NextZSetMember()
		if err == io.EOF {
			break
		}
		if err == nil {
			err = z.add(m, score)
		}
		if err != nil {
			z.abort()
			if err != object.ErrOOM {
				err = rdb.ErrDumpData
			}
			return 0, err
		}
	}
	h, err := z.finish()
	if err != nil && err != object.ErrOOM {
		err = rdb.ErrDumpData
	}
	return h, err
}

// appendZSet appends sorted-set record h as an RDB value with head ent: type 17 for a listpack,
// type 5 for a skiplist.
func appendZSet(dst []byte, a *alloc.Arena, h alloc.Handle, ent rdb.Entry, compress bool) []byte {
	if lp := zsetval.ListpackBytes(a, h); lp != nil {
		return rdb.AppendBlob(dst, ent, rdb.TypeZSetListpack, lp, compress)
	}
	n := zsetval.Len(a, h)
	return appendZSetPairs(rdb.AppendZSetHead(dst, ent, uint64(n), compress), a, h, n, compress)
}

// appendZSetPairs appends the n pairs of skiplist record h from the highest score down.
func appendZSetPairs(dst []byte, a *alloc.Arena, h alloc.Handle, n int, compress bool) []byte {
	if n == 0 {
		return dst
	}
	var scratch [24]byte
	zsetval.RangeByRank(a, h, 0, n-1, true, scratch[:0], func(m []byte, score float64) bool {
		dst = rdb.AppendZSetMember(dst, m, score, compress)
		return true
	})
	return dst
}

// encodeZSetDump returns the DUMP payload of sorted-set record h.
func encodeZSetDump(a *alloc.Arena, h alloc.Handle) []byte {
	if lp := zsetval.ListpackBytes(a, h); lp != nil {
		return rdb.EncodeDumpBlob(rdb.TypeZSetListpack, lp)
	}
	n := zsetval.Len(a, h)
	return rdb.FinishDump(appendZSetPairs(rdb.AppendDumpHead(nil, rdb.TypeZSet2, uint64(n)), a, h, n, true))
}

// appendZSetElem appends a type-5 pair to a load batch: kindElem, the member, the score's 8
// bytes.
func appendZSetElem(b, m []byte, score float64) []byte {
	var s [8]byte
	binary.LittleEndian.PutUint64(s[:], math.Float64bits(score))
	return appendElem(appendElem(append(b, kindElem), m), s[:])
}

// zsetElemScore reads the score appendZSetElem wrote.
func zsetElemScore(s []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(s)) }
