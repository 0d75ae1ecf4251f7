package server

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/kvserver/kvserver/logging"
)

// TestDebugLogCut: DEBUG LOG's line holds at most LOG_MAX_LEN-1 bytes of message, never half
// a character, stops at a NUL as Redis's C string does, and a flood is cut to the burst.
func TestDebugLogCut(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	s := &Server{log: zap.New(core)}
	s.debugLog(bytes.Repeat([]byte("a"), 10<<20))
	s.debugLog(append(bytes.Repeat([]byte("b"), logging.MaxLineLen-len("DEBUG LOG: ")-2), "€€"...)) // € is 3 bytes
	s.debugLog([]byte("short\x00hidden"))
	got := logs.TakeAll()
	if len(got) != 3 {
		t.Fatalf("%d lines, want 3", len(got))
	}
	if m := got[0].Message; len(m) != logging.MaxLineLen-1 || !strings.HasPrefix(m, "DEBUG LOG: aaa") || got[0].Level != zapcore.WarnLevel {
		t.Errorf("10 MB message logged as %d bytes at %v", len(m), got[0].Level)
	}
	if m := got[1].Message; len(m) > logging.MaxLineLen-1 || !utf8.ValidString(m) || strings.HasSuffix(m, "€") {
		t.Errorf("cut message: %d bytes, valid %v, ends %q", len(m), utf8.ValidString(m), m[len(m)-4:])
	}
	if got[2].Message != "DEBUG LOG: short" {
		t.Errorf("NUL: %q", got[2].Message)
	}
	for i := 0; i < 50; i++ {
		s.debugLog([]byte("flood"))
	}
	if n := logs.Len(); n > logging.ThrottleBurst {
		t.Errorf("%d of 50 lines written at once, want at most %d", n, logging.ThrottleBurst)
	}
}
