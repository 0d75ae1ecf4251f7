package acl

import "testing"

func TestSmoke(t *testing.T) {
	r := NewRegistry(testCatalog())
	if got := r.List(); got[0] != "user default on nopass sanitize-payload ~* &* +@all" {
		t.Fatalf("%q", got)
	}
	if !r.User("default").AllowsAll() {
		t.Fatal("default not AllowsAll")
	}
	if err := r.SetUser("u", [][]byte{[]byte("on"), []byte(">p"), []byte("~app:*"), []byte("+@read")}); err != nil {
		t.Fatal(err)
	}
	u := r.User("u")
	if d := u.Check(0, nil, []KeyAccess{{Key: []byte("app:1"), Read: true}}, nil, false); d.Reason != None {
		t.Fatal(d)
	}
	if d := u.Check(1, nil, nil, nil, false); d.Reason != Cmd || d.Object != "set" {
		t.Fatal(d)
	}
}
