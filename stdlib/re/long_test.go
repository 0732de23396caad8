package re

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib/stdlibtest"
)

// TestLongTextsMatchRegexp calls the module as scripts get it, on texts
// long enough that every function takes the reader path and searches
// past position 0 (match and find past a padding of 150 KB, find_all,
// split and replace over a few KB), and compares each answer with
// regexp's. Padding a text is how an attacker would move a guard's
// search onto that path, so a pattern that works on a short text must
// work there too: an unclosed \Q once failed with "missing closing )".
func TestLongTextsMatchRegexp(t *testing.T) {
	m := New()
	padding := strings.Repeat("x ", 75_000)
	for _, tc := range []struct{ pattern, sample string }{
		{`\Qgit push --force`, "git push --force"},
		{`\Qa.b`, "a.b"},
		{`x\Q)(`, "x)("},
		{`(?i)\Qab`, "aB"},
		{`(?m)^\Qa.b`, "\na.b"},
		{`a\Q # )(`, "a # )("},
		{`a # x`, "a # x"},
		{`\Q`, ""},
	} {
		re := regexp.MustCompile(tc.pattern)
		long := padding + tc.sample
		short := strings.Repeat(tc.sample+" y ", 500)
		var wantFind any
		if loc := re.FindStringIndex(long); loc != nil {
			wantFind = long[loc[0]:loc[1]]
		}
		wantAll := []any{}
		for _, s := range re.FindAllString(short, -1) {
			wantAll = append(wantAll, s)
		}
		var wantSplit []any
		for _, s := range re.Split(short, -1) {
			wantSplit = append(wantSplit, s)
		}
		for _, c := range []struct {
			fn   string
			args []any
			want any
		}{
			{"match", []any{tc.pattern, long}, re.MatchString(long)},
			{"find", []any{tc.pattern, long}, wantFind},
			{"find_all", []any{tc.pattern, short}, wantAll},
			{"split", []any{tc.pattern, short}, wantSplit},
			{"replace", []any{tc.pattern, short, "#"}, re.ReplaceAllLiteralString(short, "#")},
		} {
			got, err := stdlibtest.Call(t, m, c.fn, c.args...)
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s(%q, %d bytes): %.200v, %v; regexp %.200v", c.fn, tc.pattern, len(c.args[1].(string)), got, err, c.want)
			}
		}
	}
}
