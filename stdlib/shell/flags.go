package shell

import "strings"

// HasFlag reports whether argv (a whole argv, argv[0] included) passes
// the short flag (one character, as "r" or "-r") or the long one
// ("recursive" or "--recursive"); either may be "".
//
// It reads options the GNU way: short flags combine (-rf and -fr both
// pass r and f), options may follow operands (rm / -rf), and -- ends
// them. A long option matches when it is the name or a prefix of it
// (--rec, even --r, for --recursive), with or without =value.
// HasFlag cannot know each program's option table, so it cannot tell
// whether a prefix is ambiguous: it counts every prefix, which is what
// getopt_long does with an unambiguous one and errs towards seeing a
// flag otherwise (a program given an ambiguous prefix refuses to run).
// For the same reason it takes every letter of a cluster for a flag,
// even one that a value-taking option would consume (-n5r).
//
// HasFlag sees the words as written: a dynamic word is its source text,
// so $(echo -rf) is no flag, and a program that spells long options
// with one dash (find -delete) is not understood. Guards check
// Command.Dynamic too.
func HasFlag(argv []string, short, long string) bool {
	short, long = trimDash(short, 1), trimDash(long, 2)
	for i, a := range argv {
		switch {
		case i == 0:
		case a == "--":
			return false
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a[2:], "=")
			if long != "" && name != "" && strings.HasPrefix(long, name) {
				return true
			}
		case len(a) > 1 && a[0] == '-':
			if short != "" && strings.Contains(a[1:], short) {
				return true
			}
		}
	}
	return false
}

// trimDash removes up to n leading dashes.
func trimDash(s string, n int) string {
	for ; n > 0 && len(s) > 0 && s[0] == '-'; n-- {
		s = s[1:]
	}
	return s
}
