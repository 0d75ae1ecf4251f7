package debugfamily

import (
	"math"
	"strconv"
	"testing"
)

// TestDtoa: fpconv_dtoa's text (Redis 7.2's deps/fpconv), the cases where it differs from
// d2string's (integral values) among them.
func TestDtoa(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "-0"}, {math.Inf(1), "inf"}, {math.Inf(-1), "-inf"},
		{1, "1"}, {-3, "-3"}, {1.5, "1.5"}, {0.1, "0.1"}, {-2.5, "-2.5"}, {1e-300, "1e-300"},
		{1e7, "10000000"}, {12e7, "120000000"}, {1e8, "1e+8"}, {-1e8, "-1e+8"}, {123456789, "123456789"},
		{1.5e17, "1.5e+17"}, {1 << 60, "1152921504606847000"}, {1e18, "1e+18"}, {1e21, "1e+21"},
		{1.5e300, "1.5e+300"}, {123456789012, "123456789012"}, {0.000001, "0.000001"}, {1e-7, "1e-7"},
		{3.141592653589793, "3.141592653589793"}, {1e100, "1e+100"},
	} {
		if got := string(appendDtoa(nil, c.f)); got != c.want {
			t.Errorf("%v: %q, want %q", c.f, got, c.want)
		}
		if got, _ := strconv.ParseFloat(string(appendDtoa(nil, c.f)), 64); got != c.f {
			t.Errorf("%v does not read back: %v", c.f, got)
		}
	}
}
