package hashval

import (
	"fmt"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

// Check verifies hash record rec: a listpack is well formed (deep) with an even number of
// entries and no repeated field; a table passes htable's Check (every entry in the chain its field's hash
// selects, counts exact). It reads everything: for tests, and after every write in invariants builds.
func Check(a *alloc.Arena, rec alloc.Handle) error {
	if object.TypeOf(a, rec) != object.TypeHash {
		return fmt.Errorf("hashval: record of type %s", object.TypeOf(a, rec).Name())
	}
	enc, root := object.Root(a, rec)
	switch enc {
	case object.EncListpack:
		lp := listpack.FromHandle(root).Bytes(a)
		if err := listpack.ValidateDups(lp, true); err != nil {
			return fmt.Errorf("hashval: listpack: %w", err)
		}
		return nil
	case object.EncHashtable:
		t := openTable(a, root)
		if err := t.Check(); err != nil {
			return fmt.Errorf("hashval: table: %w", err)
		}
		return nil
	}
	return fmt.Errorf("hashval: encoding %s", enc.Name())
}

// checkHash panics when Check fails, in invariants builds.
func checkHash(a *alloc.Arena, rec alloc.Handle) {
	if !invariantsOn {
		return
	}
	if err := Check(a, rec); err != nil {
		panic(err)
	}
}
