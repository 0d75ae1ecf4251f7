package debugfamily

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/setval"
	"github.com/kvserver/kvserver/zsetval"
)

// DEBUG DIGEST and DIGEST-VALUE, by Redis's computeDatasetDigest and xorObjectDigest: SHA-1
// digests combined so that the key order does not matter (xor) while the order of the parts of
// one key does (mix). For keys without a TTL the result is Redis's, bit for bit. Redis adds
// only the presence of a TTL ("!!expire!!"); kvserver also adds its time, so that a changed
// TTL changes the digest (tests/differences_test.go).

// digest is a SHA-1 sized digest.
type digest [sha1.Size]byte

// xor is Redis's xorDigest: d ^= SHA1(p).
func (d *digest) xor(p []byte) {
	h := sha1.Sum(p)
	for i := range d {
		d[i] ^= h[i]
	}
}

// mix is Redis's mixDigest: d = SHA1(d ^ SHA1(p)).
func (d *digest) mix(p []byte) {
	d.xor(p)
	*d = sha1.Sum(d[:])
}

// status writes d as 40 lower-case hex digits in a status reply.
func (d *digest) status(ctx *command.Ctx) {
	var b [2 * sha1.Size]byte
	hex.Encode(b[:], d[:])
	ctx.W.SimpleBytes(b[:])
}

// expireMark is what Redis mixes in for a key with a TTL.
var expireMark = []byte("!!expire!!")

// objectDigest is Redis's xorObjectDigest for record h: its type (object.Type numbers are
// Redis's OBJ_* ones), its value, and its TTL. A string is mixed in (an integer as its decimal
// string); a set xors in each member's SHA-1 (an intset's members as decimal strings), so its
// order does not matter; a list mixes in each element in order; a hash xors in, for each field, the SHA-1 of the field and value mixed
// into a zero digest; a sorted set likewise for each member, its member and its score's
// fpconv_dtoa text (appendDtoa: Redis 7.2's; 7.0.15 printed "%.17g", the same text for the
// integers below 10^8, the infinities and the short binary fractions like 1.5, not for 0.1).
func objectDigest(d *digest, a *alloc.Arena, h alloc.Handle, scratch []byte) {
	var aux [8]byte
	typ := object.TypeOf(a, h)
	binary.BigEndian.PutUint32(aux[:4], uint32(typ))
	d.mix(aux[:4])
	switch typ {
	case object.TypeString:
		d.mix(object.Value(a, h, scratch))
	case object.TypeSet:
		setval.Each(a, h, scratch, func(m []byte) bool {
			d.xor(m)
			return true
		})
	case object.TypeHash:
		hashval.Each(a, h, scratch, func(f, v []byte) bool {
			var e digest
			e.mix(f)
			e.mix(v)
			d.xor(e[:])
			return true
		})
	case object.TypeList:
		listval.Each(a, h, scratch, func(e []byte) bool {
			d.mix(e)
			return true
		})
	case object.TypeZSet:
		var text [32]byte
		zsetval.Each(a, h, scratch, func(m []byte, score float64) bool {
			var e digest
			e.mix(m)
			e.mix(appendDtoa(text[:0], score))
			d.xor(e[:])
			return true
		})
	}
	if when, ok := object.Expire(a, h); ok {
		d.xor(expireMark)
		binary.BigEndian.PutUint64(aux[:], uint64(when))
		d.xor(aux[:])
	}
}

// debugDigestCommand: DEBUG DIGEST — 40 zeros for an empty keyspace, else the xor of every
// key's digest (its name mixed with its value's digest), each database's part preceded by its
// index. Keys whose time has passed but that are still there count, as in Redis.
func debugDigestCommand(ctx *command.Ctx) {
	var final digest
	for db := range ctx.KS.Databases() {
		keys := int64(0)
		for _, i := range ctx.Locked() {
			keys += ctx.ShardAt(i).DBSizeLocked(db)
		}
		if keys == 0 {
			continue
		}
		var aux [4]byte
		binary.BigEndian.PutUint32(aux[:], uint32(db))
		final.mix(aux[:])
		for _, i := range ctx.Locked() {
			sh := ctx.ShardAt(i)
			a := sh.Arena()
			sh.EachLocked(db, func(h alloc.Handle) {
				var d digest
				d.mix(object.Key(a, h))
				objectDigest(&d, a, h, ctx.Scratch[:0])
				final.xor(d[:])
			})
		}
	}
	final.status(ctx)
}

// debugDigestValueCommand: DEBUG DIGEST-VALUE [key ...] — one status line per key: its
// value's digest, 40 zeros for a missing key. Found as dictFind finds it: a key whose time has
// passed still counts, and nothing is touched.
func debugDigestValueCommand(ctx *command.Ctx) {
	args := ctx.Args
	ctx.W.Array(args.Len() - 2)
	for j := 2; j < args.Len(); j++ {
		var d digest
		key := args.Arg(j)
		sh := ctx.Shard(key)
		if h, ok := sh.LookupFlagsLocked(ctx.DB, key, keyspace.LookupNoTouch|keyspace.LookupNoExpire); ok {
			objectDigest(&d, sh.Arena(), h, ctx.Scratch[:0])
		}
		d.status(ctx)
	}
}
