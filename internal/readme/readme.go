// Package readme keeps README.md's generated sections true. A section is the text between a
// line "<!-- BEGIN name …-->" and a line "<!-- END name -->"; a test of the package that owns
// the data generates the body and calls Check, which fails the test when the README differs
// and, under -update, rewrites the section instead. It is for tests only.
package readme

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
)

// update is the -update flag of every test binary that imports this package.
var update = flag.Bool("update", false, "rewrite README.md's generated sections instead of failing")

// Check compares the body of section name in the Markdown file at path with body (each line
// ending in a newline) and fails tb if they differ; with -update it writes body into the file.
// The file is locked while it is rewritten, so the tests of several packages may update it at
// once (go test ./... runs them in parallel).
func Check(tb testing.TB, path, name, body string) {
	tb.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		tb.Fatal(err)
	}
	doc, err := io.ReadAll(f)
	if err != nil {
		tb.Fatal(err)
	}
	start, end, err := Section(doc, name)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	if string(doc[start:end]) == body {
		return
	}
	if !*update {
		tb.Errorf("%s: section %q is not what the code generates (first difference at line %d of the section); rerun the test with -update to rewrite it",
			path, name, firstDiff(string(doc[start:end]), body))
		return
	}
	out := append(append(append([]byte(nil), doc[:start]...), body...), doc[end:]...)
	if _, err := f.WriteAt(out, 0); err != nil {
		tb.Fatal(err)
	}
	if err := f.Truncate(int64(len(out))); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("%s: rewrote section %q", path, name)
}

// Section returns the byte range of the body of section name in doc: from the line after its
// BEGIN marker to the start of its END marker line.
func Section(doc []byte, name string) (start, end int, err error) {
	begin := []byte("<!-- BEGIN " + name + " ")
	i := bytes.Index(doc, begin)
	if i < 0 || (i > 0 && doc[i-1] != '\n') {
		return 0, 0, fmt.Errorf("no line starting %q", begin)
	}
	nl := bytes.IndexByte(doc[i:], '\n')
	if nl < 0 {
		return 0, 0, fmt.Errorf("nothing after %q", begin)
	}
	start = i + nl + 1
	endMarker := []byte("\n<!-- END " + name + " -->")
	j := bytes.Index(doc[start-1:], endMarker)
	if j < 0 {
		return 0, 0, fmt.Errorf("no line %q after its BEGIN line", endMarker[1:])
	}
	return start, start + j, nil
}

// firstDiff is the 1-based number of the first line where a and b differ.
func firstDiff(a, b string) int {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range al {
		if i >= len(bl) || al[i] != bl[i] {
			return i + 1
		}
	}
	return len(al) + 1
}
