package zsetfamily

import (
	"testing"

	"github.com/kvserver/kvserver/family/setfamily"
	"github.com/kvserver/kvserver/family/stringfamily"
	"github.com/kvserver/kvserver/internal/familytest"
)

// newHarness runs the family's rows and the string family's (for WRONGTYPE) and the set family's (sets as inputs) through the real pipeline over a keyspace of 16
// shards, with every keyspace event recorded (internal/familytest).
func newHarness(t testing.TB) *familytest.Harness {
	return familytest.New(t, Commands(), setfamily.Commands(), stringfamily.Commands())
}
