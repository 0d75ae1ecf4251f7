// Package lzf decompresses liblzf's format (Redis's RDB strings): the decoder that package rdb
// and the test helpers that cannot import rdb (internal/redisref) share.
//
// Stream format: ctrl < 32 is a literal run of ctrl+1 bytes; ctrl >= 32 a back reference of
// length ctrl>>5 (7: plus the next byte) + 2, at offset ((ctrl&0x1f)<<8 | next byte) + 1
// bytes back from the output's end (the source may overlap the destination).
package lzf

// Decompress appends to out (empty) the decompression of in, which must expand to exactly
// outLen bytes; ok is false for a malformed stream. Every read and write is bounds-checked.
func Decompress(out, in []byte, outLen int) ([]byte, bool) {
	ip := 0
	for ip < len(in) {
		ctrl := int(in[ip])
		ip++
		if ctrl < 32 { // a literal run
			run := ctrl + 1
			if ip+run > len(in) || len(out)+run > outLen {
				return nil, false
			}
			out = append(out, in[ip:ip+run]...)
			ip += run
			continue
		}
		l := ctrl >> 5
		if l == 7 {
			if ip >= len(in) {
				return nil, false
			}
			l += int(in[ip])
			ip++
		}
		if ip >= len(in) {
			return nil, false
		}
		ref := len(out) - (ctrl&0x1f)<<8 - int(in[ip]) - 1
		ip++
		l += 2
		if ref < 0 || len(out)+l > outLen {
			return nil, false
		}
		if ref+l <= len(out) {
			out = append(out, out[ref:ref+l]...)
		} else {
			for k := 0; k < l; k++ { // byte by byte: the source overlaps what is written
				out = append(out, out[ref+k])
			}
		}
	}
	if len(out) != outLen {
		return nil, false
	}
	return out, true
}
