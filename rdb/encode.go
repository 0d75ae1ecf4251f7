// Package rdb reads and writes Redis's RDB snapshot format (version 11, as
// written by Redis 7.2) and DUMP payloads, for strings, hashes, sets, lists and
// sorted sets: a listpack or intset value is a blob copied as it is (validated
// on load), a hash table as its elements, streamed one at a time, a list as its
// quicklist nodes, streamed one at a time, a skiplist sorted set as its member,
// score pairs, streamed one at a time; older dumps' ziplist and zipmap hashes,
// ziplist and linked lists and ziplist sorted sets are converted on load.
package rdb

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
)

// Version is the RDB version written by Redis 7.2.
const Version = 11

// Opcodes and value types of the RDB format.
const (
	opFunctionPreGA = 246
	opModuleAux     = 247
	opIdle          = 248
	opFreq          = 249
	opAux           = 250
	opResizeDB      = 251
	opExpireTimeMs  = 252
	opExpireTime    = 253
	opSelectDB      = 254
	opEOF           = 255
	opFunction2     = 245

	// Value types (rdb.h's RDB_TYPE_*) of the types this package reads. The ones
	// Redis 7.2 writes for hashes and sets are TypeHash and TypeSet (hash-table
	// encoded: the elements), TypeHashListpack, TypeSetListpack and TypeSetIntset
	// (the encoding's bytes as one string), for lists TypeListQuicklist2 (list.go);
	// the zipmap and ziplist hashes and the older lists are read only (Redis 2.4
	// to 6.2 wrote them). Sorted sets (zset.go): TypeZSetListpack and TypeZSet2
	// written, TypeZSet and TypeZSetZiplist read only.
	TypeString         = 0
	TypeList           = 1
	TypeSet            = 2
	TypeZSet           = 3
	TypeHash           = 4
	TypeZSet2          = 5
	TypeHashZipmap     = 9
	TypeListZiplist    = 10
	TypeSetIntset      = 11
	TypeZSetZiplist    = 12
	TypeHashZiplist    = 13
	TypeListQuicklist  = 14
	TypeHashListpack   = 16
	TypeZSetListpack   = 17
	TypeListQuicklist2 = 18
	TypeSetListpack    = 20
)

// Length encodings: the top two bits of the first byte.
const (
	len6Bit  = 0
	len14Bit = 1
	len32Bit = 0x80
	len64Bit = 0x81
	lenEnc   = 3 // special encoding: the low 6 bits say which

	encInt8  = 0
	encInt16 = 1
	encInt32 = 2
	encLZF   = 3
)

// Entry is one key of a snapshot.
type Entry struct {
	DB  int
	Key []byte
	// Type says the form of the value: TypeString (Value is the string),
	// TypeHashListpack, TypeSetListpack, TypeSetIntset (Value is the blob,
	// validated by the decoder; a ziplist hash is converted and reported as
	// TypeHashListpack), or TypeHash, TypeSet (Value is nil and the Len elements
	// follow: Decoder.NextPair, Decoder.NextMember; a zipmap hash is reported so),
	// or a list: TypeListQuicklist2 (Value is nil and Len nodes follow,
	// Decoder.NextNode; type 14 is reported so) or TypeList (Len elements
	// follow, Decoder.NextListElem; type 10 is reported so), or a sorted set:
	// TypeZSetListpack (Value is the validated listpack; type 12 is converted and
	// reported so) or TypeZSet2 (Len member, score pairs follow,
	// Decoder.NextZSetMember; type 3 is reported so).
	Type byte
	// Len is the number of pairs of a hash, of members of a set or sorted set (for a
	// blob too), of nodes of a TypeListQuicklist2 list (empty ones included), of
	// elements of a TypeList.
	Len      uint64
	Value    []byte
	ExpireMs int64 // absolute Unix time in milliseconds, or -1 for none
	Idle     int64 // LRU idle time in seconds, or -1 when absent
	Freq     int   // LFU logarithmic counter, or -1 when absent
}

// Encoder writes an RDB file. Call WriteHeader first and Finish last; the
// first error sticks and is returned by every later call.
type Encoder struct {
	// Version is the RDB version written in the header (default 11).
	Version int
	// Compress enables LZF for strings longer than 20 bytes (Redis's
	// rdbcompression), used only when it saves space.
	Compress bool
	// Checksum writes the CRC-64 footer; when false the footer is 8 zero
	// bytes, which loaders accept without verification (rdbchecksum no).
	Checksum bool

	w   *bufio.Writer
	h   Hash
	err error
	buf []byte
}

// NewEncoder returns an Encoder for version 11 with compression and
// checksum on, as Redis's defaults.
func NewEncoder(w io.Writer) *Encoder {
	return &Encoder{Version: Version, Compress: true, Checksum: true, w: bufio.NewWriter(w)}
}

func (e *Encoder) write(p []byte) {
	if e.err != nil {
		return
	}
	e.h.Write(p)
	_, e.err = e.w.Write(p)
}

func (e *Encoder) flushBuf() {
	e.write(e.buf)
	e.buf = e.buf[:0]
}

// WriteHeader writes the magic "REDIS" and the 4-digit version.
func (e *Encoder) WriteHeader() error {
	e.write(fmt.Appendf(nil, "REDIS%04d", e.Version))
	return e.err
}

// WriteAux writes an AUX field whose value is a string (stored with the
// integer encoding when it is a canonical small integer, as Redis does).
func (e *Encoder) WriteAux(key, value string) error {
	e.buf = append(e.buf[:0], opAux)
	e.buf = appendString(e.buf, []byte(key), false)
	e.buf = appendString(e.buf, []byte(value), false)
	e.flushBuf()
	return e.err
}

// WriteAuxInt writes an AUX field with an integer value.
func (e *Encoder) WriteAuxInt(key string, v int64) error {
	return e.WriteAux(key, strconv.FormatInt(v, 10))
}

// WriteStandardAux writes the AUX fields Redis writes at the start of a
// snapshot: redis-ver, redis-bits, ctime (Unix seconds), used-mem and
// aof-base (0).
func (e *Encoder) WriteStandardAux(redisVer string, ctime, usedMem int64) error {
	e.WriteAux("redis-ver", redisVer)
	e.WriteAuxInt("redis-bits", 64)
	e.WriteAuxInt("ctime", ctime)
	e.WriteAuxInt("used-mem", usedMem)
	return e.WriteAuxInt("aof-base", 0)
}

// SelectDB writes the SELECTDB opcode.
func (e *Encoder) SelectDB(db int) error {
	e.buf = appendLen(append(e.buf[:0], opSelectDB), uint64(db))
	e.flushBuf()
	return e.err
}

// ResizeDB writes the RESIZEDB hint: the number of keys and of keys with an
// expire in the current database.
func (e *Encoder) ResizeDB(keys, expires uint64) error {
	e.buf = appendLen(appendLen(append(e.buf[:0], opResizeDB), keys), expires)
	e.flushBuf()
	return e.err
}

// WriteString writes one string key with its optional expire (ExpireMs >= 0),
// LRU idle time (Idle >= 0) or LFU counter (Freq >= 0). Entry.DB is ignored:
// use SelectDB.
func (e *Encoder) WriteString(ent Entry) error {
	e.buf = AppendString(e.buf[:0], ent, e.Compress)
	e.flushBuf()
	return e.err
}

// WriteRaw writes bytes already in RDB form (AppendSelectDB, AppendString),
// adding them to the checksum: a snapshot encodes its records in parallel and
// writes them here in one stream.
func (e *Encoder) WriteRaw(p []byte) error {
	e.write(p)
	return e.err
}

// AppendSelectDB appends the SELECTDB opcode for database db.
func AppendSelectDB(dst []byte, db int) []byte {
	return appendLen(append(dst, opSelectDB), uint64(db))
}

// AppendString appends one string key as WriteString writes it: its expire
// (ExpireMs >= 0), LRU idle time (Idle >= 0) or LFU counter (Freq >= 0), the
// type, the key and the value (LZF-compressed where compress allows).
func AppendString(b []byte, ent Entry, compress bool) []byte {
	b = appendHead(b, ent, TypeString, compress)
	return appendString(b, ent.Value, compress)
}

// AppendBlob appends one key whose value is the bytes of a listpack or an intset (typ
// TypeHashListpack, TypeSetListpack, TypeSetIntset or TypeZSetListpack), written as one string as Redis does;
// the rest as AppendString.
func AppendBlob(b []byte, ent Entry, typ byte, blob []byte, compress bool) []byte {
	b = appendHead(b, ent, typ, compress)
	return appendString(b, blob, compress)
}

// AppendCollection appends the head of a key stored as elements (typ TypeHash with n pairs or
// TypeSet with n members): the caller then appends exactly that many with AppendElement (a
// hash: field, value, field, value…). The rest as AppendString.
func AppendCollection(b []byte, ent Entry, typ byte, n uint64, compress bool) []byte {
	return appendLen(appendHead(b, ent, typ, compress), n)
}

// AppendElement appends one element of a collection (a field, a value or a member) as Redis
// writes it: an integer encoding, LZF or raw, as string values.
func AppendElement(b, s []byte, compress bool) []byte { return appendString(b, s, compress) }

// appendHead appends what precedes a value: the expire (ExpireMs >= 0), LRU idle time (Idle >=
// 0) or LFU counter (Freq >= 0), the type and the key.
func appendHead(b []byte, ent Entry, typ byte, compress bool) []byte {
	if ent.ExpireMs >= 0 {
		b = append(b, opExpireTimeMs)
		b = binary.LittleEndian.AppendUint64(b, uint64(ent.ExpireMs))
	}
	if ent.Idle >= 0 {
		b = appendLen(append(b, opIdle), uint64(ent.Idle))
	}
	if ent.Freq >= 0 {
		b = append(b, opFreq, byte(ent.Freq))
	}
	b = append(b, typ)
	return appendString(b, ent.Key, compress)
}

// Finish writes the EOF opcode and the checksum footer, and flushes.
func (e *Encoder) Finish() error {
	e.write([]byte{opEOF})
	var sum [8]byte
	if e.Checksum {
		binary.LittleEndian.PutUint64(sum[:], e.h.Sum64())
	}
	e.write(sum[:])
	if e.err == nil {
		e.err = e.w.Flush()
	}
	return e.err
}

// appendLen appends Redis's length encoding: 6 bits in one byte, 14 bits in
// two (big endian), else a marker byte and a 32- or 64-bit big-endian value.
func appendLen(b []byte, n uint64) []byte {
	switch {
	case n < 1<<6:
		return append(b, byte(n))
	case n < 1<<14:
		return append(b, byte(len14Bit<<6|n>>8), byte(n))
	case n <= 0xffffffff:
		return binary.BigEndian.AppendUint32(append(b, len32Bit), uint32(n))
	default:
		return binary.BigEndian.AppendUint64(append(b, len64Bit), n)
	}
}

// canonicalInt reports whether s is an integer whose decimal form is exactly
// s (no sign on zero, no leading zeros or '+', at most 11 bytes): only such
// strings may be stored with an INT encoding, so they load back unchanged.
func canonicalInt(s []byte) (int64, bool) {
	if len(s) == 0 || len(s) > 11 {
		return 0, false
	}
	neg := s[0] == '-'
	digits := s
	if neg {
		digits = s[1:]
	}
	// Digits only, no leading zero (but "0" itself), no "-0": the forms FormatInt writes.
	if len(digits) == 0 || digits[0] == '0' && (len(digits) > 1 || neg) {
		return 0, false
	}
	var v int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0') // at most 11 digits: no overflow
	}
	if neg {
		v = -v
	}
	return v, true
}

// appendString appends a string with Redis's choice of encoding: INT8/16/32
// for canonical integers in range, LZF when compress is set, the string is
// longer than 20 bytes and the result is at least 4 bytes shorter (liblzf
// given an output limit of len-4, as Redis does), else raw.
func appendString(b, s []byte, compress bool) []byte {
	if v, ok := canonicalInt(s); ok {
		switch {
		case v >= -1<<7 && v < 1<<7:
			return append(b, lenEnc<<6|encInt8, byte(v))
		case v >= -1<<15 && v < 1<<15:
			return binary.LittleEndian.AppendUint16(append(b, lenEnc<<6|encInt16), uint16(v))
		case v >= -1<<31 && v < 1<<31:
			return binary.LittleEndian.AppendUint32(append(b, lenEnc<<6|encInt32), uint32(v))
		}
	}
	if compress && len(s) > 20 {
		if out, ok := appendLZF(b, s, len(s)-4); ok {
			return out
		}
	}
	return append(appendLen(b, uint64(len(s))), s...)
}

// EncodeDump returns the DUMP payload of a string value: type byte 0, the
// string (compressed as by rdbcompression yes), the RDB version (11) as 2
// bytes little endian, then the CRC-64 of all the preceding bytes, little
// endian.
func EncodeDump(value []byte) []byte {
	return encodeDumpVersion(value, Version)
}

func encodeDumpVersion(value []byte, version int) []byte {
	return finishDumpVersion(appendString([]byte{TypeString}, value, true), version)
}

// EncodeDumpBlob returns the DUMP payload of a listpack or intset value (typ TypeHashListpack,
// TypeSetListpack, TypeSetIntset or TypeZSetListpack): the type, the blob as a string, the footer.
func EncodeDumpBlob(typ byte, blob []byte) []byte {
	return FinishDump(appendString([]byte{typ}, blob, true))
}

// AppendDumpHead starts the DUMP payload of a value stored as elements (typ TypeHash with n
// pairs, TypeSet with n members, TypeZSet2 with n members) or nodes (TypeListQuicklist2 with n
// nodes) in dst: append the elements with AppendElement, the sorted set's with
// AppendZSetMember or the nodes with AppendListNode (compress true, as DUMP does) and end with
// FinishDump.
func AppendDumpHead(dst []byte, typ byte, n uint64) []byte {
	return appendLen(append(dst, typ), n)
}

// FinishDump appends a DUMP payload's footer to b (the type and value): the RDB version (11)
// as 2 bytes little endian, then the CRC-64 of all the preceding bytes.
func FinishDump(b []byte) []byte { return finishDumpVersion(b, Version) }

func finishDumpVersion(b []byte, version int) []byte {
	b = binary.LittleEndian.AppendUint16(b, uint16(version))
	return binary.LittleEndian.AppendUint64(b, CRC64(b))
}
