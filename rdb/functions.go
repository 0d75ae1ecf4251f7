package rdb

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// A function library is stored as opcode 245 (Redis's RDB_OPCODE_FUNCTION2) and the library's
// code as one string ("#!lua name=…" and the rest: the name, engine and functions are in the
// code). Redis writes them after the AUX fields, before the first database; FUNCTION DUMP's
// payload is the same records followed by a DUMP footer (the RDB version, two bytes little
// endian, and the CRC-64 of all that precedes it, little endian).

// OpFunction is the opcode of one function library.
const OpFunction = opFunction2

// Errors of DecodeFunctionDump, worded as Redis's FUNCTION RESTORE replies.
var (
	ErrFunctionPayload = errors.New("ERR DUMP payload version or checksum are wrong")
	ErrFunctionPreGA   = errors.New("ERR Pre-GA function format not supported")
	ErrNotFunction     = errors.New("ERR given type is not a function")
	ErrFunctionLoad    = errors.New("ERR Failed loading library payload")
)

// WriteFunction writes one function library's record: the opcode and the code as a string
// (LZF-compressed when Compress allows, as Redis's rdbSaveRawString).
func (e *Encoder) WriteFunction(code []byte) error {
	e.buf = AppendFunction(e.buf[:0], code, e.Compress)
	e.flushBuf()
	return e.err
}

// AppendFunction appends one function library's record to b: opcode 245 and code as a string,
// compressed when compress allows (strings over 20 bytes that LZF shortens).
func AppendFunction(b, code []byte, compress bool) []byte {
	return appendString(append(b, OpFunction), code, compress)
}

// EncodeFunctionDump returns FUNCTION DUMP's payload of the libraries whose codes are given, in
// that order: each library's record (compressed, as Redis's default rdbcompression), then the
// RDB version (11) and the CRC-64.
func EncodeFunctionDump(codes [][]byte) []byte {
	return encodeFunctionDumpVersion(codes, Version, true)
}

func encodeFunctionDumpVersion(codes [][]byte, version int, compress bool) []byte {
	var b []byte
	for _, c := range codes {
		b = AppendFunction(b, c, compress)
	}
	return finishDumpVersion(b, version)
}

// DecodeFunctionDump checks FUNCTION RESTORE's payload and returns the code of each library in
// it, in its order. Errors are Redis's replies: ErrFunctionPayload when the payload is shorter
// than its footer, its RDB version is above 11 or its CRC-64 does not match; ErrFunctionPreGA
// for opcode 246; ErrNotFunction for any other record; ErrFunctionLoad for a code that cannot
// be read (truncated, corrupt). As Redis, records are read while more than the 10 bytes of the
// footer remain; unlike Redis, a record may not run into the footer.
func DecodeFunctionDump(payload []byte) ([][]byte, error) {
	n := len(payload)
	if n < 10 {
		return nil, ErrFunctionPayload
	}
	if binary.LittleEndian.Uint16(payload[n-10:]) > Version ||
		CRC64(payload[:n-8]) != binary.LittleEndian.Uint64(payload[n-8:]) {
		return nil, ErrFunctionPayload
	}
	body := payload[:n-10]
	var codes [][]byte
	for len(body) > 0 {
		switch body[0] {
		case OpFunction:
		case opFunctionPreGA:
			return nil, ErrFunctionPreGA
		default:
			return nil, ErrNotFunction
		}
		code, rest, err := readStringBytes(body[1:])
		if err != nil {
			return nil, ErrFunctionLoad
		}
		codes = append(codes, code)
		body = rest
	}
	return codes, nil
}

// readStringBytes reads one RDB string in any encoding from the head of b: the string (a new
// slice) and what follows it.
func readStringBytes(b []byte) (s, rest []byte, err error) {
	br := bytes.NewReader(b)
	d := &Decoder{r: bufio.NewReaderSize(br, 16)}
	if s, err = d.readString(slotNone); err != nil {
		return nil, nil, err
	}
	used := len(b) - br.Len() - d.r.Buffered()
	return s, b[used:], nil
}

// readFunction reads the code of a function library record (after its opcode) and hands it to
// OnFunction; without OnFunction the record is unsupported, as before functions existed here.
func (d *Decoder) readFunction() error {
	if d.OnFunction == nil {
		return &UnsupportedOpcodeError{opFunction2, "functions"}
	}
	code, err := d.readString(slotNone)
	if err != nil {
		return err
	}
	if err := d.OnFunction(code); err != nil {
		return fmt.Errorf("Failed loading library, %w", err)
	}
	return nil
}
