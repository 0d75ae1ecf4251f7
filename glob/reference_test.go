package glob

// redisMatch is a line-by-line port of Redis 7.2's stringmatchlen_impl (src/util.c),
// recursion, nesting limit and skipLongerMatches included. It exists to check Match
// against; it is exponential in the worst case and reads like the C it comes from.
//
// C reads pattern[patternLen] (the sds terminator, NUL) in a few places; at(i) returns 0
// past the end to do the same.
func redisMatch(pattern, s []byte, nocase bool) bool {
	skip := false
	return redisMatchImpl(pattern, 0, s, 0, nocase, &skip, 0)
}

func redisMatchImpl(pat []byte, p int, str []byte, sp int, nocase bool, skipLongerMatches *bool, nesting int) bool {
	at := func(i int) int {
		if i < len(pat) {
			return int(int8(pat[i])) // C's char is signed
		}
		return 0
	}
	tolower := func(c int) int {
		if c >= 'A' && c <= 'Z' {
			return c + 32
		}
		return c
	}
	patternLen := len(pat) - p
	stringLen := len(str) - sp
	sc := func() int { return int(int8(str[sp])) }

	// Protection against abusive patterns.
	if nesting > 1000 {
		return false
	}
	for patternLen > 0 && stringLen > 0 {
		switch at(p) {
		case '*':
			for patternLen > 0 && at(p+1) == '*' {
				p++
				patternLen--
			}
			if patternLen == 1 {
				return true
			}
			for stringLen > 0 {
				if redisMatchImpl(pat, p+1, str, sp, nocase, skipLongerMatches, nesting+1) {
					return true
				}
				if *skipLongerMatches {
					return false
				}
				sp++
				stringLen--
			}
			*skipLongerMatches = true
			return false
		case '?':
			sp++
			stringLen--
		case '[':
			p++
			patternLen--
			not := at(p) == '^'
			if not {
				p++
				patternLen--
			}
			match := false
			for {
				if at(p) == '\\' && patternLen >= 2 {
					p++
					patternLen--
					if at(p) == sc() {
						match = true
					}
				} else if at(p) == ']' {
					break
				} else if patternLen == 0 {
					p--
					patternLen++
					break
				} else if patternLen >= 3 && at(p+1) == '-' {
					start := at(p)
					end := at(p + 2)
					c := sc()
					if start > end {
						start, end = end, start
					}
					if nocase {
						start = tolower(start)
						end = tolower(end)
						c = tolower(c)
					}
					p += 2
					patternLen -= 2
					if c >= start && c <= end {
						match = true
					}
				} else {
					if !nocase {
						if at(p) == sc() {
							match = true
						}
					} else if tolower(at(p)) == tolower(sc()) {
						match = true
					}
				}
				p++
				patternLen--
			}
			if not {
				match = !match
			}
			if !match {
				return false
			}
			sp++
			stringLen--
		case '\\':
			if patternLen >= 2 {
				p++
				patternLen--
			}
			fallthrough
		default:
			if !nocase {
				if at(p) != sc() {
					return false
				}
			} else if tolower(at(p)) != tolower(sc()) {
				return false
			}
			sp++
			stringLen--
		}
		p++
		patternLen--
		if stringLen == 0 {
			for at(p) == '*' {
				p++
				patternLen--
			}
			break
		}
	}
	return patternLen == 0 && stringLen == 0
}
