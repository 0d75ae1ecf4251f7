package rdb

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Errors reported by the Decoder. Truncated input wraps io.ErrUnexpectedEOF.
var (
	ErrBadMagic  = errors.New("rdb: wrong signature, not an RDB file")
	ErrChecksum  = errors.New("rdb: checksum mismatch")
	ErrCorrupt   = errors.New("rdb: corrupt data")
	ErrTruncated = fmt.Errorf("rdb: truncated file: %w", io.ErrUnexpectedEOF)
)

// UnsupportedTypeError reports a value type other than string: the file is
// valid RDB but holds data this package cannot load.
type UnsupportedTypeError struct {
	Type byte
}

func (e *UnsupportedTypeError) Error() string {
	return fmt.Sprintf("rdb: unsupported value type %d (only strings, hashes, sets, lists and sorted sets are supported)", e.Type)
}

// UnsupportedOpcodeError reports an opcode this package recognises but
// cannot load (module AUX data, functions).
type UnsupportedOpcodeError struct {
	Opcode byte
	Name   string
}

func (e *UnsupportedOpcodeError) Error() string {
	return fmt.Sprintf("rdb: unsupported opcode %d (%s)", e.Opcode, e.Name)
}

// readChunk bounds each allocation while reading a string: a corrupt length
// cannot make the decoder allocate more than about twice the real input.
const readChunk = 64 << 10

// Decoder reads an RDB file as a stream of entries.
type Decoder struct {
	r       *bufio.Reader
	h       Hash
	hashing bool
	version int
	started bool
	done    bool
	err     error
	db      int
	aux     map[string]string
	scratch [8]byte

	// ReuseBuffers makes Next return its key and value in buffers it reuses: they are valid
	// until the next call. A loader that copies them saves two allocations per key.
	ReuseBuffers bool
	bufs         [6][]byte // key, value, LZF input, two elements, a converted value (ReuseBuffers)
	// OnResizeDB, when set, is told of each RESIZEDB hint: the database and its key and
	// expire counts (a loader sizes its tables from it).
	OnResizeDB func(db int, keys, expires uint64)
	// OnFunction, when set, is given the code of each function library of the file (opcode
	// 245), a new slice it may keep; its error stops decoding ("Failed loading library, …").
	// Without it a library is an *UnsupportedOpcodeError.
	OnFunction func(code []byte) error

	elems    elemState // the elements of the last entry not read yet (collection.go)
	skipping bool      // drain: elements read only to be skipped, into reused buffers
	dump     bool      // a DUMP payload's decoder: element errors are ErrDumpData
	// EmptyKeys counts the empty collections skipped, as Redis's loader skips them.
	EmptyKeys int64
}

// Buffer slots of readString with ReuseBuffers.
const (
	slotNone  = -1 // a fresh allocation (AUX fields, which the decoder keeps)
	slotKey   = 0
	slotValue = 1
	slotLZF   = 2
	slotElem  = 3 // a set's member, a hash's field
	slotElem2 = 4 // a hash's value
	slotConv  = 5 // a value converted from an older encoding (ziplist to listpack)
)

// reuse reports whether a read into slot goes to its reused buffer.
func (d *Decoder) reuse(slot int) bool { return slot >= 0 && (d.ReuseBuffers || d.skipping) }

// NewDecoder returns a Decoder reading from r.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{r: bufio.NewReaderSize(r, 64<<10), hashing: true, aux: map[string]string{}}
}

// Version returns the RDB version of the file (valid after the first Next).
func (d *Decoder) Version() int { return d.version }

// Aux returns the AUX fields read so far.
func (d *Decoder) Aux() map[string]string { return d.aux }

func (d *Decoder) readFull(p []byte) error {
	if _, err := io.ReadFull(d.r, p); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return ErrTruncated
		}
		return err
	}
	if d.hashing {
		d.h.Write(p)
	}
	return nil
}

func (d *Decoder) readByte() (byte, error) {
	err := d.readFull(d.scratch[:1])
	return d.scratch[0], err
}

// readLen reads a length; encoded reports the special-encoding form, whose
// low 6 bits (returned as n) select INT8/16/32 or LZF.
func (d *Decoder) readLen() (n uint64, encoded bool, err error) {
	b, err := d.readByte()
	if err != nil {
		return 0, false, err
	}
	switch b >> 6 {
	case len6Bit:
		return uint64(b & 0x3f), false, nil
	case len14Bit:
		b2, err := d.readByte()
		return uint64(b&0x3f)<<8 | uint64(b2), false, err
	case lenEnc:
		return uint64(b & 0x3f), true, nil
	}
	switch b {
	case len32Bit:
		err = d.readFull(d.scratch[:4])
		return uint64(binary.BigEndian.Uint32(d.scratch[:4])), false, err
	case len64Bit:
		err = d.readFull(d.scratch[:8])
		return binary.BigEndian.Uint64(d.scratch[:8]), false, err
	}
	return 0, false, fmt.Errorf("%w: unknown length encoding %#x", ErrCorrupt, b)
}

// readPlainLen reads a length that may not use a special encoding.
func (d *Decoder) readPlainLen() (uint64, error) {
	n, enc, err := d.readLen()
	if err == nil && enc {
		err = fmt.Errorf("%w: encoded value where a length was expected", ErrCorrupt)
	}
	return n, err
}

// readBytes reads n bytes into slot's buffer (ReuseBuffers) or a new one, growing it chunk by
// chunk past what it already holds: a corrupt length cannot make it allocate much more than
// the input has.
func (d *Decoder) readBytes(n uint64, slot int) ([]byte, error) {
	if n > math.MaxInt32*8 {
		return nil, fmt.Errorf("%w: length %d too large", ErrCorrupt, n)
	}
	if d.reuse(slot) {
		if b := d.bufs[slot]; uint64(cap(b)) >= n {
			b = b[:n]
			return b, d.readFull(b)
		}
		b, err := d.readGrowing(n)
		if err == nil {
			d.bufs[slot] = b
		}
		return b, err
	}
	return d.readGrowing(n)
}

// readGrowing reads n bytes into a new buffer grown chunk by chunk.
func (d *Decoder) readGrowing(n uint64) ([]byte, error) {
	buf := make([]byte, 0, min(n, readChunk))
	for uint64(len(buf)) < n {
		k := int(min(n-uint64(len(buf)), readChunk))
		if cap(buf)-len(buf) < k {
			nb := make([]byte, len(buf), min(n, uint64(2*cap(buf)+k)))
			copy(nb, buf)
			buf = nb
		}
		start := len(buf)
		buf = buf[:start+k]
		if err := d.readFull(buf[start:]); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// intBuf is the buffer an integer-encoded string is formatted into: slot's (ReuseBuffers) or
// a new one.
func (d *Decoder) intBuf(slot int) []byte {
	if d.reuse(slot) {
		return d.bufs[slot][:0]
	}
	return nil
}

// readString reads a string in any of its encodings, into slot's buffer with ReuseBuffers.
func (d *Decoder) readString(slot int) ([]byte, error) {
	n, enc, err := d.readLen()
	if err != nil {
		return nil, err
	}
	if !enc {
		return d.readBytes(n, slot)
	}
	switch n {
	case encInt8:
		b, err := d.readByte()
		return d.keepInt(slot, strconv.AppendInt(d.intBuf(slot), int64(int8(b)), 10)), err
	case encInt16:
		err := d.readFull(d.scratch[:2])
		return d.keepInt(slot, strconv.AppendInt(d.intBuf(slot), int64(int16(binary.LittleEndian.Uint16(d.scratch[:2]))), 10)), err
	case encInt32:
		err := d.readFull(d.scratch[:4])
		return d.keepInt(slot, strconv.AppendInt(d.intBuf(slot), int64(int32(binary.LittleEndian.Uint32(d.scratch[:4]))), 10)), err
	case encLZF:
		clen, err := d.readPlainLen()
		if err != nil {
			return nil, err
		}
		ulen, err := d.readPlainLen()
		if err != nil {
			return nil, err
		}
		if clen == 0 || ulen > math.MaxInt32*8 || ulen/lzfMaxExpand > clen {
			return nil, fmt.Errorf("%w: bad LZF lengths %d/%d", ErrCorrupt, clen, ulen)
		}
		comp, err := d.readBytes(clen, slotLZF)
		if err != nil {
			return nil, err
		}
		var dst []byte
		if d.reuse(slot) {
			dst = d.bufs[slot][:0]
		}
		out, err := LZFDecompressAppend(dst, comp, int(ulen))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		if d.reuse(slot) {
			d.bufs[slot] = out
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: unknown string encoding %d", ErrCorrupt, n)
}

// keepInt keeps a formatted integer's buffer as slot's (it may have grown).
func (d *Decoder) keepInt(slot int, b []byte) []byte {
	if d.reuse(slot) {
		d.bufs[slot] = b
	}
	return b
}

func (d *Decoder) readHeader() error {
	var hdr [9]byte
	if err := d.readFull(hdr[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return ErrBadMagic
		}
		return err
	}
	if string(hdr[:5]) != "REDIS" {
		return ErrBadMagic
	}
	v, err := strconv.Atoi(string(hdr[5:]))
	if err != nil || v < 1 || v > Version {
		return fmt.Errorf("rdb: can't handle RDB format version %q", hdr[5:])
	}
	d.version = v
	return nil
}

// Next returns the next entry. It returns io.EOF after the EOF opcode, once the
// checksum (if any and non-zero) has been verified. Any other error is final.
// An entry stored as elements (Type TypeHash, TypeSet, TypeList, TypeZSet2) or
// nodes (TypeListQuicklist2) is followed by them, which NextPair, NextMember,
// NextListElem, NextZSetMember or NextNode read; Next skips those not read.
// Empty collections are skipped (counted in EmptyKeys), as Redis's loader does.
func (d *Decoder) Next() (Entry, error) {
	if d.err != nil {
		return Entry{}, d.err
	}
	if d.done {
		return Entry{}, io.EOF
	}
	ent, err := d.next()
	if err != nil {
		if err == io.EOF {
			d.done = true
		} else {
			d.err = err
		}
	}
	return ent, err
}

func (d *Decoder) next() (Entry, error) {
	if !d.started {
		d.started = true
		if err := d.readHeader(); err != nil {
			return Entry{}, err
		}
	}
	if err := d.drain(); err != nil {
		return Entry{}, err
	}
	ent := Entry{ExpireMs: -1, Idle: -1, Freq: -1}
	for {
		t, err := d.readByte()
		if err != nil {
			return Entry{}, err
		}
		switch t {
		case opExpireTime:
			if err := d.readFull(d.scratch[:4]); err != nil {
				return Entry{}, err
			}
			ent.ExpireMs = int64(int32(binary.LittleEndian.Uint32(d.scratch[:4]))) * 1000
		case opExpireTimeMs:
			if err := d.readFull(d.scratch[:8]); err != nil {
				return Entry{}, err
			}
			ent.ExpireMs = int64(binary.LittleEndian.Uint64(d.scratch[:8]))
		case opFreq:
			b, err := d.readByte()
			if err != nil {
				return Entry{}, err
			}
			ent.Freq = int(b)
		case opIdle:
			n, err := d.readPlainLen()
			if err != nil {
				return Entry{}, err
			}
			ent.Idle = int64(min(n, math.MaxInt64))
		case opAux:
			k, err := d.readString(slotNone)
			if err != nil {
				return Entry{}, err
			}
			v, err := d.readString(slotNone)
			if err != nil {
				return Entry{}, err
			}
			d.aux[string(k)] = string(v)
		case opResizeDB:
			keys, err := d.readPlainLen()
			if err != nil {
				return Entry{}, err
			}
			expires, err := d.readPlainLen()
			if err != nil {
				return Entry{}, err
			}
			if d.OnResizeDB != nil {
				d.OnResizeDB(d.db, keys, expires)
			}
		case opSelectDB:
			n, err := d.readPlainLen()
			if err != nil {
				return Entry{}, err
			}
			if n > math.MaxInt32 {
				return Entry{}, fmt.Errorf("%w: database number %d", ErrCorrupt, n)
			}
			d.db = int(n)
		case opEOF:
			return Entry{}, d.finish()
		case opModuleAux:
			return Entry{}, &UnsupportedOpcodeError{t, "module auxiliary data"}
		case opFunction2:
			if err := d.readFunction(); err != nil {
				return Entry{}, err
			}
		case opFunctionPreGA:
			return Entry{}, &UnsupportedOpcodeError{t, "pre-release functions"}
		case TypeString, TypeSet, TypeHash, TypeHashZipmap, TypeSetIntset, TypeHashZiplist,
			TypeHashListpack, TypeSetListpack,
			TypeList, TypeListZiplist, TypeListQuicklist, TypeListQuicklist2,
			TypeZSet, TypeZSet2, TypeZSetZiplist, TypeZSetListpack:
			if ent.Key, err = d.readString(slotKey); err != nil {
				return Entry{}, err
			}
			if err = d.readValue(t, &ent); err == errEmptyKey {
				d.EmptyKeys++
				ent = Entry{ExpireMs: -1, Idle: -1, Freq: -1}
				continue
			}
			if err != nil {
				return Entry{}, err
			}
			ent.DB = d.db
			return ent, nil
		default:
			return Entry{}, &UnsupportedTypeError{t}
		}
	}
}

// finish checks the footer after the EOF opcode: versions 5 and later carry
// a CRC-64 of everything before it, where 0 means "not computed".
func (d *Decoder) finish() error {
	if d.version < 5 {
		return io.EOF
	}
	want := d.h.Sum64()
	d.hashing = false
	if err := d.readFull(d.scratch[:8]); err != nil {
		return err
	}
	if got := binary.LittleEndian.Uint64(d.scratch[:8]); got != 0 && got != want {
		return ErrChecksum
	}
	return io.EOF
}

// Decode reads a whole RDB file from r, calling fn for each entry; an error
// from fn stops decoding and is returned. The elements of a value stored as
// elements or nodes (TypeHash, TypeSet, TypeList, TypeZSet2, TypeListQuicklist2)
// are skipped: a Decoder reads them.
func Decode(r io.Reader, fn func(Entry) error) error {
	d := NewDecoder(r)
	for {
		ent, err := d.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(ent); err != nil {
			return err
		}
	}
}

// Errors of DecodeDump, worded as Redis's RESTORE replies.
var (
	ErrDumpPayload = errors.New("ERR DUMP payload version or checksum are wrong")
	ErrDumpData    = errors.New("ERR Bad data format")
)

// OpenDump checks a DUMP payload and reads the head of its value: ent.Type, then
// ent.Value (a string, or a validated listpack or intset blob) or ent.Len elements
// that d.NextPair (a hash's pairs), d.NextMember (a set's members), d.NextNode (a
// list's nodes), d.NextListElem (a type-1 list's elements) or d.NextZSetMember (a
// sorted set's pairs) read. The
// payload's RDB version must be at most 11 and its CRC-64 must match (a zero CRC
// is not special here, as in Redis) else ErrDumpPayload; a type other than a
// string, hash, set, list or sorted set is an *UnsupportedTypeError; a malformed or empty value is
// ErrDumpData, from OpenDump or from the element reads. Bytes between the value
// and the footer are ignored, as Redis does; unlike Redis (which reads the value
// from the whole buffer), a value may not run into the footer, so a crafted
// payload Redis would accept that way is refused here. Entry's key, expire and
// access fields are not set. The decoder reuses its buffers (ReuseBuffers): each
// element is valid until the next one is read.
func OpenDump(payload []byte) (d *Decoder, ent Entry, err error) {
	n := len(payload)
	if n < 10 {
		return nil, Entry{}, ErrDumpPayload
	}
	if binary.LittleEndian.Uint16(payload[n-10:]) > Version {
		return nil, Entry{}, ErrDumpPayload
	}
	if CRC64(payload[:n-8]) != binary.LittleEndian.Uint64(payload[n-8:]) {
		return nil, Entry{}, ErrDumpPayload
	}
	body := payload[:n-10]
	if len(body) == 0 {
		return nil, Entry{}, ErrDumpData
	}
	switch t := body[0]; t {
	case TypeString, TypeSet, TypeHash, TypeHashZipmap, TypeSetIntset, TypeHashZiplist,
		TypeHashListpack, TypeSetListpack,
		TypeList, TypeListZiplist, TypeListQuicklist, TypeListQuicklist2,
		TypeZSet, TypeZSet2, TypeZSetZiplist, TypeZSetListpack:
	default:
		return nil, Entry{}, &UnsupportedTypeError{t}
	}
	// A buffer no larger than the payload, and elements read into reused buffers: RESTORE
	// copies each into the arena at once.
	d = &Decoder{r: bufio.NewReaderSize(bytes.NewReader(body[1:]), min(len(body), 64<<10)), aux: map[string]string{}}
	d.dump, d.ReuseBuffers = true, true
	ent = Entry{ExpireMs: -1, Idle: -1, Freq: -1}
	if err := d.readValue(body[0], &ent); err != nil {
		return nil, Entry{}, ErrDumpData
	}
	return d, ent, nil
}

// DecodeDump returns the string value of a DUMP payload (errors as OpenDump's; a
// hash, set, list or sorted set is an *UnsupportedTypeError here).
func DecodeDump(payload []byte) ([]byte, error) {
	_, ent, err := OpenDump(payload)
	if err != nil {
		return nil, err
	}
	if ent.Type != TypeString {
		return nil, &UnsupportedTypeError{ent.Type}
	}
	return ent.Value, nil
}
