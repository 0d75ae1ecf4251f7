package info

import (
	"strconv"
	"strings"
)

// fields appends "name:value\r\n" lines to a section.
type fields struct{ b *strings.Builder }

func (f fields) str(name, v string) {
	f.b.WriteString(name)
	f.b.WriteByte(':')
	f.b.WriteString(v)
	f.b.WriteString("\r\n")
}

func (f fields) int(name string, v int64) { f.str(name, strconv.FormatInt(v, 10)) }

// float2 writes v as C's "%.2f".
func (f fields) float2(name string, v float64) { f.str(name, strconv.FormatFloat(v, 'f', 2, 64)) }

// bytes writes n and, as name_human, its bytesToHuman form.
func (f fields) bytes(name string, n int64) {
	f.int(name, n)
	f.str(name+"_human", bytesHuman(n))
}

// bytesHuman formats n as Redis's bytesToHuman: 918B, 1.50K, 2.00M, … up to P, then "B" again
// for what no unit holds (and for negative values, as Redis's "%lluB" of a negative).
func bytesHuman(n int64) string {
	const k = 1024
	units := [...]struct {
		limit float64
		div   float64
		unit  string
	}{
		{k * k, k, "K"}, {k * k * k, k * k, "M"}, {k * k * k * k, k * k * k, "G"},
		{k * k * k * k * k, k * k * k * k, "T"}, {k * k * k * k * k * k, k * k * k * k * k, "P"},
	}
	if n < 0 || n < k {
		return strconv.FormatInt(n, 10) + "B"
	}
	d := float64(n)
	for _, u := range units {
		if d < u.limit {
			return strconv.FormatFloat(d/u.div, 'f', 2, 64) + u.unit
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}

// percent is 100*part/whole to two decimals and a '%', as "%.2f%%" (whole 0 counts as 1).
func percent(part, whole int64) string {
	return strconv.FormatFloat(100*float64(part)/float64(max(whole, 1)), 'f', 2, 64) + "%"
}
