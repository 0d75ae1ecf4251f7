package acl

import (
	"strings"
	"sync"
	"testing"
)

func TestRegistry(t *testing.T) {
	r := NewRegistry(testCatalog())
	g0 := r.Generation()
	mustSet(t, r, "b", "on")
	mustSet(t, r, "a", "on")
	if r.Generation() <= g0 {
		t.Fatal("generation not bumped")
	}
	if got := strings.Join(r.Names(), ","); got != "a,b,default" {
		t.Fatal(got)
	}
	if got := r.List(); len(got) != 3 || got[0] != "user a on sanitize-payload resetchannels -@all" {
		t.Fatal(got)
	}
	// a change builds a new *User; holders of the old one keep seeing it unchanged
	old := r.User("a")
	mustSet(t, r, "a", "+get")
	if old.Describe() != "on sanitize-payload resetchannels -@all" || r.User("a") == old {
		t.Fatal("user changed in place")
	}
	if _, err := r.DelUser("a", "default"); err == nil || err.Error() != "ERR The 'default' user cannot be removed" {
		t.Fatal(err)
	}
	if r.User("a") == nil {
		t.Fatal("refused DELUSER removed a user")
	}
	g := r.Generation()
	if n, err := r.DelUser("a", "nosuch", "b", "a"); n != 2 || err != nil {
		t.Fatal(n, err)
	}
	if r.User("a") != nil || r.User("b") != nil || r.Generation() == g {
		t.Fatal("DELUSER")
	}
	if n, _ := r.DelUser("nosuch"); n != 0 {
		t.Fatal(n)
	}
	if _, err := r.ParseUser("x", []string{"on", "+get"}); err != nil || r.User("x") != nil {
		t.Fatal("ParseUser stored the user", err)
	}
}

// TestRegistryConcurrent runs readers and checks against writers (meaningful under -race).
func TestRegistryConcurrent(t *testing.T) {
	r := NewRegistry(testCatalog())
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				if u := r.User("u"); u != nil {
					u.Check(idGet, nil, []KeyAccess{rd("app:1", 1)}, nil, false)
					_ = u.Describe()
				}
				_ = r.List()
			}
		}()
	}
	for j := 0; j < 100; j++ {
		mustSet(t, r, "u", "on", "~app:*", "+get")
		r.DelUser("u")
	}
	wg.Wait()
}

func TestCatalog(t *testing.T) {
	c := testCatalog()
	if got := strings.Join(c.Categories(), ","); !strings.HasPrefix(got, "keyspace,read,write") {
		t.Fatal(got)
	}
	got, ok := c.CommandsIn("ADMIN")
	if !ok || strings.Join(got, ",") != "client|list,config|get,config|set" {
		t.Fatal(got, ok)
	}
	if _, ok := c.CommandsIn("nosuch"); ok {
		t.Fatal("unknown category")
	}
	if ci, ok := c.Command(idConfigGet); !ok || ci.Name != "config|get" || ci.Parent != idConfig {
		t.Fatal(ci)
	}
}

func TestGenPass(t *testing.T) {
	for _, bits := range []int{1, 4, 5, 255, 256, 4096} {
		p := GenPass(bits)
		if len(p) != (bits+3)/4 || strings.Trim(p, "0123456789abcdef") != "" {
			t.Errorf("%d: %q", bits, p)
		}
	}
	if GenPass(256) == GenPass(256) {
		t.Error("two equal passwords")
	}
}
