package logging

import "go.uber.org/zap/zapcore"

// Redis's four levels as zap levels. zap has no level below debug, so Redis's debug is one
// below it; zap's debug is Redis's verbose (the server's Debug calls are verbose messages),
// info is notice, and warn and above are warning.
const (
	DebugLevel   = zapcore.DebugLevel - 1 // Redis's LL_DEBUG, mark '.'
	VerboseLevel = zapcore.DebugLevel     // LL_VERBOSE, mark '-'
	NoticeLevel  = zapcore.InfoLevel      // LL_NOTICE, mark '*'
	WarningLevel = zapcore.WarnLevel      // LL_WARNING, mark '#'; error and above write '#' too
	// NothingLevel is loglevel nothing: above every level, so nothing is written.
	NothingLevel = zapcore.FatalLevel + 1
)

// Level is the zap level of a Redis loglevel (debug, verbose, notice, warning, nothing);
// anything else is notice, Redis's default.
func Level(loglevel string) zapcore.Level {
	switch loglevel {
	case "debug":
		return DebugLevel
	case "verbose":
		return VerboseLevel
	case "warning":
		return WarningLevel
	case "nothing":
		return NothingLevel
	}
	return NoticeLevel
}

// mark is the character serverLogRaw writes for a level: ".-*#".
func mark(l zapcore.Level) byte {
	switch {
	case l <= DebugLevel:
		return '.'
	case l == VerboseLevel:
		return '-'
	case l == NoticeLevel:
		return '*'
	}
	return '#'
}

// levelName is Valkey's logfmt name of a level: debug, info (verbose), notice, warning.
func levelName(l zapcore.Level) string {
	switch {
	case l <= DebugLevel:
		return "debug"
	case l == VerboseLevel:
		return "info"
	case l == NoticeLevel:
		return "notice"
	}
	return "warning"
}

// jsonLevel names a level in json: zap's lowercase names, Redis's debug being "debug" too.
func jsonLevel(l zapcore.Level, enc zapcore.PrimitiveArrayEncoder) {
	if l < zapcore.DebugLevel {
		l = zapcore.DebugLevel
	}
	enc.AppendString(l.String())
}
