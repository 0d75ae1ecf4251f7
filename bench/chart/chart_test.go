package main

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"
)

func TestChartIsWellFormedSVG(t *testing.T) {
	var c chart
	c.title = "bytes & keys"
	data := "kvserver used_memory\t8\t70\nRedis used_memory\t8\t90\nkvserver used_memory\t16\t78\n" +
		"\nRedis used_memory\t16\t98\nkvserver RSS\t8\t75\nRedis RSS\t8\t95\n"
	if err := c.read(strings.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if len(c.series) != 4 || len(c.series[0].x) != 2 {
		t.Fatalf("read %d series", len(c.series))
	}
	d := xml.NewDecoder(strings.NewReader(c.svg()))
	lines := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			lines++
		}
	}
	if lines != 4 {
		t.Errorf("%d polylines, want 4", lines)
	}
}

func TestBadInput(t *testing.T) {
	var c chart
	if err := c.read(strings.NewReader("a\t1\n")); err == nil {
		t.Error("two columns accepted")
	}
	if err := c.read(strings.NewReader("a\t1\tx\n")); err == nil {
		t.Error("non-numeric y accepted")
	}
}

func TestTickLabels(t *testing.T) {
	for _, tc := range []struct {
		v, step float64
		want    string
	}{{3 * 0.1, 0.1, "0.3"}, {64, 64, "64"}, {250, 50, "250"}, {0.25, 0.05, "0.25"}} {
		if got := num(tc.v, tc.step); got != tc.want {
			t.Errorf("num(%v, %v) = %q, want %q", tc.v, tc.step, got, tc.want)
		}
	}
}

func TestNiceStep(t *testing.T) {
	for _, tc := range []struct{ v, want float64 }{{512, 100}, {230, 50}, {95, 10}, {1, 0.1}, {0, 1}} {
		if got := niceStep(tc.v); got != tc.want {
			t.Errorf("niceStep(%v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// barData is measurement 8's shape of input: four series, categories of figures two orders of
// magnitude apart, and one figure missing (a failed side).
const barData = "kvserver used_memory\tper hash\t287.6\nRedis used_memory\tper hash\t300\n" +
	"kvserver RSS\tper hash\t310\nRedis RSS\tper hash\t330\n\n" +
	"kvserver used_memory\tper integer & more\t4.14\nRedis used_memory\tper integer & more\t4.5\n" +
	"Redis RSS\tper integer & more\t5.1\n"

func TestBarsAreWellFormedSVG(t *testing.T) {
	for _, ref := range []string{"Redis used_memory", ""} {
		c := barChart{title: "bytes <per> element", ylabel: "% of Redis", ref: ref}
		if err := c.read(strings.NewReader(barData)); err != nil {
			t.Fatal(err)
		}
		if len(c.series) != 4 || len(c.categories) != 2 {
			t.Fatalf("read %d series, %d categories", len(c.series), len(c.categories))
		}
		out, err := c.svg()
		if err != nil {
			t.Fatal(err)
		}
		bars, keys, texts := 0, 0, map[string]int{}
		d := xml.NewDecoder(strings.NewReader(out))
		var in string // the class of the text element being read
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("ref %q: not well-formed XML: %v", ref, err)
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				class := attr(tok, "class")
				switch {
				case tok.Name.Local == "rect" && class == "bar":
					bars++
					if h, err := strconv.ParseFloat(attr(tok, "height"), 64); err != nil || h < 0 {
						t.Errorf("ref %q: bar height %q", ref, attr(tok, "height"))
					}
				case tok.Name.Local == "rect" && class == "key":
					keys++
				case tok.Name.Local == "text":
					in = class
				}
			case xml.CharData:
				if in != "" {
					texts[in+": "+string(tok)]++
				}
			case xml.EndElement:
				if tok.Name.Local == "text" {
					in = ""
				}
			}
		}
		if bars != 7 || keys != 4 {
			t.Errorf("ref %q: %d bars and %d legend keys, want 7 and 4", ref, bars, keys)
		}
		for _, want := range []string{"value: 287.6", "value: 300.0", "value: 330.0", "value: 4.14", "value: 5.10",
			"category: per hash", "category: per integer & more"} {
			if texts[want] != 1 {
				t.Errorf("ref %q: label %q found %d times", ref, want, texts[want])
			}
		}
		for _, s := range c.series {
			if !strings.Contains(out, ">"+s+"</text>") {
				t.Errorf("ref %q: no legend entry for %q", ref, s)
			}
		}
	}
}

// TestBarsRelative checks that with a reference the reference's bars are all as tall, whatever
// their figures.
func TestBarsRelative(t *testing.T) {
	c := barChart{ref: "Redis used_memory"}
	if err := c.read(strings.NewReader(barData)); err != nil {
		t.Fatal(err)
	}
	out, err := c.svg()
	if err != nil {
		t.Fatal(err)
	}
	heights := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, `class="bar"`) && strings.Contains(line, "<title>Redis used_memory,") {
			heights[strings.Split(strings.Split(line, `height="`)[1], `"`)[0]] = true
		}
	}
	if len(heights) != 1 {
		t.Errorf("the reference's bars have heights %v, want one height", heights)
	}
}

func TestBarsBadInput(t *testing.T) {
	var c barChart
	if err := c.read(strings.NewReader("a\tb\n")); err == nil {
		t.Error("two columns accepted")
	}
	if err := c.read(strings.NewReader("a\tb\tx\n")); err == nil {
		t.Error("non-numeric value accepted")
	}
	c = barChart{ref: "Redis used_memory"}
	if err := c.read(strings.NewReader("kvserver used_memory\tper hash\t287.6\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.svg(); err == nil {
		t.Error("a category without the reference's figure accepted")
	}
}

func TestWrap(t *testing.T) {
	got := wrap("one hash of 1,000,000 fields: per field", 16)
	want := []string{"one hash of", "1,000,000", "fields: per", "field"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrap = %q, want %q", got, want)
	}
}

// attr returns the value of an element's attribute, or "".
func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
