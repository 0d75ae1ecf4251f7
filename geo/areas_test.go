package geo

import (
	"strconv"
	"strings"
	"testing"
)

// TestAreasVectors compares AreasByShape and Distance with Redis's own C functions compiled
// (testdata/areas.txt): the nine cells exactly; the bounding box and distances to the bit
// except where Go's math.Cos/Sin/Asin and glibc's differ in their last bits: about one distance
// in three (relative differences up to 5e-15, 0.1 µm at 20,000 km; DistanceExact's tests hold
// the bits), no box since the bounding box uses cosCR.
func TestAreasVectors(t *testing.T) {
	data, err := readLines("testdata/areas.txt")
	if err != nil {
		t.Fatal(err)
	}
	var shapes, dists, boundsOff, distOff int
	for _, line := range data {
		f := strings.Fields(line)
		switch f[0] {
		case "D":
			dists++
			want := hexFloat(t, f[5])
			got := Distance(num(t, f[1]), num(t, f[2]), num(t, f[3]), num(t, f[4]))
			if got != want {
				distOff++
				if rel := (got - want) / want; rel > distanceError/2 || rel < -distanceError/2 {
					t.Errorf("%s: distance %v, C %v", line, got, want)
				}
			}
		case "C", "B":
			shapes++
			s := Shape{Long: num(t, f[1]), Lat: num(t, f[2]), Conversion: num(t, f[5])}
			if f[0] == "C" {
				s.Type, s.Radius = Circle, num(t, f[3])
			} else {
				s.Type, s.Width, s.Height = Rectangle, num(t, f[3]), num(t, f[4])
			}
			r := AreasByShape(&s)
			for i := range 4 {
				if s.Bounds[i] != hexFloat(t, f[6+i]) {
					boundsOff++
					break
				}
			}
			for i, c := range r.Cells() {
				if got := strconv.FormatUint(c.Bits, 10) + "/" + strconv.Itoa(int(c.Step)); got != f[10+i] {
					t.Errorf("%s: cell %d is %s", strings.Join(f[:6], " "), i, got)
				}
			}
		}
	}
	if shapes < 500 || dists < 2000 {
		t.Fatalf("%d shapes, %d distances", shapes, dists)
	}
	t.Logf("%d shapes (%d bounding boxes off by an ulp), %d distances (%d off by an ulp)", shapes, boundsOff, dists, distOff)
	if boundsOff > 0 || distOff > dists/2 {
		t.Errorf("too many last-bit differences: %d boxes, %d distances", boundsOff, distOff)
	}
}

func hexFloat(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
