package corpus

import (
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	lines, err := Lines()
	if err != nil {
		t.Fatal(err)
	}
	stop, themes := 0, map[string]bool{}
	for _, l := range lines {
		if l.Want == Stop {
			stop++
		}
		themes[l.Theme] = true
	}
	// the corpus is meant to be at least 400 lines, about half of each label
	if len(lines) < 400 || stop < len(lines)*2/5 || stop > len(lines)*3/5 {
		t.Errorf("%d lines, %d of them stop; want at least 400, 40-60 %% stop", len(lines), stop)
	}
	for _, want := range []string{"system_integrity", "machine_state", "disks", "kernel_modules", "fork_bombs",
		"indirect_deletes", "download_then_run", "git_discards", "deletes_outside_workspace", "rm_classic",
		"secrets", "patterns_and_data", "everyday"} {
		if !themes[want] {
			t.Errorf("no line of theme %s", want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct{ name, yaml, err string }{
		{"no theme name", "themes: [{stop: [ls]}]", "no name"},
		{"twice", "themes: [{theme: a, stop: [ls]}, {theme: b, pass: [ls]}]", `"ls" is in a and again in b`},
		{"empty line", "themes: [{theme: a, pass: ['']}]", "empty line"},
		{"not yaml", "themes: [", "corpus:"},
	} {
		if _, err := Parse([]byte(c.yaml)); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.err)
		}
	}
	lines, err := Parse([]byte("themes: [{theme: a, stop: [x], pass: [y, z]}]"))
	if err != nil || len(lines) != 3 || lines[0] != (Line{"x", Stop, "a"}) || lines[2] != (Line{"z", Pass, "a"}) {
		t.Errorf("got %v, %v", lines, err)
	}
}

func TestStopped(t *testing.T) {
	for _, c := range []struct {
		exit    int
		out     string
		stopped bool
		what    string
	}{
		{0, "", false, "allow"},
		{2, "", true, "exit 2"},
		{1, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, false, "exit 1"},
		{0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`, true, "deny"},
		{0, `{"hookSpecificOutput":{"permissionDecision":"ask"}}`, true, "ask"},
		{0, `{"hookSpecificOutput":{"permissionDecision":"allow"}}`, false, "allow"},
		{0, `{"decision":"block","reason":"no"}`, true, "block"},
		{0, `{"hookSpecificOutput":{"additionalContext":"note"}}`, false, "allow"},
		{0, "not json", false, "allow"},
	} {
		s, what := Stopped(c.exit, []byte(c.out))
		if s != c.stopped || what != c.what {
			t.Errorf("Stopped(%d, %s) = %v, %q; want %v, %q", c.exit, c.out, s, what, c.stopped, c.what)
		}
	}
}

func TestTally(t *testing.T) {
	var tl Tally
	tl.Add(Line{"a", Stop, "x"}, true, "deny")
	tl.Add(Line{"b", Stop, "x"}, false, "allow")
	tl.Add(Line{"c", Pass, "y"}, false, "allow")
	tl.Add(Line{"d", Pass, "x"}, true, "ask")
	if got := tl.Themes(); len(got) != 2 || got[0] != "x" || got[1] != "y" {
		t.Errorf("themes %v", got)
	}
	x, all := tl.Theme("x"), tl.Total()
	if x != (Count{Stop: 2, Stopped: 1, Pass: 1, Passed: 0}) || all != (Count{2, 1, 2, 1}) {
		t.Errorf("x %+v, total %+v", x, all)
	}
	if all.StopRate() != 0.5 || all.PassRate() != 0.5 || tl.Theme("y").StopRate() != 1 {
		t.Errorf("rates %v %v %v", all.StopRate(), all.PassRate(), tl.Theme("y").StopRate())
	}
	m := tl.Misses()
	if len(m) != 2 || m[0].Command != "b" || m[0].Got != "allow" || m[1].Command != "d" {
		t.Errorf("misses %+v", m)
	}
	var b strings.Builder
	if err := Table(&b, []string{"g"}, []*Tally{&tl}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| x | 2 / 1 | 50.0 % | 0.0 % |", "| y | 0 / 1 | — | 100.0 % |", "| **all** | 2 / 2 | 50.0 % | 50.0 % |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	if err := Table(&b, []string{"a", "b"}, []*Tally{&tl}); err == nil {
		t.Error("Table with two names and one tally: no error")
	}
}
