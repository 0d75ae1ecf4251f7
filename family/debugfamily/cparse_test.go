package debugfamily

import "testing"

func TestStrtodAtoi(t *testing.T) {
	for in, want := range map[string]float64{"1.5": 1.5, " 2": 2, "abc": 0, "3x": 3, "-1": -1, ".5": 0.5, "1e2": 100, "1e": 1, "": 0} {
		if got := strtod([]byte(in)); got != want {
			t.Errorf("strtod(%q) = %v, want %v", in, got, want)
		}
	}
	for in, want := range map[string]int64{"1": 1, "0": 0, "foo": 0, " 12x": 12, "-3": -3, "": 0} {
		if got := atoi([]byte(in)); got != want {
			t.Errorf("atoi(%q) = %d, want %d", in, got, want)
		}
	}
}
