package cmdfile

import (
	"fmt"
	"strings"
)

// Block is one `run` block of a command file.
type Block struct {
	Line     int      // line number of the directive, 1-based
	Args     []string // directive arguments
	Cmds     []string
	Expected string // with a trailing newline when not empty
}

// File is a parsed command file: text outside blocks (comments, blank lines) is kept in order
// in parts, with nil marking where each block goes.
type File struct {
	parts  []*string
	Blocks []*Block
	// Requires lists the commands of the file's `# requires:` lines; Why is their note (the
	// text in parentheses, e.g. "issue 20").
	Requires []string
	Why      string
}

// requiresPrefix starts a comment line naming commands the file needs:
//
//	# requires: HSET SADD (issue 20)
//
// Against a target that answers `unknown command` to one of them the file is skipped (see
// Lacking), so that it runs as soon as the commands exist.
const requiresPrefix = "# requires:"

// Parse parses a command file.
func Parse(data string) (*File, error) {
	f := &File{}
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		fields := strings.Fields(lines[i])
		if len(fields) == 0 || fields[0] != "run" {
			if len(fields) > 0 && !strings.HasPrefix(fields[0], "#") {
				return nil, fmt.Errorf("line %d: want `run`, a comment or a blank line, got %q", i+1, lines[i])
			}
			if rest, ok := strings.CutPrefix(lines[i], requiresPrefix); ok {
				if err := f.parseRequires(rest); err != nil {
					return nil, fmt.Errorf("line %d: %v", i+1, err)
				}
			}
			f.parts = append(f.parts, &lines[i])
			continue
		}
		b := &Block{Line: i + 1, Args: fields[1:]}
		for _, a := range b.Args {
			switch a {
			case "resp3", "types", "sorted", "kvserver-only", "redis-only":
			default:
				return nil, fmt.Errorf("line %d: unknown directive argument %q", i+1, a)
			}
		}
		for i++; i < len(lines) && lines[i] != "----"; i++ {
			b.Cmds = append(b.Cmds, lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Errorf("line %d: block without ----", b.Line)
		}
		for i++; i < len(lines) && lines[i] != ""; i++ {
			b.Expected += lines[i] + "\n"
		}
		if i < len(lines) {
			i-- // the blank line is kept as text
		}
		f.Blocks = append(f.Blocks, b)
		f.parts = append(f.parts, nil)
	}
	return f, nil
}

// parseRequires reads the rest of a `# requires:` line: command names, then an optional note
// in parentheses.
func (f *File) parseRequires(rest string) error {
	names, why, hasWhy := strings.Cut(rest, "(")
	if hasWhy {
		var ok bool
		if why, ok = strings.CutSuffix(strings.TrimSpace(why), ")"); !ok {
			return fmt.Errorf("requires: unclosed note in %q", rest)
		}
		if f.Why != "" && f.Why != why {
			return fmt.Errorf("requires: a second note %q (the first is %q)", why, f.Why)
		}
		f.Why = why
	}
	cmds := strings.Fields(names)
	if len(cmds) == 0 {
		return fmt.Errorf("requires: no command named")
	}
	f.Requires = append(f.Requires, cmds...)
	return nil
}

// String reassembles the file, with each block's expectation as it is now.
func (f *File) String() string {
	var b strings.Builder
	next := 0
	for _, p := range f.parts {
		if p != nil {
			b.WriteString(*p + "\n")
			continue
		}
		blk := f.Blocks[next]
		next++
		b.WriteString(strings.Join(append([]string{"run"}, blk.Args...), " ") + "\n")
		for _, c := range blk.Cmds {
			b.WriteString(c + "\n")
		}
		b.WriteString("----\n" + blk.Expected)
	}
	return b.String()
}

// Has reports whether the block's directive has arg.
func (b *Block) Has(arg string) bool {
	for _, a := range b.Args {
		if a == arg {
			return true
		}
	}
	return false
}

// Skipped says why the block does not run against redis-server (redis true) or kvserver, or "".
func (b *Block) Skipped(redis bool) string {
	switch {
	case redis && b.Has("kvserver-only"):
		return "kvserver-only"
	case !redis && b.Has("redis-only"):
		return "redis-only"
	}
	return ""
}

// FirstDiff describes the first line where got and want differ.
func FirstDiff(got, want string) string {
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
