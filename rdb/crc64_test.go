package rdb

import (
	"math/rand"
	"testing"
)

func crc64Bitwise(p []byte) uint64 {
	var crc uint64
	for _, b := range p {
		crc ^= uint64(b)
		for k := 0; k < 8; k++ {
			if crc&1 == 1 {
				crc = crc>>1 ^ crc64Poly
			} else {
				crc >>= 1
			}
		}
	}
	return crc
}

func TestCRC64Check(t *testing.T) {
	if got := CRC64([]byte("123456789")); got != 0xe9c6d914c4b8d9ca {
		t.Fatalf("crc64(123456789) = %#x", got)
	}
	// Redis's crc64 self-test vector.
	li := []byte("This is a test of the emergency broadcast system.")
	if got := CRC64(li); got != crc64Bitwise(li) {
		t.Fatalf("table/bitwise mismatch")
	}
}

func TestCRC64Streaming(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	buf := make([]byte, 1000)
	r.Read(buf)
	want := crc64Bitwise(buf)
	for split := 0; split <= len(buf); split += 37 {
		var h Hash
		h.Write(buf[:split])
		h.Write(buf[split:])
		if h.Sum64() != want {
			t.Fatalf("split %d: %#x != %#x", split, h.Sum64(), want)
		}
	}
}
