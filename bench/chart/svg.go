package main

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// The canvas and the plot area inside it, in SVG user units.
const (
	width, height           = 900, 520
	left, right, top, below = 80, 30, 50, 60
	plotW, plotH            = width - left - right, height - top - below
)

var (
	colours = []string{"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e"}
	dashes  = []string{"", "6 4", "2 3", "10 3 2 3"}
)

// svg renders the chart; both axes start at 0.
func (c *chart) svg() string {
	var xmax, ymax float64
	for _, s := range c.series {
		for i := range s.x {
			xmax, ymax = max(xmax, s.x[i]), max(ymax, s.y[i])
		}
	}
	xstep := c.xstep
	if xstep <= 0 {
		xstep = niceStep(xmax)
	}
	ystep := niceStep(ymax)
	xmax = max(xstep, math.Ceil(xmax/xstep)*xstep)
	ymax = max(ystep, math.Ceil(ymax/ystep)*ystep)
	px := func(x float64) float64 { return left + x/xmax*plotW }
	py := func(y float64) float64 { return top + plotH - y/ymax*plotH }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="28" font-size="16" text-anchor="middle">%s</text>`+"\n", width/2, esc(c.title))
	for i := 0; float64(i)*xstep <= xmax+xstep/2; i++ {
		x := float64(i) * xstep
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e5e5e5"/>`+"\n", px(x), top, px(x), top+plotH)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", px(x), top+plotH+18, num(x, xstep))
	}
	for i := 0; float64(i)*ystep <= ymax+ystep/2; i++ {
		y := float64(i) * ystep
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e5e5e5"/>`+"\n", left, py(y), left+plotW, py(y))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left-8, py(y)+4, num(y, ystep))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>`+"\n", left, top, plotW, plotH)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", left+plotW/2, height-15, esc(c.xlabel))
	fmt.Fprintf(&b, `<text transform="translate(22 %d) rotate(-90)" text-anchor="middle">%s</text>`+"\n", top+plotH/2, esc(c.ylabel))

	groups, kinds := map[string]int{}, map[string]int{}
	for i, s := range c.series {
		group, kind, _ := strings.Cut(s.name, " ")
		g, ok := groups[group]
		if !ok {
			g = len(groups)
			groups[group] = g
		}
		k, ok := kinds[kind]
		if !ok {
			k = len(kinds)
			kinds[kind] = k
		}
		colour, dash := colours[g%len(colours)], dashes[k%len(dashes)]
		var pts []string
		for j := range s.x {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(s.x[j]), py(s.y[j])))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.8" stroke-dasharray="%s" points="%s"><title>%s</title></polyline>`+"\n",
			colour, dash, strings.Join(pts, " "), esc(s.name))
		// The legend, top left, where lines that grow with x leave room.
		ly := top + 20 + 20*i
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2" stroke-dasharray="%s"/>`+"\n", left+14, ly, left+44, ly, colour, dash)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", left+52, ly+4, esc(s.name))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// niceStep returns a tick spacing of 1, 2 or 5 times a power of ten giving 5 to 10 ticks up to
// v.
func niceStep(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v/5)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v/(m*p) <= 10 {
			return m * p
		}
	}
	return 10 * p
}

// num formats a tick label with as many decimals as the tick spacing needs.
func num(v, step float64) string {
	return strconv.FormatFloat(v, 'f', max(0, int(math.Ceil(-math.Log10(step)))), 64)
}

// esc escapes text for SVG.
func esc(s string) string { return html.EscapeString(s) }
