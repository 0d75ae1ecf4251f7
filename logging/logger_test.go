package logging

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"
)

// fixedClock is a zapcore.Clock that always says t.
type fixedClock time.Time

func (c fixedClock) Now() time.Time                         { return time.Time(c) }
func (c fixedClock) NewTicker(d time.Duration) *time.Ticker { return time.NewTicker(d) }

func newTestLogger(t *testing.T, level, format string) (*Logger, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kv.log")
	l, err := New(Options{Level: level, File: path, Format: format, Clock: fixedClock(at), Pid: 99})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, path
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestSetFormat: the format changes at the next line, for loggers made by With too.
func TestSetFormat(t *testing.T) {
	l, path := newTestLogger(t, "notice", "legacy")
	child := l.With(zap.String("c", "d"))
	l.Info("one", zap.Int("n", 1))
	if err := l.SetFormat("logfmt"); err != nil {
		t.Fatal(err)
	}
	child.Warn("two")
	if err := l.SetFormat("json"); err != nil {
		t.Fatal(err)
	}
	l.Error("three", zap.Error(errors.New("boom")))
	if err := l.SetFormat("yaml"); err == nil {
		t.Error("SetFormat accepted yaml")
	}
	lines := readLines(t, path)
	if len(lines) != 3 {
		t.Fatalf("lines: %q", lines)
	}
	if want := "99:M 01 Dec 2026 02:19:16.123 * one n=1"; lines[0] != want {
		t.Errorf("legacy: %q, want %q", lines[0], want)
	}
	if want := `pid=99 role=primary timestamp="01 Dec 2026 02:19:16.123" level=warning message="two" c=d`; lines[1] != want {
		t.Errorf("logfmt: %q, want %q", lines[1], want)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(lines[2]), &obj); err != nil {
		t.Fatalf("json: %v: %q", err, lines[2])
	}
	if obj["msg"] != "three" || obj["level"] != "error" || obj["error"] != "boom" || obj["ts"] == nil {
		t.Errorf("json: %v", obj)
	}
	if _, ok := obj["stacktrace"]; ok {
		t.Errorf("json error has a stack trace: %v", obj)
	}
}

// TestLevelFilter: loglevel verbose writes zap's debug (verbose) but not Redis's debug;
// SetLevel applies at once; nothing writes nothing.
func TestLevelFilter(t *testing.T) {
	l, path := newTestLogger(t, "verbose", "legacy")
	l.Log(DebugLevel, "hidden")
	l.Debug("verbose line")
	l.SetLevel("debug")
	l.Log(DebugLevel, "debug line")
	l.SetLevel("nothing")
	l.Error("not written")
	lines := readLines(t, path)
	want := []string{"99:M 01 Dec 2026 02:19:16.123 - verbose line", "99:M 01 Dec 2026 02:19:16.123 . debug line"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines %q, want %q", lines, want)
	}
	var obj map[string]any
	l.SetLevel("debug")
	_ = l.SetFormat("json")
	l.Log(DebugLevel, "j")
	lines = readLines(t, path)
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &obj); err != nil || obj["level"] != "debug" {
		t.Errorf("Redis's debug in json: %v %v", obj, err)
	}
}

func TestOpenError(t *testing.T) {
	_, err := New(Options{File: filepath.Join(t.TempDir(), "no", "such.log"), Format: "legacy"})
	if err == nil || err.Error() != "Can't open the log file: No such file or directory" {
		t.Errorf("err = %v", err)
	}
	if got := Strerror(&os.PathError{Op: "open", Path: "x", Err: syscall.EACCES}); got != "Permission denied" {
		t.Errorf("Strerror(EACCES) = %q", got)
	}
}
