package tests

import (
	"math/rand"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestZsetDifferential runs one random sequence of sorted-set commands against kvserver and a
// reference redis-server side by side and requires the same reply to every command: adds with
// every option, increments, removals, ranges of every kind, pops, the algebra and its STORE
// forms, over a few keys that cross the encoding limits both ways (lowered to 8 entries and 16
// bytes on both servers), a set and a string among the inputs. Every 100 commands the whole
// contents of each key are compared too. Scores include decimals that binary cannot hold
// (0.1, -2.7), so that sums and weights must be computed in Redis's order; lex ranges run on a key whose
// members all score 0 (on other keys their result depends on the encoding, in Redis too).
// Scores are compared as numbers where the two versions print them differently (normScores).
// ZRANDMEMBER and ZSCAN run only where their whole reply is determined but for its order
// (all the members), compared sorted. The sequence comes
// from a fixed seed (env KVSERVER_ZDIFF_SEED picks another, KVSERVER_ZDIFF_OPS the length,
// KVSERVER_ZDIFF_EVERY=1 compares the contents after every command, to find where a
// difference starts); it
// runs once over RESP2 connections and once over RESP3 ones (scores as doubles, pairs).
func TestZsetDifferential(t *testing.T) {
	requireKvserver(t, "compares kvserver with redis-server")
	t.Parallel()
	s := zsetServer(t)
	ref := startReferenceRedis(t)
	if ref == nil {
		t.Skip("no redis-server on the PATH")
	}
	for _, proto := range []string{"2", "3"} {
		t.Run("RESP"+proto, func(t *testing.T) { zsetDifferential(t, s, ref, proto) })
	}
}

// fracScore matches a reply's bulk or double that reads as a non-integral number: 7.0.15 prints
// it with 17 significant digits, 7.2 (and kvserver) in the shortest form that reads back the
// same; normScores reprints both in Go's shortest form. No member of the test contains '.' or
// 'e' while reading as a number, so only scores are touched.
var fracScore = regexp.MustCompile(`"-?[0-9]*\.?[0-9]+(e[-+]?[0-9]+)?"|\(double\) [-0-9.e+]+\n`)

// sortedLines is a formatted reply's lines without their "N) " prefixes, sorted.
func sortedLines(reply string) string {
	lines := strings.Split(strings.TrimSuffix(reply, "\n"), "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		for {
			_, rest, ok := strings.Cut(l, ") ")
			if !ok || strings.HasPrefix(l, "\"") || strings.HasPrefix(l, "(") {
				break
			}
			l = strings.TrimSpace(rest)
		}
		lines[i] = l
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

func normScores(reply string) string {
	reply = fracScore.ReplaceAllStringFunc(reply, func(tok string) string {
		text := strings.Trim(strings.TrimPrefix(tok, "(double) "), "\"\n")
		if !strings.ContainsAny(text, ".e") {
			return tok
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return tok
		}
		return strings.Replace(tok, text, strconv.FormatFloat(f, 'g', -1, 64), 1)
	})
	return reply
}

func zsetDifferential(t *testing.T, s, ref *server, proto string) {
	seed, ops := int64(22), 4000
	if v := os.Getenv("KVSERVER_ZDIFF_SEED"); v != "" {
		seed, _ = strconv.ParseInt(v, 10, 64)
	}
	if v := os.Getenv("KVSERVER_ZDIFF_OPS"); v != "" {
		ops, _ = strconv.Atoi(v)
	}
	every := os.Getenv("KVSERVER_ZDIFF_EVERY") != "" // compare the contents after every command
	kc, rc := s.RawConn(t), ref.RawConn(t)
	for _, c := range []*rawConn{kc, rc} {
		c.Do("HELLO", proto)
		c.Do("FLUSHALL")
	}
	var history []string
	// sorted: replies whose order is unspecified (ZSCAN of a skiplist, ZRANDMEMBER) are compared
	// as sorted lists of their lines, numbers already normalised (sortedLines).
	sorted := false
	same := func(args ...string) string {
		t.Helper()
		got, want := normScores(formatReply(kc.Do(args...), false)), normScores(formatReply(rc.Do(args...), false))
		if sorted {
			got, want = sortedLines(got), sortedLines(want)
		}
		history = append(history, strings.Join(args, " "))
		if got != want {
			if f := os.Getenv("KVSERVER_ZDIFF_HISTORY"); f != "" {
				_ = os.WriteFile(f, []byte(strings.Join(history, "\n")+"\n"), 0o644)
			}
			from := max(0, len(history)-30)
			t.Fatalf("seed %d, command %d: %s\nkvserver:\n%s\nredis-server:\n%s\nthe commands before it:\n%s",
				seed, len(history), strings.Join(args, " "), got, want, strings.Join(history[from:len(history)-1], "\n"))
		}
		return got
	}
	for _, kv := range [][2]string{{"zset-max-listpack-entries", "8"}, {"zset-max-listpack-value", "16"}} {
		same("CONFIG", "SET", kv[0], kv[1])
	}
	same("SADD", "zd:set", "m1", "m3", "m9", "10", "x")
	same("SET", "zd:str", "v")

	rnd := rand.New(rand.NewSource(seed))
	pick := func(list ...string) string { return list[rnd.Intn(len(list))] }
	keys := []string{"zd:a", "zd:b", "zd:c"}
	members := []string{"", "10", "-3", "007", "x", "longmember-0123456789"}
	for i := 0; i < 14; i++ {
		members = append(members, "m"+strconv.Itoa(i))
	}
	scores := []string{"-inf", "inf", "-3", "-1.5", "0", "0.5", "1", "2", "2.5", "7", "100", "1e3", "0.1", "0.2", "-2.7", "3.3", "1e-5", "123456.789"}
	key := func() string {
		if rnd.Intn(20) == 0 {
			return pick("zd:set", "zd:str", "zd:none")
		}
		return keys[rnd.Intn(len(keys))]
	}
	zkey := func() string { return keys[rnd.Intn(len(keys))] }
	member := func() string { return members[rnd.Intn(len(members))] }
	index := func() string { return strconv.Itoa(rnd.Intn(25) - 12) }
	bound := func() string {
		b := pick(scores...)
		if rnd.Intn(3) == 0 && !strings.HasSuffix(b, "inf") {
			b = "(" + b
		}
		return b
	}
	lexBound := func() string {
		switch rnd.Intn(6) {
		case 0:
			return "-"
		case 1:
			return "+"
		case 2:
			return "(" + member()
		default:
			return "[" + member()
		}
	}
	limit := func(args []string) []string {
		if rnd.Intn(3) == 0 {
			args = append(args, "LIMIT", strconv.Itoa(rnd.Intn(6)-1), strconv.Itoa(rnd.Intn(8)-2))
		}
		return args
	}
	inputs := func() []string {
		n := 1 + rnd.Intn(3)
		out := []string{strconv.Itoa(n)}
		for i := 0; i < n; i++ {
			if rnd.Intn(6) == 0 {
				out = append(out, pick("zd:set", "zd:none", "zd:lex"))
			} else {
				out = append(out, zkey())
			}
		}
		if rnd.Intn(3) == 0 {
			out = append(out, "WEIGHTS")
			for i := 0; i < n; i++ {
				out = append(out, pick("1", "2", "0.5", "-1", "0", "0.3", "1.1"))
			}
		}
		if rnd.Intn(3) == 0 {
			out = append(out, "AGGREGATE", pick("SUM", "MIN", "MAX"))
		}
		return out
	}

	for op := 0; op < ops; op++ {
		if rnd.Intn(25) == 0 {
			// Every member at once, so that only the order may differ: ZSCAN with a COUNT
			// above any set's size (one call, cursor 0), ZRANDMEMBER with a count at least
			// its size (each member once).
			sorted = true
			if rnd.Intn(2) == 0 {
				same("ZSCAN", key(), "0", "COUNT", "1000")
			} else {
				same("ZRANDMEMBER", key(), pick("40", "100"), "WITHSCORES")
			}
			sorted = false
			continue
		}
		var args []string
		switch r := rnd.Intn(100); {
		case r < 22:
			args = []string{"ZADD", key()}
			for _, opt := range []string{"NX", "XX", "GT", "LT", "CH"} {
				if rnd.Intn(6) == 0 {
					args = append(args, opt)
				}
			}
			n := 1 + rnd.Intn(4)
			if rnd.Intn(8) == 0 {
				args, n = append(args, "INCR"), 1
			}
			for i := 0; i < n; i++ {
				args = append(args, pick(scores...), member())
			}
		case r < 27:
			args = []string{"ZINCRBY", key(), pick("1", "-0.5", "2", "inf", "-inf", "-7", "0.1", "-0.3"), member()}
		case r < 33:
			args = []string{"ZREM", key(), member()}
			if rnd.Intn(2) == 0 {
				args = append(args, member(), member())
			}
		case r < 36:
			args = []string{pick("ZCARD", "TYPE", "EXISTS"), key()}
		case r < 40:
			args = []string{"ZSCORE", key(), member()}
			if rnd.Intn(2) == 0 {
				args = []string{"ZMSCORE", key(), member(), member()}
			}
		case r < 44:
			args = []string{pick("ZRANK", "ZREVRANK"), key(), member()}
		case r < 47:
			args = []string{"ZCOUNT", key(), bound(), bound()}
		case r < 53:
			args = []string{"ZRANGE", key(), index(), index()}
			if rnd.Intn(2) == 0 {
				args = append(args, "REV")
			}
			if rnd.Intn(2) == 0 {
				args = append(args, "WITHSCORES")
			}
		case r < 58:
			args = []string{"ZRANGE", key(), bound(), bound(), "BYSCORE"}
			if rnd.Intn(2) == 0 {
				args = append(args, "REV")
			}
			if rnd.Intn(2) == 0 {
				args = append(args, "WITHSCORES")
			}
			args = limit(args)
		case r < 61:
			args = limit([]string{pick("ZRANGEBYSCORE", "ZREVRANGEBYSCORE"), key(), bound(), bound(), "WITHSCORES"})
		case r < 64:
			args = []string{"ZADD", "zd:lex", "0", member(), "0", member()}
		case r < 69:
			args = limit([]string{pick("ZRANGEBYLEX", "ZREVRANGEBYLEX"), "zd:lex", lexBound(), lexBound()})
			if rnd.Intn(3) == 0 {
				args = limit([]string{"ZRANGE", "zd:lex", lexBound(), lexBound(), "BYLEX", "REV"})
			}
		case r < 71:
			args = []string{pick("ZLEXCOUNT", "ZREMRANGEBYLEX"), "zd:lex", lexBound(), lexBound()}
		case r < 74:
			args = []string{"ZRANGESTORE", zkey(), key(), index(), index()}
			if rnd.Intn(2) == 0 {
				args = limit([]string{"ZRANGESTORE", zkey(), key(), bound(), bound(), "BYSCORE"})
			}
		case r < 77:
			args = []string{"ZREMRANGEBYRANK", key(), index(), index()}
			if rnd.Intn(2) == 0 {
				args = []string{"ZREMRANGEBYSCORE", key(), bound(), bound()}
			}
		case r < 82:
			args = []string{pick("ZPOPMIN", "ZPOPMAX"), key()}
			if rnd.Intn(2) == 0 {
				args = append(args, strconv.Itoa(rnd.Intn(5)))
			}
		case r < 85:
			args = []string{"ZMPOP", "2", key(), key(), pick("MIN", "MAX")}
			if rnd.Intn(2) == 0 {
				args = append(args, "COUNT", strconv.Itoa(1+rnd.Intn(4)))
			}
		case r < 91:
			args = append([]string{pick("ZUNION", "ZINTER", "ZDIFF")}, inputs()...)
			if args[0] == "ZDIFF" {
				n, _ := strconv.Atoi(args[1]) // ZDIFF takes no WEIGHTS nor AGGREGATE

				args = args[:2+n]
			}
			args = append(args, "WITHSCORES")
		case r < 96:
			args = append([]string{pick("ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE"), zkey()}, inputs()...)
			if args[0] == "ZDIFFSTORE" {
				n, _ := strconv.Atoi(args[2])
				args = args[:3+n]
			}
		case r < 98:
			in := inputs()
			n, _ := strconv.Atoi(in[0])
			args = append([]string{"ZINTERCARD"}, in[:1+n]...)
			if rnd.Intn(2) == 0 {
				args = append(args, "LIMIT", strconv.Itoa(rnd.Intn(4)))
			}
		default:
			args = []string{"DEL", zkey()}
		}
		same(args...)
		if op%100 == 99 || every {
			for _, k := range append(keys, "zd:lex") {
				same("ZRANGE", k, "0", "-1", "WITHSCORES")
			}
		}
	}
	for _, k := range append(keys, "zd:lex") {
		same("ZRANGE", k, "0", "-1", "WITHSCORES")
	}
	t.Logf("seed %d: %d commands, the same replies", seed, len(history))
}
