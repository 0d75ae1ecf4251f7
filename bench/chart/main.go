// Command chart draws an SVG line chart from tab-separated rows on stdin — series, x, y — with
// one line per series in order of first appearance. A series named "<group> <kind>" takes its
// colour from the group and its dash pattern from the kind, so "kvserver used_memory" and
// "kvserver RSS" read as a pair beside "Redis used_memory" and "Redis RSS".
//
//	chart -title 'Bytes per key' -xlabel 'value size' -ylabel 'bytes per key' < data.tsv > chart.svg
//
// With -bars it draws grouped bars instead from rows of series, category, value: one group per
// category, one bar per series, each labelled with its figure; with -ref the bars' heights are
// percentages of the named series' figure in each category (see barChart).
//
//	chart -bars -ref 'Redis used_memory' -title 'Bytes per element' < data.tsv > chart.svg
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() {
	var c chart
	flag.StringVar(&c.title, "title", "", "chart title")
	flag.StringVar(&c.xlabel, "xlabel", "", "x axis label")
	flag.StringVar(&c.ylabel, "ylabel", "", "y axis label")
	flag.Float64Var(&c.xstep, "xstep", 0, "x tick spacing (0: automatic)")
	bars := flag.Bool("bars", false, "grouped bars from rows of series, category, value")
	ref := flag.String("ref", "", "with -bars: draw every bar as a percentage of this series' figure in its category")
	flag.Parse()
	out, err := "", error(nil)
	if *bars {
		b := barChart{title: c.title, ylabel: c.ylabel, ref: *ref}
		if err = b.read(os.Stdin); err == nil {
			out, err = b.svg()
		}
	} else if err = c.read(os.Stdin); err == nil {
		out = c.svg()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "chart:", err)
		os.Exit(1)
	}
	os.Stdout.WriteString(out)
}

// series is one line of the chart.
type series struct {
	name string
	x, y []float64
}

// chart holds the labels and the data read from the TSV.
type chart struct {
	title, xlabel, ylabel string
	xstep                 float64
	series                []*series
}

// read appends the rows of a TSV (series, x, y) to the chart's series; blank lines are skipped.
func (c *chart) read(r io.Reader) error {
	byName := map[string]*series{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 {
			return fmt.Errorf("line %d: want series<TAB>x<TAB>y, got %q", n, sc.Text())
		}
		x, errx := strconv.ParseFloat(f[1], 64)
		y, erry := strconv.ParseFloat(f[2], 64)
		if errx != nil || erry != nil {
			return fmt.Errorf("line %d: x and y must be numbers: %q", n, sc.Text())
		}
		s := byName[f[0]]
		if s == nil {
			s = &series{name: f[0]}
			byName[f[0]] = s
			c.series = append(c.series, s)
		}
		s.x, s.y = append(s.x, x), append(s.y, y)
	}
	return sc.Err()
}
