package shell

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{``, []string{}},
		{`   `, []string{}},
		{`ls -la`, []string{"ls", "-la"}},
		{`a "b c" 'd e' f\ g`, []string{"a", "b c", "d e", "f g"}},
		{`echo "a \"quoted\" word"`, []string{"echo", `a "quoted" word`}},
		{`printf '%s\n' $'tab\there'`, []string{"printf", `%s\n`, "tab\there"}},
		{`rm -rf "$DIR" ~/x *.go`, []string{"rm", "-rf", `"$DIR"`, "~/x", "*.go"}},
		{`echo $(date | cut -c1-3)`, []string{"echo", "$(date | cut -c1-3)"}},
		{`cp a.{c,h} dir`, []string{"cp", "a.{c,h}", "dir"}},
		{"one\ntwo # a comment", []string{"one", "two"}},
		{`""`, []string{""}},
	}
	for _, tc := range tests {
		got, err := Split(tc.line)
		if err != nil || !slices.Equal(got, tc.want) || got == nil {
			t.Errorf("Split(%q) = %q, %v; want %q", tc.line, got, err, tc.want)
		}
	}
}

func TestSplitErrors(t *testing.T) {
	tests := []struct {
		line, contains string
		is             error
	}{
		{`a | b`, "`|` is not a valid word", nil},
		{`a; b`, "`;` is not a valid word", nil},
		{`a && b`, "`&&` is not a valid word", nil},
		{`a > b`, "`>` is not a valid word", nil},
		{`(a)`, "`(` is not a valid word", nil},
		{`echo "unterminated`, "reached EOF without closing quote", nil},
		{strings.Repeat("a", MaxLineBytes+1), "too long", ErrTooLong},
		{strings.Repeat("$(", 150) + strings.Repeat(")", 150), "too deeply", ErrTooDeep},
	}
	for _, tc := range tests {
		got, err := Split(tc.line)
		if err == nil || !strings.Contains(err.Error(), tc.contains) || (tc.is != nil && !errors.Is(err, tc.is)) {
			t.Errorf("Split(%.40q) = %q, %v; want an error containing %q", tc.line, got, err, tc.contains)
		}
	}
}
