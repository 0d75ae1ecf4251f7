package debugfamily

// LZF as Redis builds it (liblzf 3.6's lzf_c.c with HLOG 16 and VERY_FAST): literal runs of
// up to 32 bytes, back references of 3 to 264 bytes within 8 KiB.
const (
	lzfHashLog = 16
	lzfMaxLit  = 1 << 5
	lzfMaxOff  = 1 << 13
	lzfMaxRef  = 1<<8 + 1<<3
)

// lzfCompressedLen is the length lzf_compress produces for in with an output buffer of
// len(in)-4 bytes (rdbSaveLzfStringObject), or 0 when the output does not fit and Redis stores
// the string as it is. It follows lzf_compress step by step but only counts the output.
// Redis does not clear its hash table before use (INIT_HTAB 0): a slot left by an earlier call
// may in rare cases give Redis another match; here the table starts empty.
func lzfCompressedLen(in []byte) int {
	inEnd := len(in)
	if inEnd <= 4 {
		return 0
	}
	outEnd := inEnd - 4
	var htab [1 << lzfHashLog]int32 // 1 + the position last seen with a hash; 0 for none
	idx := func(h uint32) uint32 { return ((h >> (3*8 - lzfHashLog)) - h*5) & (1<<lzfHashLog - 1) }
	frst := func(p int) uint32 { return uint32(in[p])<<8 | uint32(in[p+1]) }
	next := func(v uint32, p int) uint32 { return v<<8 | uint32(in[p+2]) }

	ip, op, lit := 0, 1, 0 // op: output bytes so far, the open literal run's header included
	hval := frst(ip)
	for ip < inEnd-2 {
		hval = next(hval, ip)
		slot := &htab[idx(hval)]
		ref := int(*slot) - 1
		*slot = int32(ip + 1)
		if ref > 0 && ref < ip && ip-ref-1 < lzfMaxOff &&
			in[ref] == in[ip] && in[ref+1] == in[ip+1] && in[ref+2] == in[ip+2] {
			length := 2
			maxLen := min(inEnd-ip-length, lzfMaxRef)
			if lit == 0 {
				op-- // undo the empty run
			}
			if op+3+1 >= outEnd {
				return 0
			}
			length = lzfMatchLen(in, ref, ip, length, maxLen)
			length -= 2 // octets - 1
			ip++
			if length < 7 {
				op++
			} else {
				op += 2
			}
			op++    // the offset's low byte
			lit = 0 // start a run
			op++    // its header
			ip += length + 1
			if ip >= inEnd-2 {
				break
			}
			// VERY_FAST: hash the two positions before ip.
			ip -= 2
			hval = frst(ip)
			hval = next(hval, ip)
			htab[idx(hval)] = int32(ip + 1)
			ip++
			hval = next(hval, ip)
			htab[idx(hval)] = int32(ip + 1)
			ip++
			continue
		}
		if op >= outEnd {
			return 0
		}
		lit, op, ip = lit+1, op+1, ip+1
		if lit == lzfMaxLit {
			lit, op = 0, op+1
		}
	}
	if op+3 > outEnd {
		return 0
	}
	for ip < inEnd {
		lit, op, ip = lit+1, op+1, ip+1
		if lit == lzfMaxLit {
			lit, op = 0, op+1
		}
	}
	if lit == 0 {
		op--
	}
	return op
}

// lzfMatchLen extends a match of length bytes at ref and ip as lzf_compress does: when more
// than 16 bytes may match it first compares 16 more one by one, stopping at the first
// difference, then goes on while below maxLen. (That unrolled part may run up to two bytes
// past maxLen near the end of the input, and so does this.)
func lzfMatchLen(in []byte, ref, ip, length, maxLen int) int {
	if maxLen > 16 {
		for range 16 {
			length++
			if in[ref+length] != in[ip+length] {
				return length
			}
		}
	}
	for {
		length++
		if length >= maxLen || in[ref+length] != in[ip+length] {
			return length
		}
	}
}
