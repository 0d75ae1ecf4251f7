package debugfamily

import (
	"strconv"

	"github.com/kvserver/kvserver/conv"
)

// strtod reads the longest prefix of b that C's strtod would take as a decimal number (leading
// spaces, a sign, digits with one point, an exponent); 0 if there is none.
func strtod(b []byte) float64 {
	i := 0
	for i < len(b) && conv.IsSpace(b[i]) {
		i++
	}
	start := i
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	digits := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(b) && b[i] == '.' {
		i++
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return 0
	}
	end := i
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		j := i + 1
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if j < len(b) && b[j] >= '0' && b[j] <= '9' {
			for j < len(b) && b[j] >= '0' && b[j] <= '9' {
				j++
			}
			end = j
		}
	}
	v, _ := strconv.ParseFloat(string(b[start:end]), 64) // ±Inf on overflow, as strtod's HUGE_VAL
	return v
}

// atoi is C's atoi: leading spaces, a sign, digits; 0 if there are none.
func atoi(b []byte) int64 {
	i := 0
	for i < len(b) && conv.IsSpace(b[i]) {
		i++
	}
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	var v int64
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		v = v*10 + int64(b[i]-'0')
	}
	if neg {
		return -v
	}
	return v
}
