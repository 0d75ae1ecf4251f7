package funclib

import (
	"bytes"
	"strings"

	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/replyerr"
)

// Errors of a library's metadata line and name, in Redis's words (functions.c).
const (
	errMissingMetadata = replyerr.Error("ERR Missing library metadata")
	errInvalidMetadata = replyerr.Error("ERR Invalid library metadata")
	errNameTwice       = replyerr.Error("ERR Invalid metadata value, name argument was given multiple times")
	errNoName          = replyerr.Error("ERR Library name was not given")
	errBadName         = replyerr.Error("ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long")
)

// metadata is what a library's first line declares: "#!<engine> name=<name>".
type metadata struct {
	engine, name string
}

// parseMetadata reads a library's first line as Redis's functionExtractLibMetaData: it must
// start with "#!" and end with a newline; its words (split as sdssplitargs) are the engine
// (after "#!") and name=<name> once (the key without case), nothing else. Redis reads the code
// as a C string: a NUL before the newline hides it.
func parseMetadata(code []byte) (metadata, error) {
	if !bytes.HasPrefix(code, []byte("#!")) {
		return metadata{}, errMissingMetadata
	}
	line := code
	if i := bytes.IndexByte(line, 0); i >= 0 {
		line = line[:i]
	}
	end := bytes.IndexByte(line, '\n')
	if end < 0 {
		return metadata{}, errInvalidMetadata
	}
	parts, ok := conv.SplitArgs(line[:end])
	if !ok || len(parts) == 0 {
		return metadata{}, errInvalidMetadata
	}
	md := metadata{engine: strings.TrimPrefix(parts[0], "#!")}
	named := false
	for _, p := range parts[1:] {
		if len(p) >= 5 && strings.EqualFold(p[:5], "name=") {
			if named {
				return metadata{}, errNameTwice
			}
			md.name, named = p[5:], true
			continue
		}
		return metadata{}, replyerr.Error("ERR Invalid metadata value given: " + p)
	}
	if !named {
		return metadata{}, errNoName
	}
	if !validName(md.name) {
		return metadata{}, errBadName
	}
	return md, nil
}

// validName reports whether name is a valid library (or function) name: one or more letters,
// digits or underscores (functionsVerifyName).
func validName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
