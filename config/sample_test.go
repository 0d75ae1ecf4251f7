package config

import (
	"os"
	"strings"
	"testing"
)

// TestSampleConfig: the repository's kvserver.conf loads as it is, sets every parameter
// kvserver acts on, and sets each to its default (so its comments' defaults can be trusted and
// loading it changes nothing).
func TestSampleConfig(t *testing.T) {
	const path = "../kvserver.conf"
	c := New()
	if err := c.LoadFile(path, nil); err != nil {
		t.Fatalf("LoadFile(%s): %v", path, err)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{} // the directives of uncommented lines
	for _, line := range strings.Split(string(text), "\n") {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			set[strings.ToLower(f[0])] = true
		}
	}
	defaults := New()
	for _, d := range Directives() {
		if d.Support != Acted {
			continue
		}
		if !d.Param { // include, rename-command: shown commented out
			if !strings.Contains(string(text), "\n# "+d.Name+" ") {
				t.Errorf("%s: no commented example of %s", path, d.Name)
			}
			continue
		}
		if !set[d.Name] {
			t.Errorf("%s: %s is acted on but not set in the sample", path, d.Name)
			continue
		}
		if d.Name == "dir" { // the default is the working directory, whatever it is
			continue
		}
		got, _ := c.Value(d.Name)
		want, _ := defaults.Value(d.Name)
		if got != want {
			t.Errorf("%s sets %s to %q; its default is %q", path, d.Name, got, want)
		}
	}
	for name := range set {
		if _, ok := Lookup(name); ok && supportOf(name) != Acted {
			t.Errorf("%s sets %s, which kvserver does not act on", path, name)
		}
	}
}
