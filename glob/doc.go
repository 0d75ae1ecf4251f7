// Package glob is Redis's glob-style matcher (stringmatchlen in src/util.c), used by KEYS, SCAN
// MATCH, CONFIG GET, PSUBSCRIBE and friends.
//
// The rules are Redis 7.2's, byte for byte:
//
//   - `*` matches any run of bytes, `?` exactly one byte;
//   - `[...]` matches one byte from a class of literals and ranges `a-z`; a reversed range
//     `z-a` is swapped; `[^...]` negates the class; `\x` inside a class is the literal x;
//   - `\x` outside a class is the literal x; a trailing lone `\` is a literal backslash;
//   - a class that is never closed takes the rest of the pattern (`[abc` is the class
//     {a,b,c}), `[` alone matches nothing and `[^` any one byte; `[]` is an empty class that
//     never matches and `[^]` matches any byte;
//   - with nocase, literals and range bounds are compared through C's tolower (ASCII only); a
//     range is swapped first and lowered second, as Redis does, so `[Z-a]` matches nothing
//     without case; an escaped byte inside a class is always compared exactly;
//   - range bounds compare as C's signed char (x86-64, arm64 Linux builds of Redis treat
//     bytes >= 0x80 as negative: `[a-\xff]` is the range -1..97);
//   - an empty string is matched only by an empty pattern: `*` does not match "". Redis's
//     KEYS and SCAN never ask, since they skip matching for the pattern `*`.
//
// Redis guards its recursive matcher against exponential patterns with a nesting limit of
// 1000 stars and the "skipLongerMatches" cut. This package does not recurse: it is the
// classic wildcard matcher that, on a mismatch, backtracks to the most recent star only,
// so a match costs at most O(len(pattern)·len(s)) steps and allocates nothing. Unlike
// Redis it has no nesting limit, so a pattern with more than 1000 separate stars still
// matches correctly where Redis 7.2 answers "no match".
package glob
