package listpack

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/internal/redisref"
)

// hset is Redis 7's HSET on a listpack-encoded hash: replace the value of a field found by
// lpFind with skip 1, else append field and value.
func hset(t *testing.T, a *alloc.Arena, l Listpack, f, v string) Listpack {
	t.Helper()
	var err error
	if p := First(l.Bytes(a)); p >= 0 {
		if p = Find(l.Bytes(a), p, []byte(f), 1); p >= 0 {
			l, _, err = l.Replace(a, Next(l.Bytes(a), p), []byte(v))
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
	}
	if l, err = l.Append(a, []byte(f)); err != nil {
		t.Fatal(err)
	}
	if l, err = l.Append(a, []byte(v)); err != nil {
		t.Fatal(err)
	}
	return l
}

// hdel is HDEL: delete the field and its value.
func hdel(t *testing.T, a *alloc.Arena, l Listpack, f string) Listpack {
	t.Helper()
	p := First(l.Bytes(a))
	if p >= 0 {
		p = Find(l.Bytes(a), p, []byte(f), 1)
	}
	if p < 0 {
		return l
	}
	l, _, err := l.DeleteEntries(a, p, 2)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// hashCases are command sequences run on redis-server and on our listpack alike.
func hashCases() map[string][]string {
	ints := []string{"0", "1", "127", "128", "-1", "4095", "-4096", "4096", "-4097", "32767",
		"-32768", "32768", "-32769", "8388607", "-8388608", "8388608", "-8388609", "2147483647",
		"-2147483648", "2147483648", "-2147483649", "9223372036854775807", "-9223372036854775808"}
	notInts := []string{"", "0123", "+1", " 1", "1 ", "-0", "-", "00", "9223372036854775808",
		"-9223372036854775809", "1.5", "0x10", "12345678901234567890123"}
	var c = map[string][]string{}
	var cmds []string
	for i, v := range ints {
		cmds = append(cmds, fmt.Sprintf("HSET h i%d %s", i, v))
	}
	c["integers"] = cmds
	cmds = nil
	for i, v := range notInts {
		cmds = append(cmds, fmt.Sprintf("HSET h s%d %q", i, v))
	}
	c["not integers"] = cmds
	var lens []string
	for _, n := range []int{1, 63, 64, 125, 126, 4095, 4096, 16377, 16378, 20000} {
		lens = append(lens, fmt.Sprintf("HSET h len%d %s", n, strings.Repeat("x", n)))
	}
	c["string lengths"] = lens
	c["integer fields"] = []string{"HSET h 1 a 2 b -300 c 70000 d"}
	c["overwrite and delete"] = []string{
		"HSET h a 1 b 2 c 3 d 4",
		"HSET h b " + strings.Repeat("y", 100),
		"HSET h a 100000",
		"HDEL h c",
		"HSET h e 5",
		"HDEL h a",
		"HSET h d ''",
	}
	var many []string
	for i := 0; i < 512; i++ { // hash-max-listpack-entries: the largest listpack hash by default
		many = append(many, fmt.Sprintf("HSET h field:%d %d", i, i*i-300))
	}
	c["512 fields"] = many
	return c
}

// splitCmd splits a command line on spaces, with Go-quoted words.
func splitCmd(t *testing.T, line string) []string {
	var out []string
	for len(line) > 0 {
		line = strings.TrimLeft(line, " ")
		if line == "" {
			break
		}
		if line[0] == '"' {
			i := 1
			for ; line[i] != '"'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
			var s string
			if _, err := fmt.Sscanf(line[:i+1], "%q", &s); err != nil {
				t.Fatal(err)
			}
			out, line = append(out, s), line[i+1:]
			continue
		}
		if strings.HasPrefix(line, "''") {
			out, line = append(out, ""), line[2:]
			continue
		}
		w, rest, _ := strings.Cut(line, " ")
		out, line = append(out, w), rest
	}
	return out
}

// TestRedisHashBytes runs each case on redis-server 7 and on a Listpack, and compares the DUMP
// blob with our bytes; then checks our reader reads Redis's blob.
func TestRedisHashBytes(t *testing.T) {
	rc := redisref.Start(t)
	if r := rc.Do("CONFIG", "SET", "hash-max-listpack-value", "100000", "hash-max-listpack-entries", "1000"); r != "OK" {
		t.Fatalf("CONFIG SET: %v", r)
	}
	for name, cmds := range hashCases() {
		t.Run(name, func(t *testing.T) {
			rc.Do("DEL", "h")
			a := newArena(t)
			l := New(a)
			want := map[string]string{}
			for _, line := range cmds {
				args := splitCmd(t, line)
				if r, ok := rc.Do(args...).(error); ok {
					t.Fatalf("%s: %v", line, r)
				}
				switch args[0] {
				case "HSET":
					for i := 2; i < len(args); i += 2 {
						l = hset(t, a, l, args[i], args[i+1])
						want[args[i]] = args[i+1]
					}
				case "HDEL":
					l = hdel(t, a, l, args[2])
					delete(want, args[2])
				}
			}
			if enc := rc.Do("OBJECT", "ENCODING", "h"); string(enc.([]byte)) != "listpack" {
				t.Fatalf("redis-server encoded the hash as %s", enc)
			}
			typ, blob := rc.DumpBlob("h")
			if typ != 16 {
				t.Fatalf("DUMP type %d, want 16 (hash listpack)", typ)
			}
			ours := l.Bytes(a)
			if !bytes.Equal(ours, blob) {
				t.Fatalf("bytes differ:\nours   % x\nredis's % x", trunc(ours), trunc(blob))
			}
			// Our reader on Redis's bytes.
			if err := Validate(blob, true, nil); err != nil {
				t.Fatalf("Validate(redis's blob): %v", err)
			}
			got := map[string]string{}
			for p := First(blob); p >= 0; p = Next(blob, p) {
				v := Next(blob, p)
				got[string(AppendValue(nil, blob, p))] = string(AppendValue(nil, blob, v))
				p = v
			}
			if fmt.Sprint(got) != fmt.Sprint(want) || Len(blob) != 2*len(want) {
				t.Fatalf("read %v (len %d), want %v", got, Len(blob), want)
			}
			// Redis's blob loaded as it is (RESTORE's path) and written on both sides stays equal.
			theirs := FromBytes(a, blob)
			theirs = hset(t, a, theirs, "added", "-1234567")
			theirs = hdel(t, a, theirs, "i0")
			rc.Do("HSET", "h", "added", "-1234567")
			rc.Do("HDEL", "h", "i0")
			if _, blob2 := rc.DumpBlob("h"); !bytes.Equal(theirs.Bytes(a), blob2) {
				t.Fatalf("after writes on a loaded blob:\nours    % x\nredis's % x", trunc(theirs.Bytes(a)), trunc(blob2))
			}
			theirs.Free(a)
			l.Free(a)
			if a.Used() != 0 {
				t.Fatalf("arena still charged %d after Free", a.Used())
			}
		})
	}
}

func trunc(b []byte) []byte {
	if len(b) > 200 {
		return b[:200]
	}
	return b
}
