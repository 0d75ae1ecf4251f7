package readme

import "testing"

func TestSection(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"a\n<!-- BEGIN x (how) -->\nbody\nmore\n<!-- END x -->\nb\n", "body\nmore\n"},
		{"<!-- BEGIN x -->\n<!-- END x -->\n", ""},
	} {
		start, end, err := Section([]byte(tc.doc), "x")
		if err != nil || tc.doc[start:end] != tc.want {
			t.Errorf("Section(%q) = %q, %v; want %q", tc.doc, tc.doc[start:end], err, tc.want)
		}
	}
	for _, doc := range []string{"no markers\n", "<!-- BEGIN x -->\nno end\n", "<!-- BEGIN y -->\n<!-- END y -->\n"} {
		if _, _, err := Section([]byte(doc), "x"); err == nil {
			t.Errorf("Section(%q): no error", doc)
		}
	}
}
