package fdlimit

import (
	"syscall"
	"testing"
)

// A maxclients the limit already allows is granted as it is; one no limit can reach is cut to
// the limit less the reserved descriptors, with setrlimit's refusal to report.
func TestRaise(t *testing.T) {
	if allowed, _, _, err := Raise(10); err != nil || allowed != 10 {
		t.Fatalf("Raise(10): %d, %v", allowed, err)
	}
	allowed, _, refusal, err := Raise(1 << 40)
	if err != nil {
		t.Fatal(err)
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if refusal == nil || allowed != int64(lim.Cur)-MinReserved {
		t.Fatalf("Raise(1<<40): %d with limit %d, refusal %v", allowed, lim.Cur, refusal)
	}
}
