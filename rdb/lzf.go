package rdb

import (
	"errors"
	"math/bits"
	"slices"
	"sync"

	"github.com/kvserver/kvserver/internal/lzf"
)

// LZF stream format (liblzf, as used by Redis):
//
//	ctrl < 32:  a literal run of ctrl+1 bytes follows.
//	ctrl >= 32: a back reference. len = ctrl>>5; if len == 7 a further byte
//	            is added to it. The offset is ((ctrl&0x1f)<<8 | next byte) + 1
//	            bytes back from the current output position, and len+2 bytes
//	            are copied (the source may overlap the destination).
const (
	lzfHashLog   = 14
	lzfMaxLit    = 1 << 5
	lzfMaxOff    = 1 << 13
	lzfMaxRef    = (1 << 8) + (1 << 3) // longest match: 7+255+2 = 264 bytes
	lzfMaxExpand = 88                  // a 3-byte back reference yields at most 264 bytes
)

// ErrLZFCorrupt reports an LZF stream that is malformed or does not
// decompress to exactly the expected length.
var ErrLZFCorrupt = errors.New("rdb: corrupt LZF data")

// LZFCompress compresses in. It returns nil when the result would be longer
// than maxOut bytes (like liblzf returning 0), or when in is empty.
func LZFCompress(in []byte, maxOut int) []byte {
	st := lzfStates.Get().(*lzfState)
	defer lzfStates.Put(st)
	out, ok := st.compress(nil, in, maxOut)
	if !ok {
		return nil
	}
	return out
}

// lzfState is a compressor's hash table, reused through lzfStates: a table of 64 KiB cleared
// for every 85-byte value cost more than compressing it.
type lzfState struct {
	table [1 << lzfHashLog]int32 // position+1 of the last occurrence; 0 = none
	out   []byte                 // appendLZF's scratch
}

var lzfStates = sync.Pool{New: func() any { return new(lzfState) }}

// compress appends in's LZF form to dst and reports whether it took at most maxOut bytes
// (dst is returned unchanged otherwise). The hash table used is the smallest power of two at
// least as large as the input, up to 2^lzfHashLog, so that only that part is cleared.
func (st *lzfState) compress(dst, in []byte, maxOut int) ([]byte, bool) {
	n := len(in)
	if n == 0 || maxOut <= 0 {
		return dst, false
	}
	hlog := min(max(bits.Len(uint(n)), 8), lzfHashLog)
	table := st.table[:1<<hlog]
	clear(table)
	base := len(dst)
	out := dst
	litStart := 0 // start of the pending literal run in in
	flushLit := func(end int) bool {
		for litStart < end {
			run := min(end-litStart, lzfMaxLit)
			if len(out)-base+1+run > maxOut {
				return false
			}
			out = append(out, byte(run-1))
			out = append(out, in[litStart:litStart+run]...)
			litStart += run
		}
		return true
	}
	shift := 32 - hlog
	hash := func(p int) uint32 {
		v := uint32(in[p])<<16 | uint32(in[p+1])<<8 | uint32(in[p+2])
		return (v * 2654435761) >> shift
	}
	ip := 0
	for ip+2 < n {
		h := hash(ip)
		ref := int(table[h]) - 1
		table[h] = int32(ip + 1)
		if ref >= 0 && ip-ref-1 < lzfMaxOff &&
			in[ref] == in[ip] && in[ref+1] == in[ip+1] && in[ref+2] == in[ip+2] {
			maxLen := min(lzfMaxRef, n-ip)
			l := 3
			for l < maxLen && in[ref+l] == in[ip+l] {
				l++
			}
			if !flushLit(ip) {
				return dst, false
			}
			off := ip - ref - 1
			code := l - 2
			if code < 7 {
				if len(out)-base+2 > maxOut {
					return dst, false
				}
				out = append(out, byte(code<<5|off>>8), byte(off))
			} else {
				if len(out)-base+3 > maxOut {
					return dst, false
				}
				out = append(out, byte(7<<5|off>>8), byte(code-7), byte(off))
			}
			// Index the positions inside the match so later data can refer to them.
			end := ip + l
			for p := ip + 1; p < end && p+2 < n; p++ {
				table[hash(p)] = int32(p + 1)
			}
			ip = end
			litStart = ip
			continue
		}
		ip++
	}
	if !flushLit(n) {
		return dst, false
	}
	return out, true
}

// appendLZF appends s as RDB's LZF string (the marker, the compressed and the original
// lengths, the data) when it compresses to at most maxOut bytes, and reports whether it did.
func appendLZF(b, s []byte, maxOut int) ([]byte, bool) {
	st := lzfStates.Get().(*lzfState)
	defer lzfStates.Put(st)
	c, ok := st.compress(st.out[:0], s, maxOut)
	st.out = c[:0]
	if !ok {
		return b, false
	}
	b = append(b, lenEnc<<6|encLZF)
	b = appendLen(b, uint64(len(c)))
	b = appendLen(b, uint64(len(s)))
	return append(b, c...), true
}

// LZFDecompress decompresses in, which must expand to exactly outLen bytes.
// Every read and write is bounds-checked: malformed input yields
// ErrLZFCorrupt, never a panic.
func LZFDecompress(in []byte, outLen int) ([]byte, error) {
	if outLen < 0 || outLen/lzfMaxExpand > len(in) {
		return nil, ErrLZFCorrupt
	}
	return decompress(make([]byte, 0, outLen), in, outLen)
}

// LZFDecompressAppend is LZFDecompress into dst's spare capacity (grown if short): a loader
// reuses one buffer for every value.
func LZFDecompressAppend(dst, in []byte, outLen int) ([]byte, error) {
	if outLen < 0 || outLen/lzfMaxExpand > len(in) {
		return nil, ErrLZFCorrupt
	}
	out, err := decompress(slices.Grow(dst[:0], outLen), in, outLen)
	return out, err
}

// decompress appends the decompressed bytes to out, which is empty (package lzf, which the
// test helpers that cannot import rdb share).
func decompress(out, in []byte, outLen int) ([]byte, error) {
	out, ok := lzf.Decompress(out, in, outLen)
	if !ok {
		return nil, ErrLZFCorrupt
	}
	return out, nil
}
