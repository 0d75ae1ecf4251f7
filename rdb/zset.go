package rdb

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/kvserver/kvserver/listpack"
)

// Sorted sets. Redis 7.2 writes a listpack-encoded sorted set as type 17 (the listpack's bytes
// as one string: member, score, member, score… in score order, ties by member) and a skiplist
// as type 5: the member count, then each member as a string and its score as 8 bytes (an IEEE
// double, little endian), from the highest score down (rdbSaveObject walks the skiplist from
// its tail, so that its loader always inserts at the head). Older dumps hold type 3 (as 5 but
// each score a string: rdbSaveDoubleValue) and type 12 (a ziplist of pairs, Redis 2.6 to 6.2,
// converted to a listpack as Redis 7's loader does). The decoder reports 17 and 12 alike as
// TypeZSetListpack (Value the validated listpack) and 5 and 3 alike as TypeZSet2, whose pairs
// NextZSetMember reads one at a time.
//
// Validation, as deep as Redis's sanitize-dump-payload yes and a little deeper: a listpack
// must be sound (listpack.Validate, deep), hold pairs, no member twice, every score a double
// (an integer entry, or a string strtod reads whole) other than NaN, in order (score, then
// member bytes): Redis reads a listpack's score with strtod and never checks the order, so a
// crafted listpack it would take and then search wrongly is refused here. A type-5 or type-3
// score must not be NaN (Redis: "Zset with NAN score detected"); a member twice there is the
// loader's to find (Redis: "Duplicate zset fields detected").

// rdbSaveDoubleValue's special lengths of a type-3 score.
const (
	dblNaN    = 253
	dblPosInf = 254
	dblNegInf = 255
)

// readZSetValue reads the head of a sorted set of type t (TypeZSet, TypeZSet2, TypeZSetZiplist,
// TypeZSetListpack) into ent and d.elems.
func (d *Decoder) readZSetValue(t byte, ent *Entry) error {
	if t == TypeZSet || t == TypeZSet2 {
		n, err := d.readPlainLen()
		if err != nil {
			return err
		}
		if n == 0 {
			return errEmptyKey
		}
		ent.Type, ent.Len = TypeZSet2, n
		d.elems = elemState{typ: TypeZSet2, left: n, src: t}
		return nil
	}
	blob, err := d.readString(slotValue)
	if err != nil {
		return err
	}
	if t == TypeZSetZiplist {
		var dst []byte
		if d.reuse(slotConv) {
			dst = d.bufs[slotConv]
		}
		lp, _, err := zsetZiplistToListpack(blob, dst)
		if err != nil {
			return err
		}
		if d.reuse(slotConv) {
			d.bufs[slotConv] = lp
		}
		blob = lp
	} else if validateZSetListpack(blob, true) != nil {
		return fmt.Errorf("%w: zset listpack integrity check failed", ErrCorrupt)
	}
	n := uint64(listpack.Len(blob) / 2)
	if n == 0 {
		return errEmptyKey
	}
	ent.Type, ent.Value, ent.Len = TypeZSetListpack, blob, n
	return nil
}

// zsetZiplistToListpack validates zl as a sorted set's ziplist (as validateZSetListpack: pairs,
// no member twice, scores, order) and returns it converted to a listpack built in dst[:0],
// with the number of pairs.
func zsetZiplistToListpack(zl, dst []byte) ([]byte, int, error) {
	seen := make(map[string]struct{})
	lp, count, err := ziplistToListpack(zl, dst, "zset", func(i int, s []byte) bool {
		if i%2 == 0 {
			if _, dup := seen[string(s)]; dup {
				return false
			}
			seen[string(s)] = struct{}{}
		}
		return true
	})
	if err == nil && (count%2 != 0 || validateZSetListpack(lp, false) != nil) {
		err = fmt.Errorf("%w: zset ziplist integrity check failed", ErrCorrupt)
	}
	return lp, count / 2, err
}

// validateZSetListpack checks lp as a sorted set's listpack: deep validation, pairs, with dups
// no member twice, then each score a double other than NaN and the pairs in order (score, then
// member bytes; -0 and 0 are equal scores).
func validateZSetListpack(lp []byte, dups bool) error {
	if dups {
		if err := validateDups(lp, true); err != nil {
			return err
		}
	} else if err := listpack.Validate(lp, true, nil); err != nil || listpack.Len(lp)%2 != 0 {
		return listpack.ErrCorrupt
	}
	// The previous member as a string: a view into lp, or an integer formatted into one of
	// two buffers on the stack (the one the current member does not use).
	var nums [2][20]byte
	var prev []byte
	prevScore, first, k := 0.0, true, 0
	for p := listpack.First(lp); p >= 0; p = listpack.Next(lp, p) {
		m, v, isInt := listpack.Get(lp, p)
		if isInt {
			m = strconv.AppendInt(nums[k][:0], v, 10)
			k ^= 1
		}
		p = listpack.Next(lp, p)
		score, ok := listpackScore(lp, p)
		if !ok {
			return listpack.ErrCorrupt
		}
		if !first && (score < prevScore || score == prevScore && bytes.Compare(prev, m) >= 0) {
			return listpack.ErrCorrupt
		}
		prev, prevScore, first = m, score, false
	}
	return nil
}

// listpackScore reads the score entry at p of a validated listpack: an integer entry's value,
// or a string's as strtod reads it whole (parseDouble); NaN or any other string is not a score.
func listpackScore(lp []byte, p int) (float64, bool) {
	s, v, isInt := listpack.Get(lp, p)
	if isInt {
		return float64(v), true
	}
	return parseDouble(s)
}

// parseDouble reads a score written as text (a listpack's, a type-3 value's): a decimal or
// hexadecimal floating-point number, "inf", "-inf" (and strtod's other spellings of them),
// beyond the range of a double rounded to ±inf or 0 as strtod does; not NaN, nothing around it.
func parseDouble(s []byte) (float64, bool) {
	if len(s) == 0 || len(s) > 127 { // zzlStrtod reads at most 127 bytes
		return 0, false
	}
	f, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return f, !math.IsNaN(f)
}

// NextZSetMember returns the next member and score of the sorted set Next returned last (Type
// TypeZSet2), or io.EOF once all Entry.Len pairs are read. A NaN score is ErrCorrupt. With
// ReuseBuffers the member is valid until the next call; else it is a new slice. Pairs come in
// the file's order: Redis writes them from the highest score down.
func (d *Decoder) NextZSetMember() (member []byte, score float64, err error) {
	if d.err != nil {
		return nil, 0, d.err
	}
	e := &d.elems
	if e.typ != TypeZSet2 || e.left == 0 {
		return nil, 0, io.EOF
	}
	if member, score, err = d.readZSetPair(e.src); err != nil {
		return nil, 0, d.elemErr(err)
	}
	if e.left--; e.left == 0 {
		*e = elemState{}
	}
	return member, score, nil
}

// readZSetPair reads a member and its score, of a sorted set of type src (TypeZSet2: a binary
// double; TypeZSet: a string one).
func (d *Decoder) readZSetPair(src byte) ([]byte, float64, error) {
	m, err := d.readString(slotElem)
	if err != nil {
		return nil, 0, err
	}
	var score float64
	if src == TypeZSet2 {
		if err := d.readFull(d.scratch[:8]); err != nil {
			return nil, 0, err
		}
		score = math.Float64frombits(binary.LittleEndian.Uint64(d.scratch[:8]))
	} else if score, err = d.readDoubleString(); err != nil {
		return nil, 0, err
	}
	if math.IsNaN(score) {
		return nil, 0, fmt.Errorf("%w: zset with NaN score", ErrCorrupt)
	}
	return m, score, nil
}

// readDoubleString reads rdbSaveDoubleValue's form: a length byte (253 NaN, 254 +inf, 255
// -inf), else that many bytes of text ("%.17g").
func (d *Decoder) readDoubleString() (float64, error) {
	n, err := d.readByte()
	if err != nil {
		return 0, err
	}
	switch n {
	case dblNaN:
		return math.NaN(), nil
	case dblPosInf:
		return math.Inf(1), nil
	case dblNegInf:
		return math.Inf(-1), nil
	}
	var tmp [dblNaN]byte
	buf := tmp[:n]
	if err := d.readFull(buf); err != nil {
		return 0, err
	}
	f, ok := parseDouble(buf)
	if !ok {
		return 0, fmt.Errorf("%w: bad zset score %q", ErrCorrupt, buf)
	}
	return f, nil
}

// AppendZSetHead appends the head of a sorted set stored as pairs (type 5) of n members: the
// caller then appends exactly n with AppendZSetMember, from the highest score down as Redis
// does. The rest as AppendString. A listpack-encoded sorted set is AppendBlob's, type
// TypeZSetListpack.
func AppendZSetHead(b []byte, ent Entry, n uint64, compress bool) []byte {
	return appendLen(appendHead(b, ent, TypeZSet2, compress), n)
}

// AppendZSetMember appends one member of a type-5 sorted set: the member as a string (an
// integer encoding, LZF or raw, as AppendElement) and its score as 8 bytes, little endian.
func AppendZSetMember(b, member []byte, score float64, compress bool) []byte {
	b = appendString(b, member, compress)
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(score))
}
