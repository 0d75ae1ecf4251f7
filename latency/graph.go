package latency

import (
	"fmt"
	"math"
	"strings"
)

// graphCols is LATENCY_GRAPH_COLS: the width of LATENCY GRAPH.
const graphCols = 80

// Graph is LATENCY GRAPH's text for event (latencyCommandGenSparkeline); ok is false when the
// event has no series.
func (m *Monitor) Graph(event string) (text string, ok bool) {
	var ts *series
	for _, s := range m.snapshot() {
		if s.name == event {
			ts = &s
			break
		}
	}
	if ts == nil {
		return "", false
	}
	now := m.now()
	var seq sparkline
	var lo, hi uint32
	for j := 0; j < tsLen; j++ {
		s := ts.samples[(ts.idx+j)%tsLen]
		if s.time == 0 {
			continue
		}
		if len(seq.samples) == 0 {
			lo, hi = s.latency, s.latency
		} else {
			hi, lo = max(hi, s.latency), min(lo, s.latency)
		}
		// The label says how long ago the sample was: seconds, minutes, hours or days.
		elapsed := now - int64(s.time)
		var label string
		switch {
		case elapsed < 60:
			label = fmt.Sprintf("%ds", elapsed)
		case elapsed < 3600:
			label = fmt.Sprintf("%dm", elapsed/60)
		case elapsed < 3600*24:
			label = fmt.Sprintf("%dh", elapsed/3600)
		default:
			label = fmt.Sprintf("%dd", elapsed/(3600*24))
		}
		seq.add(float64(s.latency), label)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s - high %d ms, low %d ms (all time high %d ms)\n", ts.name, hi, lo, ts.max)
	b.WriteString(strings.Repeat("-", graphCols))
	b.WriteByte('\n')
	seq.render(&b, graphCols, 4)
	return b.String(), true
}

// sparkline is Redis's sparkline.c sequence, rendered with SPARKLINE_FILL (the only way
// LATENCY GRAPH draws it).
type sparkline struct {
	samples  []sparkSample
	min, max float64
	labels   int
}

type sparkSample struct {
	value float64
	label string
}

func (s *sparkline) add(v float64, label string) {
	if len(s.samples) == 0 {
		s.min, s.max = v, v
	} else if v < s.min {
		s.min = v
	} else if v > s.max {
		s.max = v
	}
	s.samples = append(s.samples, sparkSample{v, label})
	if label != "" {
		s.labels++
	}
}

// render is sparklineRender: the samples in ranges of columns, rows rows high.
func (s *sparkline) render(b *strings.Builder, columns, rows int) {
	for j := 0; j < len(s.samples); j += columns {
		if j != 0 {
			b.WriteByte('\n')
		}
		s.renderRange(b, rows, j, min(columns, len(s.samples)-j))
	}
}

// The characters of a filled sparkline, three steps per row, and the label's distance below.
const (
	charsetFill    = "_o#"
	labelMarginTop = 1
)

// renderRange is sparklineRenderRange with SPARKLINE_FILL.
func (s *sparkline) renderRange(b *strings.Builder, rows, offset, n int) {
	relmax := s.max - s.min
	if relmax == 0 {
		relmax = 1
	}
	steps := len(charsetFill) * rows
	chars := make([]byte, n)
	for row := 0; ; {
		loop := false
		for j := range chars {
			chars[j] = ' '
		}
		for j := 0; j < n; j++ {
			smp := &s.samples[j+offset]
			relval := smp.value - s.min
			// As the C: (int)(relval*steps) divided by relmax, truncated again.
			step := int(float64(int(relval*float64(steps))) / relmax)
			if math.IsNaN(relval) {
				step = 0
			}
			step = min(max(step, 0), steps-1)
			if row < rows {
				loop = true
				charidx := step - (rows-row-1)*len(charsetFill)
				if charidx >= 0 && charidx < len(charsetFill) {
					chars[j] = charsetFill[charidx]
				} else if charidx >= len(charsetFill) {
					chars[j] = '|'
				}
				continue
			}
			if s.labels > 0 && row-rows < labelMarginTop {
				loop = true
				break
			}
			labelChar := row - rows - labelMarginTop
			if len(smp.label) > labelChar {
				loop = true
				chars[j] = smp.label[labelChar]
			}
		}
		if !loop {
			return
		}
		row++
		b.Write(chars)
		b.WriteByte('\n')
	}
}
