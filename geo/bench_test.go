package geo

import "testing"

func BenchmarkScore(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Score(13.361389+float64(i&1023)*1e-4, 38.115556)
	}
}

func BenchmarkDecodeScore(b *testing.B) {
	b.ReportAllocs()
	s, _ := Score(13.361389, 38.115556)
	for i := 0; b.Loop(); i++ {
		DecodeScore(s + float64(i&1023))
	}
}

func BenchmarkDistance(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Distance(13.361389, 38.115556, 15.087269+float64(i&1023)*1e-4, 37.502669)
	}
}

func BenchmarkAreasByShape(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s := Shape{Type: Circle, Long: 15 + float64(i&1023)*1e-3, Lat: 37, Radius: 10, Conversion: Kilometers}
		AreasByShape(&s)
	}
}

func BenchmarkAppendCoord(b *testing.B) {
	b.ReportAllocs()
	var buf [32]byte
	for i := 0; b.Loop(); i++ {
		AppendCoord(buf[:0], 13.36138933897018433+float64(i&1023))
	}
}
