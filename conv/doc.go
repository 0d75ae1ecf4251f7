// Package conv holds Redis's conversions between arguments and numbers (util.c): string2ll
// for integer arguments, string2ld and ld2string for INCRBYFLOAT's long double, and the
// case-insensitive token comparison every option parser uses. They allocate nothing on the
// paths a command's arguments take (String2ll, EqFold), so handlers can call them per command.
// Each reads its input and keeps no reference to it.
package conv
