package re

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/stdlibtest"
)

type test struct {
	fn      string
	args    []any
	want    any
	wantErr string
}

func run(t *testing.T, m stdlib.Module, tests []test) {
	t.Helper()
	for _, tt := range tests {
		got, err := stdlibtest.Call(t, m, tt.fn, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s(%s): error %.200v, want one containing %q", tt.fn, show(tt.args), err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s(%s): %.200v", tt.fn, show(tt.args), err)
			continue
		}
		if !stdlib.Equal(got, tt.want) {
			t.Errorf("%s(%s) = %.200#v, want %.200#v", tt.fn, show(tt.args), got, tt.want)
		}
	}
}

func l(s ...any) []any { return s }

// show formats arguments for a failure message, shortening long strings.
func show(args []any) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		if s, ok := a.(string); ok && len(s) > 40 {
			a = s[:40] + "…"
		}
		fmt.Fprintf(&b, "%#v", a)
	}
	return b.String()
}

func TestMatchFind(t *testing.T) {
	run(t, New(), []test{
		{"match", l(`rm\s+-rf`, "sudo rm  -rf /"), true, ""},
		{"match", l(`^rm`, "sudo rm -rf /"), false, ""},
		{"match", l(`(?i)DROP\s+TABLE`, "drop table users"), true, ""},
		{"match", l(``, ""), true, ""},
		{"match", l(`é+`, "caféé"), true, ""},
		{"match", l(`^.$`, "\xff"), true, ""}, // an invalid byte is one character

		{"find", l(`\d+`, "abc 123 456"), "123", ""},
		{"find", l(`\d+`, "abc"), nil, ""},
		{"find", l(`x*`, "abc"), "", ""}, // an empty match is not nil
		{"find", l(`(a)(b)`, "xaby"), "ab", ""},

		{"find_groups", l(`(\w+)@(\w+)`, "mail bob@example now"),
			map[string]any{"match": "bob@example", "groups": l("bob", "example"), "named": map[string]any{}}, ""},
		{"find_groups", l(`(?P<user>\w+)@(?<host>\w+)`, "bob@example"),
			map[string]any{"match": "bob@example", "groups": l("bob", "example"),
				"named": map[string]any{"user": "bob", "host": "example"}}, ""},
		{"find_groups", l(`a(x)?(b)`, "ab"),
			map[string]any{"match": "ab", "groups": l("", "b"), "named": map[string]any{}}, ""},
		{"find_groups", l(`(?P<v>x)|(?P<v>y)`, "y"), // the first group of a name that took part
			map[string]any{"match": "y", "groups": l("", "y"), "named": map[string]any{"v": "y"}}, ""},
		{"find_groups", l(`(?P<v>x)|(?P<v>y)`, "x"),
			map[string]any{"match": "x", "groups": l("x", ""), "named": map[string]any{"v": "x"}}, ""},
		{"find_groups", l(`(?P<v>z)?(?P<v>x)`, "x"),
			map[string]any{"match": "x", "groups": l("", "x"), "named": map[string]any{"v": "x"}}, ""},
		{"find_groups", l(`abc`, "abc"), map[string]any{"match": "abc", "groups": l(), "named": map[string]any{}}, ""},
		{"find_groups", l(`(a)`, "xyz"), nil, ""},
	})
}

func TestFindAllSplit(t *testing.T) {
	run(t, New(), []test{
		{"find_all", l(`\d+`, "a1 b22 c333"), l("1", "22", "333"), ""},
		{"find_all", l(`\d+`, "a1 b22 c333", int64(2)), l("1", "22"), ""},
		{"find_all", l(`\d+`, "a1 b22 c333", float64(1)), l("1"), ""},
		{"find_all", l(`\d+`, "a1 b22 c333", int64(0)), l(), ""},
		{"find_all", l(`\d+`, "a1 b22 c333", int64(-1)), l("1", "22", "333"), ""},
		{"find_all", l(`\d+`, "none"), l(), ""},
		{"find_all", l(`x*`, "axb"), l("", "x", ""), ""},
		{"find_all", l(`(\w)=(\w)`, "a=1 b=2"), l("a=1", "b=2"), ""},

		{"split", l(`\s*,\s*`, "a , b,c"), l("a", "b", "c"), ""},
		{"split", l(`,`, "a,b,c", int64(2)), l("a", "b,c"), ""},
		{"split", l(`,`, "a,b,c", int64(0)), l(), ""},
		{"split", l(`,`, "a,b,c", int64(-5)), l("a", "b", "c"), ""},
		{"split", l(`,`, ""), l(""), ""},
		{"split", l(`,`, "abc"), l("abc"), ""},
		{"split", l(``, "abc"), l("a", "b", "c"), ""},
		{"split", l(`&&|\|\||;`, "cd /; rm -rf x && ls"), l("cd /", " rm -rf x ", " ls"), ""},

		{"escape", l(`a.b*c`), `a\.b\*c`, ""},
		{"escape", l(`[x](y){z}|^$\+?`), `\[x\]\(y\)\{z\}\|\^\$\\\+\?`, ""},
		{"escape", l(""), "", ""},
	})
}

func TestReplace(t *testing.T) {
	run(t, New(), []test{
		{"replace", l(`secret=\S+`, "a secret=xyz b secret=1", "secret=***"), "a secret=*** b secret=***", ""},
		{"replace", l(`(\w+)@(\w+)`, "bob@ex", "$2 at $1"), "ex at bob", ""},
		{"replace", l(`(\w+)@(\w+)`, "bob@ex", "${1}x"), "bobx", ""},
		{"replace", l(`(\w+)@(\w+)`, "bob@ex", "$1x"), "", ""}, // $1x names a group "1x"
		{"replace", l(`(?P<u>\w+)@(\w+)`, "bob@ex", "<$u>"), "<bob>", ""},
		{"replace", l(`(?P<u>\w+)@(\w+)`, "bob@ex", "<${u}>"), "<bob>", ""},
		{"replace", l(`\d`, "a1b2", "$$"), "a$b$", ""},
		{"replace", l(`\d`, "a1b2", "$"), "a$b$", ""},
		{"replace", l(`\d`, "a1b2", "${"), "a${b${", ""},
		{"replace", l(`\d`, "a1b2", "[$0]"), "a[1]b[2]", ""},
		{"replace", l(`\d`, "a1b2", "$9"), "ab", ""},
		{"replace", l(`\d`, "a1b2c3", "#", int64(2)), "a#b#c3", ""},
		{"replace", l(`\d`, "a1b2c3", "#", int64(0)), "a1b2c3", ""},
		{"replace", l(`\d`, "a1b2c3", "#", int64(-1)), "a#b#c#", ""},
		{"replace", l(`x*`, "abc", "-"), "-a-b-c-", ""},
		{"replace", l(`nomatch`, "abc", "-"), "abc", ""},
	})
}

func TestBadArguments(t *testing.T) {
	m := New()
	run(t, m, []test{
		{"match", l(), nil, "argument 1 (pattern): want string, got nil"},
		{"match", l("a"), nil, "argument 2 (text): want string, got nil"},
		{"match", l(int64(1), "a"), nil, "argument 1 (pattern): want string, got int"},
		{"match", l("a", map[string]any{}), nil, "argument 2 (text): want string, got map"},
		{"find", l("a", true), nil, "argument 2 (text): want string, got bool"},
		{"find_groups", l(nil, "a"), nil, "argument 1 (pattern)"},
		{"find_all", l("a", "a", "2"), nil, "argument 3 (n): want integer, got string"},
		{"find_all", l("a", "a", 1.5), nil, "argument 3 (n): want integer"},
		{"split", l("a", "a", l()), nil, "argument 3 (n): want integer, got list"},
		{"replace", l("a", "a"), nil, "argument 3 (repl): want string, got nil"},
		{"replace", l("a", "a", int64(1)), nil, "argument 3 (repl): want string, got int"},
		{"replace", l("a", "a", "b", "x"), nil, "argument 4 (n): want integer"},
		{"escape", l(), nil, "argument 1 (text): want string, got nil"},
		{"escape", l(int64(3)), nil, "argument 1 (text): want string, got int"},

		{"match", l(`a(b`, "x"), nil, "bad pattern `a(b`: missing closing )"},
		{"match", l(`\q`, "x"), nil, "bad pattern `\\q`: invalid escape sequence"},
		{"match", l("a`(", "x"), nil, "bad pattern \"a`(\": missing closing )"},
		{"find", l(`(?<=a)b`, "ab"), nil, "bad pattern `(?<=a)b`: invalid named capture (RE2 has no lookahead or lookbehind)"},
		{"find", l(`foo(?!bar)`, "foo"), nil, "bad pattern `foo(?!bar)`: invalid or unsupported Perl syntax: `(?!` (RE2 has no lookahead or lookbehind)"},
		{"find", l(`(a)\1`, "aa"), nil, "bad pattern `(a)\\1`: invalid escape sequence: `\\1` (RE2 has no backreferences)"},
		{"replace", l(`[z-a]`, "x", "y"), nil, "bad pattern `[z-a]`: invalid character class range: `z-a`"},
		{"split", l(`x{1001}`, "x"), nil, "bad pattern `x{1001}`: invalid repeat count"},
		{"find_all", l(`(x{100}){100}`, "x"), nil, "bad pattern `(x{100}){100}`: invalid repeat count: `{100}`"},
		{"find_all", l(strings.Repeat(`[a-z]{1000}`, 17), "x"), nil, "compiles to more than 16384 instructions"},
		{"match", l(strings.Repeat("a", MaxPattern+1), "x"), nil, "pattern is 4097 bytes, longer than 4096"},
		{"match", l(strings.Repeat("(", 100), "x"), nil, "bad pattern `((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((…`"},
	})
}

func TestLimits(t *testing.T) {
	m := New()
	big := strings.Repeat("a", MaxText)
	run(t, m, []test{
		{"match", l(`b`, big), false, ""},
		{"match", l(`b`, big+"b"), nil, "argument 2 (text): 4194305 bytes, longer than 4194304"},
		{"replace", l(`a`, "aaaa", big), nil, "result would be longer than 4194304 bytes"},
		{"replace", l(`a`, "aaaa", "$0$0$0$0$0$0$0$0$0$0$0$0$0$0$0$0$0$0$0$0"), strings.Repeat("a", 80), ""},
		{"replace", l(`a+`, big[:MaxText/2+1], "$0$0"), nil, "result would be longer than"},
		{"replace", l(`a`, "a", big+"x"), nil, "argument 3 (repl): 4194305 bytes"},
		{"escape", l(big[:MaxText/2]), strings.Repeat("a", MaxText/2), ""},
		{"escape", l(big[:MaxText/2+1]), nil, "argument 1 (text): 2097153 bytes"},
		{"find_all", l(`a`, big[:MaxResults+1]), nil, "more than 65536 matches"},
		{"find_all", l(`a`, big, int64(3)), l("a", "a", "a"), ""},
		{"find_all", l(`a`, big[:10], int64(1e12)), l("a", "a", "a", "a", "a", "a", "a", "a", "a", "a"), ""},
		{"split", l(``, big[:MaxResults+1]), nil, "more than 65536 pieces"},
		{"split", l(``, big, int64(2)), l("a", big[1:]), ""},
		{"replace", l(``, big[:MaxResults], "-"), nil, "more than 65536 matches"},
		{"replace", l(``, big[1:], "-", int64(1)), "-" + big[1:], ""},
		{"replace", l(``, big, "-", int64(1)), nil, "result would be longer than"},
	})
	got, err := stdlibtest.Call(t, m, "find_all", `a`, big[:MaxResults])
	if err != nil || len(got.([]any)) != MaxResults {
		t.Errorf("find_all of exactly MaxResults matches: %v", err)
	}
}
