package querybuf

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/redcon"
)

// FuzzParse feeds arbitrary bytes, cut into pieces chosen by split, and checks that the Parser
// never panics, agrees with the literal port of Redis's code (redisModel) on every command and
// error, and stays within its memory bounds (checkModel). It then builds valid multibulk
// requests out of the same bytes and checks that the Parser, redcon's ReadNextCommand and the
// generator agree on every argument. The seed corpus is in testdata/fuzz/FuzzParse.
//
// Inputs above 16 KiB are skipped: the engine spends a minute minimizing every new input and
// one past the 64 KiB limits cannot shrink, so they would take most of the fuzzing time. The
// 64 KiB rules are compared with the model by TestParseCases and TestModelRandom instead.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, split uint64) {
		if len(data) > 16<<10 {
			return
		}
		checkModel(t, data, split)
		checkValidMultibulk(t, data, split)
	})
}

// validMultibulk turns fuzz bytes into well-formed commands: each starts with a byte giving
// its argument count, then per argument a byte giving its length (a few are long enough to be
// big with a lowered threshold); the contents are the following bytes, any value at all.
func validMultibulk(data []byte) ([]byte, cmds) {
	var wire []byte
	var want cmds
	i := 0
	next := func() byte {
		if i >= len(data) {
			return 0
		}
		i++
		return data[i-1]
	}
	for i < len(data) && len(want) < 64 {
		args := make([]string, 1+int(next())%6)
		for j := range args {
			n := int(next()) % 64
			if n == 63 {
				n = 200 + int(next())
			}
			b := make([]byte, n)
			for k := range b {
				b[k] = byte(k) ^ next()
			}
			args[j] = string(b)
		}
		wire = appendCommand(wire, args...)
		want = append(want, args)
	}
	return wire, want
}

func checkValidMultibulk(t *testing.T, data []byte, split uint64) {
	wire, want := validMultibulk(data)
	if len(want) == 0 {
		return
	}
	var ref cmds
	for rest := wire; len(rest) > 0; {
		complete, args, _, left, err := redcon.ReadNextCommand(rest, nil)
		if err != nil || !complete {
			t.Fatalf("redcon: complete %v, %v on %q", complete, err, trunc(rest))
		}
		cmd := make([]string, len(args))
		for k, a := range args {
			cmd[k] = string(a)
		}
		ref = append(ref, cmd)
		rest = left
	}
	if !slices.EqualFunc(ref, want, slices.Equal) {
		t.Fatalf("redcon %q, generated %q", ref, want)
	}
	rng := rand.New(rand.NewPCG(split, 2))
	p := NewParser(DefaultLimits())
	p.bigThreshold = 1 + rng.IntN(300)
	c := newConn(p, rng, rng.IntN(2) == 0)
	for _, piece := range pieces(wire, rng) {
		if err := c.feed(t, piece); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.EqualFunc(c.cmds, ref, slices.Equal) || len(c.tail) != 0 {
		t.Fatalf("parser %q, redcon %q", c.cmds, ref)
	}
}

// fragments are what randomRequest strings together: pieces of valid requests and the bytes
// the rules turn on.
var fragments = []string{
	"*", "$", "*1\r\n", "*2\r\n", "*3\r\n", "*0\r\n", "*-1\r\n", "$0\r\n\r\n", "$1\r\na\r\n",
	"$3\r\nSET\r\n", "$3\r\nfoo\r\n", "$20\r\n", "$40\r\n", "\r\n", "\r", "\n", " ", "\t",
	"\v", "\"", "'", "\\", "\\x4", "\\x41", "\\'", "\\\"", "x", "PING", "GET", "0", "1", "9",
	"-", "\x00", "\xff", "12", "2147483648", "99999999999999999999",
}

// randomRequest generates a request stream from seed: valid commands of both kinds mixed with
// fragments, and now and then a line past the 64 KiB limit.
func randomRequest(seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 3))
	var b []byte
	for range rng.IntN(40) {
		switch rng.IntN(12) {
		case 0, 1:
			args := make([]string, 1+rng.IntN(4))
			for i := range args {
				args[i] = strings.Repeat(string(rune('a'+rng.IntN(26))), rng.IntN(50))
			}
			b = appendCommand(b, args...)
		case 2:
			b = append(b, "SET k \"v\\x41\" 'w'\r\n"...)
		case 3:
			if rng.IntN(20) == 0 {
				b = append(b, strings.Repeat(fragments[rng.IntN(len(fragments))], InlineMaxSize-2+rng.IntN(4))...)
			}
		default:
			b = append(b, fragments[rng.IntN(len(fragments))]...)
		}
	}
	return b
}
