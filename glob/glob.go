package glob

// Match reports whether s matches the glob pattern, under Redis 7.2's rules (see the
// package documentation). With nocase, ASCII letters compare without case. It allocates
// nothing and runs in O(len(pattern)·len(s)) time at worst.
func Match(pattern, s []byte, nocase bool) bool {
	return match(pattern, s, nocase)
}

// MatchString is Match for strings.
func MatchString(pattern, s string, nocase bool) bool {
	return match(pattern, s, nocase)
}

// HasMeta reports whether pattern contains `*`, `?` or `[`: the test Redis's CONFIG GET
// makes before it matches (a name without them is looked up directly).
func HasMeta(pattern string) bool {
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '*', '?', '[':
			return true
		}
	}
	return false
}

type text interface{ ~string | ~[]byte }

// match walks pattern and s once, remembering the last star seen. Every token other
// than a star consumes exactly one byte of s, so when a token fails it is enough to let
// the last star swallow one more byte and resume after it: an earlier star could only
// start the rest of the pattern later still, and that suffix has already been tried.
func match[T text](p, s T, nocase bool) bool {
	// Redis's loop runs only while both the pattern and the string are non-empty, so an
	// empty string is matched by the empty pattern alone (not even by "*").
	if len(s) == 0 {
		return len(p) == 0
	}
	pi, si := 0, 0
	starP, starS := -1, 0 // token after the last star, and where in s it was tried
	for si < len(s) {
		if pi < len(p) {
			if p[pi] == '*' {
				for pi < len(p) && p[pi] == '*' {
					pi++
				}
				if pi == len(p) {
					return true // a trailing star takes the rest
				}
				starP, starS = pi, si
				continue
			}
			if next, ok := matchOne(p, pi, s[si], nocase); ok {
				pi = next
				si++
				continue
			}
		}
		if starP < 0 {
			return false
		}
		starS++
		pi, si = starP, starS
	}
	// The string is consumed: only stars may remain.
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// matchOne matches the token at p[i] (not a star) against the byte c. It returns the
// index of the next token, which does not depend on c.
func matchOne[T text](p T, i int, c byte, nocase bool) (int, bool) {
	switch p[i] {
	case '?':
		return i + 1, true
	case '[':
		return matchClass(p, i+1, c, nocase)
	case '\\':
		if len(p)-i >= 2 {
			i++ // `\x` is the literal x; a lone trailing `\` is itself
		}
	}
	return i + 1, equal(p[i], c, nocase)
}

// matchClass matches c against the class whose body starts at p[i] (just after `[`),
// following stringmatchlen's loop step by step, including its handling of a class that
// runs off the end of the pattern.
func matchClass[T text](p T, i int, c byte, nocase bool) (int, bool) {
	n := len(p)
	not := i < n && p[i] == '^'
	if not {
		i++
	}
	matched := false
	for {
		switch {
		case i < n && p[i] == '\\' && n-i >= 2:
			i++
			if p[i] == c { // exact even with nocase, as in Redis
				matched = true
			}
		case i < n && p[i] == ']':
			return i + 1, matched != not
		case i >= n:
			// Unterminated: Redis steps back onto the last byte so that its common
			// "pattern++" lands exactly on the end.
			return n, matched != not
		case n-i >= 3 && p[i+1] == '-':
			start, end, cc := signed(p[i]), signed(p[i+2]), signed(c)
			if start > end {
				start, end = end, start
			}
			if nocase {
				start, end, cc = lower(start), lower(end), lower(cc)
			}
			i += 2
			if cc >= start && cc <= end {
				matched = true
			}
		default:
			if equal(p[i], c, nocase) {
				matched = true
			}
		}
		i++
	}
}

// signed converts a byte as C converts a (signed) char to int.
func signed(b byte) int { return int(int8(b)) }

// lower is C's tolower in the "C" locale: ASCII letters only.
func lower(c int) int {
	if c >= 'A' && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

func equal(a, b byte, nocase bool) bool {
	return a == b || nocase && lower(int(a)) == lower(int(b))
}
