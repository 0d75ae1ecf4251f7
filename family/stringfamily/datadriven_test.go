package stringfamily

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The data-driven tests run command files through the pipeline, in process:
//
//   - ../../tests/testdata/commands/strings.txt, the end-to-end tests' file, whose expectations
//     are checked against redis-server: the family must answer it word for word. Blocks for
//     redis-server only, and blocks using a command this package's tests do not have
//     (LRANGE…), are skipped.
//   - testdata/*.txt, this package's own: what needs the fake clock (ADVANCE ms) or a key of
//     another type (RPUSH, see helpers_test.go).
//
// The format is the end-to-end tests' (tests/commands_test.go): a `run [resp3] [redis-only]
// [kvserver-only]` line, command lines split as redis-cli splits them, `----`, the replies as
// redis-cli prints them, up to a blank line. Each file gets a fresh keyspace; each block a fresh
// connection (database 0, RESP2 unless resp3). `go test -run TestCommandFiles -rewrite`
// rewrites the expectations of this package's own files.
var rewrite = flag.Bool("rewrite", false, "rewrite testdata/*.txt expectations from the replies")

// sharedFile is the end-to-end tests' string file, checked against redis-server.
const sharedFile = "../../tests/testdata/commands/strings.txt"

// block is one `run` block of a command file.
type block struct {
	line     int // of the `run` directive, 1-based
	args     []string
	cmds     []string
	expected string // each line ending in a newline
	start    int    // the expectation's first line index in the file
	end      int    // one past its last
}

func (b *block) has(arg string) bool {
	for _, a := range b.args {
		if a == arg {
			return true
		}
	}
	return false
}

func parseBlocks(t *testing.T, lines []string) []*block {
	var blocks []*block
	for i := 0; i < len(lines); i++ {
		fields := strings.Fields(lines[i])
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if fields[0] != "run" {
			t.Fatalf("line %d: want `run`, a comment or a blank line: %q", i+1, lines[i])
		}
		b := &block{line: i + 1, args: fields[1:]}
		for i++; i < len(lines) && lines[i] != "----"; i++ {
			b.cmds = append(b.cmds, lines[i])
		}
		if i == len(lines) {
			t.Fatalf("line %d: block without ----", b.line)
		}
		b.start = i + 1
		for i++; i < len(lines) && lines[i] != ""; i++ {
			b.expected += lines[i] + "\n"
		}
		b.end = i
		blocks = append(blocks, b)
	}
	return blocks
}

// missing returns the first command of b this package's tests lack, or "".
func (h *harness) missing(t *testing.T, b *block) string {
	for _, line := range b.cmds {
		args, err := splitArgs(line)
		if err != nil || len(args) == 0 {
			t.Fatalf("line %d: cannot split %q: %v", b.line, line, err)
		}
		cmd := h.tab.ByName(args[0])
		if cmd == nil {
			return args[0]
		}
		if cmd.Subcommands != nil && len(args) > 1 && h.tab.ByFullName(args[0]+"|"+args[1]) == nil {
			return args[0] + " " + args[1]
		}
	}
	return ""
}

// runBlock runs b's commands as one connection and returns the formatted replies.
func (h *harness) runBlock(t *testing.T, b *block) string {
	h.ctx.DB = 0
	h.w.SetProto(2)
	if b.has("resp3") {
		h.w.SetProto(3)
	}
	defer h.w.SetProto(2)
	var out strings.Builder
	for _, line := range b.cmds {
		args, _ := splitArgs(line)
		out.WriteString(h.run(args...) + "\n")
	}
	return out.String()
}

func TestCommandFiles(t *testing.T) {
	own, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil || len(own) == 0 {
		t.Fatalf("no command files in testdata: %v", err)
	}
	for _, path := range append([]string{sharedFile}, own...) {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			h := newHarness(t)
			ran, skipped := 0, 0
			changed := false
			blocks := parseBlocks(t, lines)
			var outs []string
			for _, b := range blocks {
				if b.has("redis-only") || b.has("types") {
					skipped++
					outs = append(outs, b.expected)
					continue
				}
				if name := h.missing(t, b); name != "" {
					t.Logf("%s:%d: skipped: no %s in this package's tests", path, b.line, name)
					skipped++
					outs = append(outs, b.expected)
					continue
				}
				ran++
				got := h.runBlock(t, b)
				outs = append(outs, got)
				if got == b.expected {
					continue
				}
				if *rewrite && path != sharedFile {
					changed = true
					continue
				}
				t.Errorf("%s:%d: %s\ngot:\n%s\nwant:\n%s", path, b.line, strings.Join(b.cmds, " | "), got, b.expected)
			}
			t.Logf("%s: %d blocks run, %d skipped", path, ran, skipped)
			if ran == 0 {
				t.Errorf("%s: no block ran", path)
			}
			if changed {
				rewriteFile(t, path, lines, blocks, outs)
			}
		})
	}
}

// rewriteFile replaces each block's expectation with outs[i].
func rewriteFile(t *testing.T, path string, lines []string, blocks []*block, outs []string) {
	var b strings.Builder
	next := 0
	for i, blk := range blocks {
		for _, l := range lines[next:blk.start] {
			b.WriteString(l + "\n")
		}
		b.WriteString(outs[i])
		next = blk.end
	}
	for _, l := range lines[next:] {
		b.WriteString(l + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("rewrote %s", path)
}
