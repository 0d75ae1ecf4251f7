// Package logging builds kvserver's process logger from three directives: loglevel, logfile
// and log-format. It is a zap logger whose lines are Redis's:
//
//   - legacy (the default): Redis's line, `pid:role dd Mon yyyy hh:mm:ss.mmm <mark> message`,
//     the mark being '.' debug, '-' verbose, '*' notice, '#' warning, as serverLogRaw writes it;
//   - logfmt: Valkey 8.1's `pid=… role=… timestamp="…" level=… message="…"`;
//   - json: zap's JSON object per line.
//
// Fields given at a call site (zap.String("addr", …)) follow the message as ` key=value` in
// both line formats, and are members of the object in json. No format writes a stack trace.
// log-format can change at run time (SetFormat): every format has its core, and each entry
// goes to the one the directive names at that moment.
package logging
