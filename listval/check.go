package listval

import (
	"fmt"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/quicklist"
)

// Check verifies list record rec: of type list; a listpack well formed (deep); a quicklist
// passing quicklist's Check. It reads everything: for tests, and after every write in
// invariants builds.
func Check(a *alloc.Arena, rec alloc.Handle) error {
	if object.TypeOf(a, rec) != object.TypeList {
		return fmt.Errorf("listval: record of type %s", object.TypeOf(a, rec).Name())
	}
	enc, root := object.Root(a, rec)
	switch enc {
	case object.EncListpack:
		if err := listpack.Validate(listpack.FromHandle(root).Bytes(a), true, nil); err != nil {
			return fmt.Errorf("listval: listpack: %w", err)
		}
		return nil
	case object.EncQuicklist:
		return quicklist.FromHandle(root).Check(a)
	}
	return fmt.Errorf("listval: encoding %s", enc.Name())
}

// checkList panics when Check fails, in invariants builds.
func checkList(a *alloc.Arena, rec alloc.Handle) {
	if !invariantsOn {
		return
	}
	if err := Check(a, rec); err != nil {
		panic(err)
	}
}
