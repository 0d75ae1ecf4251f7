package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// barChart is the grouped-bar mode (-bars): one group of bars per category, one bar per series
// in each, for figures of different kinds that share no x axis, such as the memory per element
// of a hash, a set and an intset.
//
// With a reference series (-ref), every bar is drawn as a percentage of that series' figure in
// its category, and the bar's label gives the absolute figure. The figures of one chart may differ
// by two orders of magnitude (about 290 bytes per hash, about 4 per integer): on one linear axis
// the small ones would be slivers, a log axis shrinks the differences the chart is there to show
// (10% is a hair at the top of a decade) and gives bars no meaningful base, and a scale per group
// leaves heights that cannot be compared across groups. Relative to Redis's used_memory, every
// group reads on the same axis as the question asked of it — how far from Redis, and which way —
// while the labels keep the figures themselves. Without -ref the axis is the figures themselves.
type barChart struct {
	title, ylabel, ref string
	series             []string              // in order of first appearance
	categories         []string              // in order of first appearance
	value              map[[2]string]float64 // by series and category
}

// read appends the rows of a TSV (series, category, value) to the chart; blank lines are
// skipped, and a repeated series and category keeps its last value.
func (c *barChart) read(r io.Reader) error {
	if c.value == nil {
		c.value = map[[2]string]float64{}
	}
	seenS, seenC := map[string]bool{}, map[string]bool{}
	for _, s := range c.series {
		seenS[s] = true
	}
	for _, cat := range c.categories {
		seenC[cat] = true
	}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 {
			return fmt.Errorf("line %d: want series<TAB>category<TAB>value, got %q", n, sc.Text())
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return fmt.Errorf("line %d: the value must be a number: %q", n, sc.Text())
		}
		if !seenS[f[0]] {
			seenS[f[0]] = true
			c.series = append(c.series, f[0])
		}
		if !seenC[f[1]] {
			seenC[f[1]] = true
			c.categories = append(c.categories, f[1])
		}
		c.value[[2]string{f[0], f[1]}] = v
	}
	return sc.Err()
}

// The bar chart's plot area: the series' legend sits in a row under the title, and the category
// names, wrapped, under the groups.
const (
	barTop, barBelow = 84, 84
	barPlotH         = height - barTop - barBelow
)

// svg renders the chart, or fails when a category has no positive figure of the reference series.
func (c *barChart) svg() (string, error) {
	// scaled is a bar's height in axis units: a percentage of the reference, or the figure.
	scaled := map[[2]string]float64{}
	var ymax float64
	for _, cat := range c.categories {
		ref := 1.0
		if c.ref != "" {
			v, ok := c.value[[2]string{c.ref, cat}]
			if !ok || v <= 0 {
				return "", fmt.Errorf("category %q has no positive value of the reference series %q", cat, c.ref)
			}
			ref = v / 100
		}
		for _, s := range c.series {
			if v, ok := c.value[[2]string{s, cat}]; ok {
				scaled[[2]string{s, cat}] = v / ref
				ymax = max(ymax, v/ref)
			}
		}
	}
	ystep := niceStep(ymax)
	ymax = max(ystep, math.Ceil(ymax/ystep)*ystep)
	unit := ""
	if c.ref != "" {
		unit = "%"
	}
	py := func(y float64) float64 { return barTop + barPlotH - max(0, y)/ymax*barPlotH }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="28" font-size="16" text-anchor="middle">%s</text>`+"\n", width/2, esc(c.title))
	for i := 0; float64(i)*ystep <= ymax+ystep/2; i++ {
		y := float64(i) * ystep
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e5e5e5"/>`+"\n", left, py(y), left+plotW, py(y))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s%s</text>`+"\n", left-8, py(y)+4, num(y, ystep), unit)
	}
	if c.ref != "" {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#777" stroke-dasharray="4 3"/>`+"\n", left, py(100), left+plotW, py(100))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>`+"\n", left, barTop, plotW, barPlotH)
	fmt.Fprintf(&b, `<text transform="translate(22 %d) rotate(-90)" text-anchor="middle">%s</text>`+"\n", barTop+barPlotH/2, esc(c.ylabel))

	// Each series' colour comes from its group and its fill from its kind, as the lines' colour
	// and dash do: the first kind solid, the others paler with a dashed outline.
	style := make([]string, len(c.series))
	groups, kinds := map[string]int{}, map[string]int{}
	for i, s := range c.series {
		group, kind, _ := strings.Cut(s, " ")
		if _, ok := groups[group]; !ok {
			groups[group] = len(groups)
		}
		if _, ok := kinds[kind]; !ok {
			kinds[kind] = len(kinds)
		}
		colour, k := colours[groups[group]%len(colours)], kinds[kind]
		if k == 0 {
			style[i] = fmt.Sprintf(`fill="%s"`, colour)
		} else {
			style[i] = fmt.Sprintf(`fill="%s" fill-opacity="0.35" stroke="%s" stroke-width="1.5" stroke-dasharray="%s"`, colour, colour, dashes[k%len(dashes)])
		}
	}
	// The legend: one row under the title, entries spaced by their names' length.
	x := float64(left)
	for i, s := range c.series {
		fmt.Fprintf(&b, `<rect class="key" x="%.1f" y="%d" width="22" height="12" %s/>`+"\n", x, 46, style[i])
		fmt.Fprintf(&b, `<text x="%.1f" y="%d">%s</text>`+"\n", x+28, 57, esc(s))
		x += 28 + 7.5*float64(len(s)) + 24
	}

	groupW := float64(plotW) / float64(max(1, len(c.categories)))
	barW := min(60, groupW*0.8/float64(max(1, len(c.series))))
	for g, cat := range c.categories {
		x0 := float64(left) + groupW*float64(g) + (groupW-barW*float64(len(c.series)))/2
		for i, s := range c.series {
			v, ok := c.value[[2]string{s, cat}]
			if !ok {
				continue
			}
			h := scaled[[2]string{s, cat}]
			x := x0 + barW*float64(i)
			tip := fmt.Sprintf("%s, %s: %s", s, cat, barLabel(v))
			if c.ref != "" {
				tip += fmt.Sprintf(" (%.0f%% of %s)", h, c.ref)
			}
			fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f" %s><title>%s</title></rect>`+"\n",
				x+1, py(h), barW-2, py(0)-py(h), style[i], esc(tip))
			fmt.Fprintf(&b, `<text class="value" x="%.1f" y="%.1f" font-size="11" text-anchor="middle">%s</text>`+"\n", x+barW/2, py(h)-4, barLabel(v))
		}
		// The category's name, wrapped to the group's width at about 7 units a character.
		cx := float64(left) + groupW*(float64(g)+0.5)
		fmt.Fprintf(&b, `<text class="category" x="%.1f" y="%d" text-anchor="middle">`, cx, barTop+barPlotH+18)
		for j, line := range wrap(cat, int(groupW/7)) {
			fmt.Fprintf(&b, `<tspan x="%.1f" dy="%d">%s</tspan>`, cx, min(j, 1)*16, esc(line))
		}
		b.WriteString("</text>\n")
	}
	b.WriteString("</svg>\n")
	return b.String(), nil
}

// barLabel formats a figure for its bar: one decimal, two below 10, where the targets
// (4.2 bytes per integer) need them.
func barLabel(v float64) string {
	if math.Abs(v) < 10 {
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// wrap breaks s at spaces into lines of at most n bytes where the words allow.
func wrap(s string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > n {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
