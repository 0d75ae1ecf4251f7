package acl

import (
	"crypto/rand"
	"encoding/hex"
)

// GenPass is ACL GENPASS: bits random bits (rounded up to a multiple of 4) from crypto/rand,
// as lower-case hex. The caller checks the range (1..4096) and defaults to 256.
func GenPass(bits int) string {
	chars := (bits + 3) / 4
	buf := make([]byte, (chars+1)/2)
	if _, err := rand.Read(buf); err != nil {
		panic("acl: crypto/rand: " + err.Error())
	}
	return hex.EncodeToString(buf)[:chars]
}
