package main

import (
	"encoding/xml"
	"io"
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
