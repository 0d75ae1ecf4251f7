package logging

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"go.uber.org/zap/zapcore"
)

// fieldWriter renders zap fields as ` key=value` pairs, in the order given, for the line
// formats. A value is written bare when it is a plain word, else as a Go-quoted string (what
// logfmt parsers read): empty, or holding a space, '=', '"', '\' or a character that does not
// print. Arrays are their elements joined by ','; objects and reflected values are JSON.
// It is the zapcore.ObjectEncoder of the line encoders (the fields of logger.With too).
type fieldWriter struct {
	buf []byte
	ns  string // the open namespaces, "a.b." (OpenNamespace)
}

func (w *fieldWriter) add(key, val string) {
	w.buf = append(w.buf, ' ')
	w.buf = append(w.buf, w.ns...)
	w.buf = append(w.buf, key...)
	w.buf = append(w.buf, '=')
	w.buf = appendValue(w.buf, val)
}

// appendValue appends v bare or quoted (see fieldWriter).
func appendValue(b []byte, v string) []byte {
	if needsQuotes(v) {
		return strconv.AppendQuote(b, v)
	}
	return append(b, v...)
}

func needsQuotes(v string) bool {
	if v == "" {
		return true
	}
	for _, r := range v {
		if r <= ' ' || r == '=' || r == '"' || r == '\\' || r == utf8.RuneError || !unicode.IsPrint(r) {
			return true
		}
	}
	return false
}

// The zapcore.ObjectEncoder methods.

func (w *fieldWriter) AddArray(key string, v zapcore.ArrayMarshaler) error {
	m := zapcore.NewMapObjectEncoder()
	err := m.AddArray(key, v)
	elems, _ := m.Fields[key].([]interface{})
	parts := make([]string, len(elems))
	for i, e := range elems {
		parts[i] = valueText(e)
	}
	w.add(key, strings.Join(parts, ","))
	return err
}

func (w *fieldWriter) AddObject(key string, v zapcore.ObjectMarshaler) error {
	m := zapcore.NewMapObjectEncoder()
	err := v.MarshalLogObject(m)
	w.add(key, valueText(m.Fields))
	return err
}

func (w *fieldWriter) AddBinary(key string, v []byte) {
	w.add(key, base64.StdEncoding.EncodeToString(v))
}
func (w *fieldWriter) AddByteString(key string, v []byte) { w.add(key, string(v)) }
func (w *fieldWriter) AddBool(key string, v bool)         { w.add(key, strconv.FormatBool(v)) }
func (w *fieldWriter) AddComplex128(key string, v complex128) {
	w.add(key, strconv.FormatComplex(v, 'g', -1, 128))
}
func (w *fieldWriter) AddComplex64(key string, v complex64) {
	w.add(key, strconv.FormatComplex(complex128(v), 'g', -1, 64))
}
func (w *fieldWriter) AddDuration(key string, v time.Duration) { w.add(key, v.String()) }
func (w *fieldWriter) AddFloat64(key string, v float64) {
	w.add(key, strconv.FormatFloat(v, 'g', -1, 64))
}
func (w *fieldWriter) AddFloat32(key string, v float32) {
	w.add(key, strconv.FormatFloat(float64(v), 'g', -1, 32))
}
func (w *fieldWriter) AddInt(key string, v int)         { w.AddInt64(key, int64(v)) }
func (w *fieldWriter) AddInt64(key string, v int64)     { w.add(key, strconv.FormatInt(v, 10)) }
func (w *fieldWriter) AddInt32(key string, v int32)     { w.AddInt64(key, int64(v)) }
func (w *fieldWriter) AddInt16(key string, v int16)     { w.AddInt64(key, int64(v)) }
func (w *fieldWriter) AddInt8(key string, v int8)       { w.AddInt64(key, int64(v)) }
func (w *fieldWriter) AddString(key, v string)          { w.add(key, v) }
func (w *fieldWriter) AddTime(key string, v time.Time)  { w.add(key, v.Format(time.RFC3339Nano)) }
func (w *fieldWriter) AddUint(key string, v uint)       { w.AddUint64(key, uint64(v)) }
func (w *fieldWriter) AddUint64(key string, v uint64)   { w.add(key, strconv.FormatUint(v, 10)) }
func (w *fieldWriter) AddUint32(key string, v uint32)   { w.AddUint64(key, uint64(v)) }
func (w *fieldWriter) AddUint16(key string, v uint16)   { w.AddUint64(key, uint64(v)) }
func (w *fieldWriter) AddUint8(key string, v uint8)     { w.AddUint64(key, uint64(v)) }
func (w *fieldWriter) AddUintptr(key string, v uintptr) { w.AddUint64(key, uint64(v)) }

func (w *fieldWriter) AddReflected(key string, v interface{}) error {
	w.add(key, valueText(v))
	return nil
}

// OpenNamespace prefixes the keys of the fields that follow with key and a dot.
func (w *fieldWriter) OpenNamespace(key string) { w.ns += key + "." }

// valueText is an element of an array or a reflected value as text: strings as they are,
// numbers and durations as fmt prints them, maps, slices and structs as JSON.
func valueText(v interface{}) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case error:
		return x.Error()
	case fmt.Stringer:
		return x.String()
	case nil, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr,
		float32, float64, complex64, complex128:
		return fmt.Sprint(x)
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprint(v)
}
