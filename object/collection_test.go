package object

import (
	"bytes"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// blobOps is a stand-in collection type for these tests: its root is one allocation whose
// first 4 bytes hold the allocation's size.
var blobOps = &CollectionOps{
	Free: func(a *alloc.Arena, enc Encoding, root alloc.Handle) { a.Free(root, blobSize(a, root)) },
	AllocSize: func(a *alloc.Arena, enc Encoding, root alloc.Handle) int {
		return alloc.UsableSize(blobSize(a, root))
	},
	Copy: func(src *alloc.Arena, enc Encoding, root alloc.Handle, dst *alloc.Arena) (alloc.Handle, error) {
		n := blobSize(src, root)
		h := dst.Alloc(n)
		if h == 0 {
			return 0, ErrOOM
		}
		copy(dst.Bytes(h, n), src.Bytes(root, n))
		return h, nil
	},
}

func blobSize(a *alloc.Arena, h alloc.Handle) int {
	b := a.Bytes(h, 4)
	return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 | int(b[3])<<24
}

func newBlob(a *alloc.Arena, n int) alloc.Handle {
	h := a.Alloc(n)
	b := a.Bytes(h, n)
	b[0], b[1], b[2], b[3] = byte(n), byte(n>>8), byte(n>>16), byte(n>>24)
	return h
}

func TestCollectionRecord(t *testing.T) {
	RegisterCollection(TypeHash, blobOps)
	t.Cleanup(func() { RegisterCollection(TypeHash, nil) })
	a, b := newArena(t), newArena(t)
	key := []byte("myhash")
	root := newBlob(a, 100)
	h, err := NewCollection(a, key, TypeHash, EncListpack, root, 0)
	if err != nil {
		t.Fatal(err)
	}
	if TypeOf(a, h) != TypeHash || EncodingOf(a, h).Name() != "listpack" || !bytes.Equal(Key(a, h), key) {
		t.Fatalf("type %v encoding %v key %q", TypeOf(a, h), EncodingOf(a, h).Name(), Key(a, h))
	}
	if enc, r := Root(a, h); enc != EncListpack || r != root {
		t.Fatalf("Root = %v %v, want listpack %v", enc, r, root)
	}
	if got, want := MemoryUsage(a, h), Size(a, h)+alloc.UsableSize(100); got != want {
		t.Fatalf("MemoryUsage = %d, want %d", got, want)
	}

	// SetRoot changes the value in place; an expire may move the record, which keeps the root.
	root2 := newBlob(a, 3000)
	a.Free(root, 100)
	SetRoot(a, h, EncHashtable, root2)
	if enc, r := Root(a, h); enc != EncHashtable || r != root2 || EncodingOf(a, h).Name() != "hashtable" {
		t.Fatalf("after SetRoot: %v %v", enc, r)
	}
	h, err = SetExpire(a, h, 12345)
	if err != nil {
		t.Fatal(err)
	}
	if when, ok := Expire(a, h); !ok || when != 12345 {
		t.Fatalf("expire %d %v", when, ok)
	}
	if enc, r := Root(a, h); enc != EncHashtable || r != root2 {
		t.Fatalf("after SetExpire: %v %v", enc, r)
	}

	// A copy in another arena is deep; freeing either returns all of its memory.
	before := b.Used()
	c, err := CopyCollection(a, h, b, []byte("other"), 777)
	if err != nil {
		t.Fatal(err)
	}
	if _, r := Root(b, c); r == 0 || blobSize(b, r) != 3000 || !bytes.Equal(Key(b, c), []byte("other")) {
		t.Fatal("copy lost its value or key")
	}
	if when, _ := Expire(b, c); when != 777 {
		t.Fatalf("copy's expire %d", when)
	}
	Free(b, c)
	if b.Used() != before {
		t.Fatalf("copy freed: used %d, want %d", b.Used(), before)
	}
	Free(a, h)
	if a.Used() != 0 {
		t.Fatalf("record freed: %d bytes still used", a.Used())
	}
}

func TestCollectionUnregisteredPanics(t *testing.T) {
	a := newArena(t)
	h, err := NewCollection(a, []byte("k"), TypeZSet, EncListpack, newBlob(a, 16), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Free of an unregistered type did not panic")
		}
	}()
	Free(a, h)
}
