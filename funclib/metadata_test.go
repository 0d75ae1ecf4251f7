package funclib

import (
	"strings"
	"testing"
)

func FuzzParseMetadata(f *testing.F) {
	for _, s := range []string{"#!lua name=x\nbody", "#!lua name=\"a b\"\n", "#!lua\n", "#!js name=x name=y\n", "x", "#!lua name=x\x00\n", "#!LUA NAME=_9\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, code []byte) {
		md, err := parseMetadata(code)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "ERR ") {
				t.Fatalf("error without its code: %q", err)
			}
			return
		}
		if !validName(md.name) || !strings.HasPrefix(string(code), "#!") {
			t.Fatalf("accepted %q: %+v", code, md)
		}
	})
}
