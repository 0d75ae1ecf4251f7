package rdb

// crc64Poly is the Jones polynomial 0xad93d23594c935a9 in its reflected
// (bit-reversed) form, as used by Redis's crc64.c.
const crc64Poly = 0x95ac9329ac4bc9b5

var crc64Table = func() (t [8][256]uint64) {
	for i := 0; i < 256; i++ {
		c := uint64(i)
		for k := 0; k < 8; k++ {
			if c&1 == 1 {
				c = c>>1 ^ crc64Poly
			} else {
				c >>= 1
			}
		}
		t[0][i] = c
	}
	// Slicing-by-8 tables: t[k][i] is the CRC of byte i followed by k zero bytes.
	for i := 0; i < 256; i++ {
		c := t[0][i]
		for k := 1; k < 8; k++ {
			c = t[0][c&0xff] ^ c>>8
			t[k][i] = c
		}
	}
	return t
}()

// CRC64Update extends crc with p. Redis's crc64 starts at 0, reflects input
// and output and applies no final inversion, so CRC64Update(0, data) equals
// Redis's crc64(0, data, len).
func CRC64Update(crc uint64, p []byte) uint64 {
	t := &crc64Table
	for len(p) >= 8 {
		crc ^= uint64(p[0]) | uint64(p[1])<<8 | uint64(p[2])<<16 | uint64(p[3])<<24 |
			uint64(p[4])<<32 | uint64(p[5])<<40 | uint64(p[6])<<48 | uint64(p[7])<<56
		crc = t[7][crc&0xff] ^ t[6][crc>>8&0xff] ^ t[5][crc>>16&0xff] ^ t[4][crc>>24&0xff] ^
			t[3][crc>>32&0xff] ^ t[2][crc>>40&0xff] ^ t[1][crc>>48&0xff] ^ t[0][crc>>56]
		p = p[8:]
	}
	for _, b := range p {
		crc = t[0][byte(crc)^b] ^ crc>>8
	}
	return crc
}

// CRC64 returns Redis's crc64 of p.
func CRC64(p []byte) uint64 { return CRC64Update(0, p) }

// Hash is a streaming CRC-64 (Redis variant); it implements io.Writer.
type Hash struct{ crc uint64 }

// Write adds p to the checksum; it never fails.
func (h *Hash) Write(p []byte) (int, error) {
	h.crc = CRC64Update(h.crc, p)
	return len(p), nil
}

// Sum64 returns the checksum of everything written so far.
func (h *Hash) Sum64() uint64 { return h.crc }

// Reset sets the checksum back to its initial value 0.
func (h *Hash) Reset() { h.crc = 0 }
