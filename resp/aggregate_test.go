package resp

import "testing"

func TestAggregates(t *testing.T) {
	runCases(t, []protoCase{
		same("Array", func(w *Writer) { w.Array(2); w.Int(1); w.BulkString("a") }, "*2\r\n:1\r\n$1\r\na\r\n"),
		same("Array empty", func(w *Writer) { w.Array(0) }, "*0\r\n"),
		same("Array 10", func(w *Writer) { w.Array(10) }, "*10\r\n"),
		{"Map", func(w *Writer) { w.Map(1); w.BulkString("k"); w.Int(7) },
			"*2\r\n$1\r\nk\r\n:7\r\n", "%1\r\n$1\r\nk\r\n:7\r\n"},
		{"Map empty", func(w *Writer) { w.Map(0) }, "*0\r\n", "%0\r\n"},
		{"Map 5", func(w *Writer) { w.Map(5) }, "*10\r\n", "%5\r\n"},
		{"Set", func(w *Writer) { w.Set(2); w.BulkString("a"); w.BulkString("b") },
			"*2\r\n$1\r\na\r\n$1\r\nb\r\n", "~2\r\n$1\r\na\r\n$1\r\nb\r\n"},
		{"Set 12", func(w *Writer) { w.Set(12) }, "*12\r\n", "~12\r\n"},
		{"Push", func(w *Writer) {
			w.Push(3)
			w.BulkString("message")
			w.BulkString("ch")
			w.BulkString("hi")
		}, "*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$2\r\nhi\r\n", ">3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$2\r\nhi\r\n"},
		{"Attribute", func(w *Writer) {
			if w.Attribute(1) {
				w.BulkString("ttl")
				w.Int(3600)
			}
			w.BulkString("v")
		}, "$1\r\nv\r\n", "|1\r\n$3\r\nttl\r\n:3600\r\n$1\r\nv\r\n"},
		{"NullArray", func(w *Writer) { w.NullArray() }, "*-1\r\n", "_\r\n"},
		{"nested", func(w *Writer) {
			w.Array(2)
			w.Map(1)
			w.BulkString("a")
			w.Set(1)
			w.Double(0.5)
			w.Null()
		}, "*2\r\n*2\r\n$1\r\na\r\n*1\r\n$3\r\n0.5\r\n$-1\r\n", "*2\r\n%1\r\n$1\r\na\r\n~1\r\n,0.5\r\n_\r\n"},
	})
}

func TestAggregateAttributeResult(t *testing.T) {
	var w Writer
	if w.Attribute(2) {
		t.Error("Attribute under RESP2 reported true")
	}
	if w.Len() != 0 {
		t.Errorf("Attribute under RESP2 wrote %q", w.Bytes())
	}
	w.SetProto(3)
	if !w.Attribute(2) {
		t.Error("Attribute under RESP3 reported false")
	}
}

func TestAggregateNegativePanics(t *testing.T) {
	for name, f := range map[string]func(w *Writer){
		"Array":     func(w *Writer) { w.Array(-1) },
		"Map":       func(w *Writer) { w.Map(-1) },
		"Set":       func(w *Writer) { w.Set(-1) },
		"Push":      func(w *Writer) { w.Push(-1) },
		"Attribute": func(w *Writer) { w.Attribute(-1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s(-1) did not panic", name)
				}
			}()
			var w Writer
			f(&w)
		}()
	}
}
