package re

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib/stdlibtest"
)

// TestReplaceMatchesGo checks that replace, through its own template
// expansion, gives what regexp's ReplaceAllString gives.
func TestReplaceMatchesGo(t *testing.T) {
	m := New()
	patterns := []string{
		`\d`, `x*`, `(a)(b)?`, `(?P<w>\w+)`, `(?P<v>x)|(?P<v>y)`, `\b`, `^`, `$`, `(?m)^`,
		`a|ab`, `(é)+`, ``, `(((((((((((a)))))))))))`,
	}
	texts := []string{"", "a", "ab", "xyx", "a1b22", "héé é", "line\nline2\n", "aaaaaaaaaaaab"}
	templates := []string{
		"", "-", "$", "$$", "$$1", "$0", "$1", "${1}", "$1x", "${1}x", "$2$1", "$w", "${w}", "$v", "${v}.",
		"${", "${1", "${}", "$}", "$ 1", "$01", "$11", "$é", "${é}", "$100000000", "$9999999999",
		"[$0|$1|$2]", "$w_", "${w}_",
	}
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		for _, text := range texts {
			for _, repl := range templates {
				want := re.ReplaceAllString(text, repl)
				got, err := stdlibtest.Call(t, m, "replace", p, text, repl)
				if err != nil || got != want {
					t.Errorf("replace(%q, %q, %q) = %q, %v; regexp gives %q", p, text, repl, got, err, want)
				}
			}
		}
	}
}

func TestTemplateMerging(t *testing.T) {
	re := regexp.MustCompile(`(a)`)
	tmpl := parseTemplate(re, "x$$y${1}z$")
	if len(tmpl) != 3 || tmpl[0].lit != "x$y" || !tmpl[1].ref || len(tmpl[1].groups) != 1 || tmpl[2].lit != "z$" {
		t.Errorf("parseTemplate = %+v", tmpl)
	}
}

// FuzzReplace checks replace against regexp's ReplaceAllString for any
// pattern, text and replacement.
func FuzzReplace(f *testing.F) {
	f.Add(`(\w+)@(?P<host>\w+)`, "bob@ex, amy@why", "$2:${1}$host$$")
	f.Add(`x*`, "axbxx", "[$0]")
	f.Add(`(?P<v>x)|(?P<v>y)`, "xyz", "${v}$v_$1x${9}")
	m := New()
	f.Fuzz(func(t *testing.T, pattern, text, repl string) {
		re, err := regexp.Compile(pattern)
		if err != nil || len(pattern) > MaxPattern || len(text) > 1000 || len(repl) > 100 {
			return
		}
		got, err := stdlibtest.Call(t, m, "replace", pattern, text, repl)
		if err != nil {
			if strings.Contains(err.Error(), "instructions") || strings.Contains(err.Error(), "matches") {
				return
			}
			t.Fatalf("replace(%q, %q, %q): %v", pattern, text, repl, err)
		}
		if want := re.ReplaceAllString(text, repl); got != want {
			t.Fatalf("replace(%q, %q, %q) = %q; regexp gives %q", pattern, text, repl, got, want)
		}
	})
}
