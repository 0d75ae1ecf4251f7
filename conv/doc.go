// Package conv is the one home of Redis's conversions (util.c, sds.c): string2ll for integer
// arguments, configuration values and protocol lengths; C's strtoll and strtoull as Redis's
// callers use them; isspace; string2ld and ld2string for INCRBYFLOAT's long double;
// sdssplitargs (inline commands, configuration lines) and sdscatrepr (their quoting); and the
// case-insensitive token comparison every option parser uses.
//
// The parsers take a []byte argument or a string alike (Text). They allocate nothing on the
// paths a command's arguments take (String2ll, EqFold, NextArg into a buffer with room), so
// handlers can call them per command. Each reads its input and keeps no reference to it.
//
// conv imports nothing of the project: every package above may use it.
package conv
