package replyerr

import (
	"errors"
	"fmt"
	"testing"
)

// The texts that take a command's name, as Redis formats them.
func TestNamed(t *testing.T) {
	if got := WrongArgs("config|set").Error(); got != "ERR wrong number of arguments for 'config|set' command" {
		t.Errorf("WrongArgs: %q", got)
	}
	if got := InvalidExpire("set").Error(); got != "ERR invalid expire time in 'set' command" {
		t.Errorf("InvalidExpire: %q", got)
	}
	if InvalidExpire("set") != InvalidExpire("set") || InvalidExpire("set") == InvalidExpire("getex") {
		t.Error("Errors compare by text")
	}
}

// An Error wrapped by a caller is still found by errors.Is.
func TestIs(t *testing.T) {
	err := fmt.Errorf("inserting: %w", OOM)
	if !errors.Is(err, OOM) || errors.Is(err, Syntax) {
		t.Error("errors.Is")
	}
}
