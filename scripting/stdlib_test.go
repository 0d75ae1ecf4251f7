package scripting

import "testing"

// string.format and table.concat as Lua 5.1's (C's conversions, Lua's limits and errors); the
// replies are redis-server 7.0.15's.
func TestStringFormat(t *testing.T) {
	e := newTestEngine()
	for _, tc := range []struct{ body, want string }{
		{"return string.format('%d|%5d|%-5d|%05d', 3.7, 42, 42, 42)", "$19\r\n3|   42|42   |00042\r\n"},
		{"return string.format('%s|%s|%s', 1/3, 10, 'x')", "$21\r\n0.33333333333333|10|x\r\n"},
		{"return string.format('%.2f|%10.3f|%e|%g', 1.005, 3.14159, 12345.678, 0.0001)", "$35\r\n1.00|     3.142|1.234568e+04|0.0001\r\n"},
		{"return string.format('%x|%X|%o|%c|%i', 255, 255, 8, 65, 7)", "$12\r\nff|FF|10|A|7\r\n"},
		{"return string.format('%q', 'a\\nb\"c\\0')", "$13\r\n\"a\\\nb\\\"c\\000\"\r\n"},
		{"return string.format('%5s|%-5s|%.2s', 'ab', 'ab', 'abcdef')", "$14\r\n   ab|ab   |ab\r\n"},
		{"return string.format('%%|%d', 1)", "$3\r\n%|1\r\n"},
		{"return string.format('%d')", "-ERR user_script:1: bad argument #2 to 'format' (no value) script: 05feaa4990f14508c855a12844d0665b829def5d, on @user_script:1.\r\n"},
		{"return string.format('%999d', 1)", "-ERR user_script:1: invalid format (width or precision too long) script: 655ed7808e05abe0922ae4e7b7203506a60475d8, on @user_script:1.\r\n"},
		{"return string.format('%y', 1)", "-ERR user_script:1: invalid option '%y' to 'format' script: 5f049edbcb538c8748f6d1d19449a7474c6106bf, on @user_script:1.\r\n"},
		{"return string.format('%d', 'x')", "-ERR user_script:1: bad argument #2 to 'format' (number expected, got string) script: cd4fadd5027450767b6391819f084394d5c4916f, on @user_script:1.\r\n"},
		{"return string.format('%s', {})==nil", "-ERR user_script:1: bad argument #2 to 'format' (string expected, got table) script: 47a1045bef392364cc52d2fc8deb5ed3f0dea100, on @user_script:1.\r\n"},
		{"return string.format('%d', 2^53)", "$16\r\n9007199254740992\r\n"},
		{"return string.format('%x', -1)", "$16\r\nffffffffffffffff\r\n"},
		{"return string.format('%5.1s|', 'abc')", "$6\r\n    a|\r\n"},
		{"return string.format('%+d % d', 5, 5)", "$5\r\n+5  5\r\n"},
		{"return string.format('%#x %#o', 255, 8)", "$8\r\n0xff 010\r\n"},
		{"return string.format('[%10.4f]', 1/0)", "$12\r\n[       inf]\r\n"},
		{"return string.format('%s', string.rep('a', 120)):len()", ":120\r\n"},
		{"return string.format('%.3s|%s', 'h\u00e9llo', 12.5)", "$8\r\nh\xc3\xa9|12.5\r\n"},
		{"return string.format('%5.2s|', 'abc')", "$6\r\n   ab|\r\n"},
		{"return string.format('%u', 3.9)", "$1\r\n3\r\n"},
		{"return string.format('%c%c', 72, 105)", "$2\r\nHi\r\n"},
		{"return string.format('%d', '0x10')", "$2\r\n16\r\n"},
		{"return string.format('%g|%g|%g', 1234567, 100000, 1e20)", "$24\r\n1.23457e+06|100000|1e+20\r\n"},
		{"return string.format('%-5d|', -3)", "$6\r\n-3   |\r\n"},
		{"return string.format('%d', 1e100)", "$20\r\n-9223372036854775808\r\n"},
		// Lua 5.1's other library differences: math.huge is inf; the deprecated table.foreach,
		// foreachi and setn are there.
		{"return {tostring(math.huge), tostring(-math.huge), math.huge > 1e308}", "*3\r\n$3\r\ninf\r\n$4\r\n-inf\r\n:1\r\n"},
		{"local n = 0 table.foreach({a=1, b=2}, function(k, v) n = n + v end) return n", ":3\r\n"},
		{"return table.foreachi({5, 6, 7}, function(i, v) if v == 6 then return i end end)", ":2\r\n"},
		{"table.setn({}, 1)", "-ERR user_script:1: 'setn' is obsolete script: " + SHA1Hex([]byte("table.setn({}, 1)")) + ", on @user_script:1.\r\n"},
		// collectgarbage answers as Lua 5.1 (without stopping the server for Go's collector).
		{"return {collectgarbage('count') > 0, collectgarbage(), tostring(collectgarbage('step')), collectgarbage('setpause', 200)}", "*4\r\n:1\r\n:0\r\n$5\r\nfalse\r\n:200\r\n"},
		// unpack is bounded as Lua's stack.
		{"return unpack({}, 1, 1e8)", "-ERR user_script:1: too many results to unpack script: b1a7a340c2636ecef66f82cf16b41fc37c1c017c, on @user_script:1.\r\n"},
		{"return select('#', unpack({}, 1, 100))", ":100\r\n"},
		{"return {unpack({1, 2, 3}, 2)}", "*2\r\n:2\r\n:3\r\n"},
		// table.concat writes numbers as Lua and does not clamp its range.
		{"return table.concat({1, 1/3, 'x'}, ',')", "$20\r\n1,0.33333333333333,x\r\n"},
		{"return table.concat({1, {}, 'x'})", "-ERR user_script:1: invalid value (table) at index 2 in table for 'concat' script: 31683b059c828a9b158db6492fe727b4333b0dd4, on @user_script:1.\r\n"},
		{"return table.concat({1, 2, 3}, '-', 2, 3)", "$3\r\n2-3\r\n"},
		{"return table.concat({}, 'x', 1, 0)", "$0\r\n\r\n"},
		{"return table.concat({1,2}, 1, 1, 5)", "-ERR user_script:1: invalid value (nil) at index 3 in table for 'concat' script: 984f1787dd4e6898dee321964de58d4f1607e2fd, on @user_script:1.\r\n"},
	} {
		if got := eval(t, e, &fakeCaller{}, 2, tc.body, nil, nil); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.body, got, tc.want)
		}
	}
}
