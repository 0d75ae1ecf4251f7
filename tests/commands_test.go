package tests

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The data-driven command tests: testdata/commands/<family>.txt, a sequence of blocks
//
//	# a comment, kept by -rewrite
//	run [resp3] [types] [kvserver-only | redis-only]
//	SET k v EX 10
//	TTL k
//	----
//	OK
//	(integer) 10
//
// Each command line is split as redis-cli splits it and sent over a fresh connection (RESP2;
// with resp3, after a HELLO 3 whose reply is not printed); the replies, formatted as
// redis-cli prints them to a terminal, must equal the lines after `----`, which end at a
// blank line. `types` prints scalars by type only (see formatReply). A kvserver-only block
// is skipped against redis-server, a redis-only block against kvserver. Each file gets its
// own server and starts with FLUSHALL; blocks of a file share the keyspace.
//
// `go test ./tests -run TestCommands -rewrite` rewrites the expectations from the server's
// replies (with KVSERVER_TARGET=redis, from Redis's), leaving the blocks it skips as they are.
var rewrite = flag.Bool("rewrite", false, "rewrite testdata/commands expectations from the server's replies")

// cmdBlock is one `run` block of a command file.
type cmdBlock struct {
	line     int      // line number of the directive, 1-based
	args     []string // directive arguments
	cmds     []string
	expected string // with a trailing newline when not empty
}

// cmdFile is a parsed command file: text outside blocks (comments, blank lines) is kept
// in order in parts, with nil marking where each block goes.
type cmdFile struct {
	parts  []*string
	blocks []*cmdBlock
}

func parseCmdFile(data string) (*cmdFile, error) {
	f := &cmdFile{}
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		fields := strings.Fields(lines[i])
		if len(fields) == 0 || fields[0] != "run" {
			if len(fields) > 0 && !strings.HasPrefix(fields[0], "#") {
				return nil, fmt.Errorf("line %d: want `run`, a comment or a blank line, got %q", i+1, lines[i])
			}
			f.parts = append(f.parts, &lines[i])
			continue
		}
		b := &cmdBlock{line: i + 1, args: fields[1:]}
		for _, a := range b.args {
			switch a {
			case "resp3", "types", "kvserver-only", "redis-only":
			default:
				return nil, fmt.Errorf("line %d: unknown directive argument %q", i+1, a)
			}
		}
		for i++; i < len(lines) && lines[i] != "----"; i++ {
			b.cmds = append(b.cmds, lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Errorf("line %d: block without ----", b.line)
		}
		for i++; i < len(lines) && lines[i] != ""; i++ {
			b.expected += lines[i] + "\n"
		}
		if i < len(lines) {
			i-- // the blank line is kept as text
		}
		f.blocks = append(f.blocks, b)
		f.parts = append(f.parts, nil)
	}
	return f, nil
}

// String reassembles the file, with each block's expectation as it is now.
func (f *cmdFile) String() string {
	var b strings.Builder
	next := 0
	for _, p := range f.parts {
		if p != nil {
			b.WriteString(*p + "\n")
			continue
		}
		blk := f.blocks[next]
		next++
		b.WriteString(strings.Join(append([]string{"run"}, blk.args...), " ") + "\n")
		for _, c := range blk.cmds {
			b.WriteString(c + "\n")
		}
		b.WriteString("----\n" + blk.expected)
	}
	return b.String()
}

func (b *cmdBlock) has(arg string) bool {
	for _, a := range b.args {
		if a == arg {
			return true
		}
	}
	return false
}

// skipped says why the block does not run against the current target, or "".
func (b *cmdBlock) skipped() string {
	switch {
	case targetRedis && b.has("kvserver-only"):
		return "kvserver-only"
	case !targetRedis && b.has("redis-only"):
		return "redis-only"
	}
	return ""
}

func cmdFiles(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "commands", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no command files in testdata/commands: %v", err)
	}
	return files
}

func TestCommands(t *testing.T) {
	for _, path := range cmdFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parseCmdFile(string(data))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			srv := startServer(t)
			if r := srv.RawConn(t).Do("FLUSHALL"); r.Kind != '+' {
				t.Fatalf("FLUSHALL: %s", formatReply(r, false))
			}
			for _, b := range f.blocks {
				if b.skipped() != "" {
					continue
				}
				got := runBlock(t, srv, b)
				if *rewrite {
					b.expected = got
				} else if got != b.expected {
					t.Errorf("%s:%d: %s\n%s\ngot:\n%s\nwant:\n%s", path, b.line, strings.Join(b.cmds, " | "), firstDiff(got, b.expected), got, b.expected)
				}
			}
			if *rewrite {
				if out := f.String(); !bytes.Equal([]byte(out), data) {
					if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
						t.Fatal(err)
					}
					t.Logf("rewrote %s", path)
				}
			}
		})
	}
}

// runBlock sends a block's commands over a fresh connection and returns the formatted replies.
func runBlock(t *testing.T, srv *server, b *cmdBlock) string {
	t.Helper()
	c := srv.RawConn(t)
	defer c.Close()
	if b.has("resp3") {
		if r := c.Do("HELLO", "3"); r.Kind != '%' {
			t.Fatalf("%d: HELLO 3: %s", b.line, formatReply(r, false))
		}
	}
	var out strings.Builder
	for _, line := range b.cmds {
		args, err := splitArgs(line)
		if err != nil || len(args) == 0 {
			t.Fatalf("line %d: cannot split %q: %v", b.line, line, err)
		}
		c.Send(encodeCommand(args...))
		r, err := c.TryReadReply(ioTimeout)
		if err != nil {
			t.Fatalf("line %d: %q: reading the reply: %v", b.line, line, err)
		}
		out.WriteString(formatReply(r, b.has("types")))
	}
	return out.String()
}

// TestCommandsViaRedisCLI pipes each block's commands into `redis-cli --no-raw` (with -3
// for resp3 blocks) and compares what redis-cli prints with the same expectations: it keeps
// the driver's formatting honest, and drives the server through redis-cli's own connection
// handling. Blocks in `types` mode have no literal expectation and are left out.
func TestCommandsViaRedisCLI(t *testing.T) {
	for _, path := range cmdFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parseCmdFile(string(data))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			srv := startServer(t)
			if out := srv.CLI(t, "FLUSHALL"); out != "OK\n" {
				t.Fatalf("FLUSHALL: %q", out)
			}
			for _, b := range f.blocks {
				if b.skipped() != "" || b.has("types") {
					continue
				}
				args := []string{"--no-raw"}
				if b.has("resp3") {
					args = append(args, "-3")
				}
				got := srv.CLIInput(t, strings.NewReader(strings.Join(b.cmds, "\n")+"\n"), args...)
				if got != b.expected {
					t.Errorf("%s:%d: redis-cli printed\n%s\n%s\nwant:\n%s", path, b.line, firstDiff(got, b.expected), got, b.expected)
				}
			}
		})
	}
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("first difference at output line %d: got %q, want %q", i+1, gl, wl)
		}
	}
	return "no difference"
}
