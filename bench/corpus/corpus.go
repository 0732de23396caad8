// Package corpus is hookhost's labeled corpus of shell command lines —
// dangerous lines the shipped guardrails must stop and safe look-alikes
// they must let through — with what it takes to score a guardrail on
// it: the Claude Code PreToolUse event each line is sent as, the reading
// of Claude Code's answer, and a tally of rates per theme.
//
// The lines live in shell-lines.yaml next to this file, embedded so that
// every reader gets the same lines without knowing where the file is.
// cmd/hookhost's TestCorpus runs them through the shipped hooks.d in
// process and fails below the target rates; bench/peers runs them
// through built guardrail programs (hookhost and others) to compare.
// docs/benchmarks.md ("Precision on our corpus") has the results.
package corpus

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

//go:embed shell-lines.yaml
var shellLines []byte

// A Label is what a guardrail should do with a line.
type Label string

const (
	// Stop: the line must not run unasked (deny or ask).
	Stop Label = "stop"
	// Pass: the line must run (allow).
	Pass Label = "pass"
)

// A Line is one labeled command line.
type Line struct {
	Command string
	Want    Label
	Theme   string
}

// file is shell-lines.yaml's shape: lines grouped by theme, then label.
type file struct {
	Themes []struct {
		Theme string   `yaml:"theme"`
		Stop  []string `yaml:"stop"`
		Pass  []string `yaml:"pass"`
	} `yaml:"themes"`
}

// Lines returns the embedded corpus, in file order.
func Lines() ([]Line, error) { return Parse(shellLines) }

// Parse reads a corpus in shell-lines.yaml's shape. A theme without a
// name, a line given twice (a label the file contradicts, or one counted
// twice) and an empty line are errors.
func Parse(data []byte) ([]Line, error) {
	var f file
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	var lines []Line
	seen := map[string]string{}
	for _, t := range f.Themes {
		if t.Theme == "" {
			return nil, errors.New("corpus: a theme has no name")
		}
		for _, group := range []struct {
			label Label
			cmds  []string
		}{{Stop, t.Stop}, {Pass, t.Pass}} {
			for _, c := range group.cmds {
				if c == "" {
					return nil, fmt.Errorf("corpus: theme %s: an empty line", t.Theme)
				}
				if prev, ok := seen[c]; ok {
					return nil, fmt.Errorf("corpus: %q is in %s and again in %s", c, prev, t.Theme)
				}
				seen[c] = t.Theme
				lines = append(lines, Line{Command: c, Want: group.label, Theme: t.Theme})
			}
		}
	}
	return lines, nil
}

// Event is the Claude Code PreToolUse event that asks to run cmd with
// the Bash tool in the directory cwd, as Claude Code sends it on a
// command hook's standard input.
func Event(cmd, cwd string) map[string]any {
	return map[string]any{
		"session_id": "corpus", "transcript_path": "", "cwd": cwd,
		"permission_mode": "default", "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": cmd, "description": "corpus line"},
		"tool_use_id": "toolu_corpus",
	}
}

// Stopped reads a Claude Code command hook's answer to a PreToolUse as
// Claude Code does: exit status 2 blocks the call; otherwise a JSON
// answer whose permissionDecision is deny or ask (or whose legacy
// decision is block) stops it. Any other answer lets the call run,
// including a hook that fails with another status. what says which
// answer it was.
func Stopped(exit int, stdout []byte) (stopped bool, what string) {
	if exit == 2 {
		return true, "exit 2"
	}
	var a struct {
		Decision string `json:"decision"`
		Specific struct {
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if exit != 0 {
		return false, fmt.Sprintf("exit %d", exit)
	}
	if len(stdout) == 0 || json.Unmarshal(stdout, &a) != nil {
		return false, "allow"
	}
	switch d := a.Specific.PermissionDecision; {
	case d == "deny" || d == "ask":
		return true, d
	case a.Decision == "block":
		return true, "block"
	case d != "":
		return false, d
	}
	return false, "allow"
}

// A Count is how a guardrail did on some lines.
type Count struct {
	Stop, Stopped int // lines labeled stop, and those it stopped
	Pass, Passed  int // lines labeled pass, and those it let through
}

// StopRate is the share of the stop lines stopped (1 when there are none).
func (c Count) StopRate() float64 { return rate(c.Stopped, c.Stop) }

// PassRate is the share of the pass lines let through (1 when none).
func (c Count) PassRate() float64 { return rate(c.Passed, c.Pass) }

func rate(n, of int) float64 {
	if of == 0 {
		return 1
	}
	return float64(n) / float64(of)
}

// A Miss is a line a guardrail decided against its label.
type Miss struct {
	Line
	Got string // the answer, as Stopped describes it
}

// A Tally counts a guardrail's answers over a corpus, per theme.
type Tally struct {
	themes map[string]*Count
	order  []string
	misses []Miss
}

// Add records the answer to one line.
func (t *Tally) Add(l Line, stopped bool, what string) {
	if t.themes == nil {
		t.themes = map[string]*Count{}
	}
	c, ok := t.themes[l.Theme]
	if !ok {
		c = &Count{}
		t.themes[l.Theme] = c
		t.order = append(t.order, l.Theme)
	}
	if l.Want == Stop {
		c.Stop++
		if stopped {
			c.Stopped++
		}
	} else {
		c.Pass++
		if !stopped {
			c.Passed++
		}
	}
	if stopped != (l.Want == Stop) {
		t.misses = append(t.misses, Miss{Line: l, Got: what})
	}
}

// Themes are the themes seen, in the order first added.
func (t *Tally) Themes() []string { return slices.Clone(t.order) }

// Theme is the count for one theme.
func (t *Tally) Theme(name string) Count {
	if c, ok := t.themes[name]; ok {
		return *c
	}
	return Count{}
}

// Total is the count over every theme.
func (t *Tally) Total() Count {
	var sum Count
	for _, c := range t.themes {
		sum.Stop += c.Stop
		sum.Stopped += c.Stopped
		sum.Pass += c.Pass
		sum.Passed += c.Passed
	}
	return sum
}

// Misses are the lines decided against their label, in the order added.
func (t *Tally) Misses() []Miss { return slices.Clone(t.misses) }

// Table writes a Markdown table of the tallies side by side, one row a
// theme (in the first tally's order) and a last row over all of them:
// each guardrail's stop rate and pass rate, in percent.
func Table(w io.Writer, names []string, tallies []*Tally) error {
	if len(names) != len(tallies) || len(tallies) == 0 {
		return errors.New("corpus.Table: want one name per tally, and at least one")
	}
	var b strings.Builder
	b.WriteString("| theme | lines (stop / pass) |")
	sep := "|---|---|"
	for _, n := range names {
		fmt.Fprintf(&b, " %s stopped | %s passed |", n, n)
		sep += "---|---|"
	}
	b.WriteString("\n" + sep + "\n")
	row := func(label string, counts []Count) {
		fmt.Fprintf(&b, "| %s | %d / %d |", label, counts[0].Stop, counts[0].Pass)
		for _, c := range counts {
			fmt.Fprintf(&b, " %s | %s |", percent(c.Stopped, c.Stop), percent(c.Passed, c.Pass))
		}
		b.WriteString("\n")
	}
	for _, theme := range tallies[0].Themes() {
		counts := make([]Count, len(tallies))
		for i, t := range tallies {
			counts[i] = t.Theme(theme)
		}
		row(theme, counts)
	}
	totals := make([]Count, len(tallies))
	for i, t := range tallies {
		totals[i] = t.Total()
	}
	row("**all**", totals)
	_, err := io.WriteString(w, b.String())
	return err
}

// percent is n of total as a percentage, "—" when total is 0.
func percent(n, total int) string {
	if total == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(n)/float64(total))
}
