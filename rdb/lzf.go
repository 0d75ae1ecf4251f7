package rdb

import "errors"

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
	n := len(in)
	if n == 0 || maxOut <= 0 {
		return nil
	}
	var table [1 << lzfHashLog]int32 // position+1 of the last occurrence; 0 = none
	out := make([]byte, 0, min(maxOut, n+n/32+2))
	litStart := 0 // start of the pending literal run in in
	flushLit := func(end int) bool {
		for litStart < end {
			run := min(end-litStart, lzfMaxLit)
			if len(out)+1+run > maxOut {
				return false
			}
			out = append(out, byte(run-1))
			out = append(out, in[litStart:litStart+run]...)
			litStart += run
		}
		return true
	}
	hash := func(p int) uint32 {
		v := uint32(in[p])<<16 | uint32(in[p+1])<<8 | uint32(in[p+2])
		return (v * 2654435761) >> (32 - lzfHashLog)
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
				return nil
			}
			off := ip - ref - 1
			code := l - 2
			if code < 7 {
				if len(out)+2 > maxOut {
					return nil
				}
				out = append(out, byte(code<<5|off>>8), byte(off))
			} else {
				if len(out)+3 > maxOut {
					return nil
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
		return nil
	}
	return out
}

// LZFDecompress decompresses in, which must expand to exactly outLen bytes.
// Every read and write is bounds-checked: malformed input yields
// ErrLZFCorrupt, never a panic.
func LZFDecompress(in []byte, outLen int) ([]byte, error) {
	if outLen < 0 || outLen/lzfMaxExpand > len(in) {
		return nil, ErrLZFCorrupt
	}
	out := make([]byte, 0, outLen)
	ip := 0
	for ip < len(in) {
		ctrl := int(in[ip])
		ip++
		if ctrl < lzfMaxLit {
			run := ctrl + 1
			if ip+run > len(in) || len(out)+run > outLen {
				return nil, ErrLZFCorrupt
			}
			out = append(out, in[ip:ip+run]...)
			ip += run
			continue
		}
		l := ctrl >> 5
		if l == 7 {
			if ip >= len(in) {
				return nil, ErrLZFCorrupt
			}
			l += int(in[ip])
			ip++
		}
		if ip >= len(in) {
			return nil, ErrLZFCorrupt
		}
		ref := len(out) - (ctrl&0x1f)<<8 - int(in[ip]) - 1
		ip++
		l += 2
		if ref < 0 || len(out)+l > outLen {
			return nil, ErrLZFCorrupt
		}
		for k := 0; k < l; k++ { // byte by byte: the source may overlap
			out = append(out, out[ref+k])
		}
	}
	if len(out) != outLen {
		return nil, ErrLZFCorrupt
	}
	return out, nil
}
