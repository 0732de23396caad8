package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/testrun"
)

// writeCoverage writes, per hook file, how many of its hooks the tests
// fired and which they did not.
func writeCoverage(w io.Writer, files []testrun.FileCoverage) {
	total, fired := 0, 0
	for _, f := range files {
		total += len(f.Hooks)
		fired += len(f.Hooks) - len(f.Unfired())
	}
	fmt.Fprintf(w, "coverage: %d of %d %s fired\n", fired, total, plural(total, "hook", "hooks"))
	for _, f := range files {
		n, unfired := len(f.Hooks), f.Unfired()
		fmt.Fprintf(w, "  %s: %d of %d fired", f.File, n-len(unfired), n)
		if len(unfired) > 0 {
			fmt.Fprintf(w, "; not fired: %s", strings.Join(unfiredNames(f), ", "))
		}
		fmt.Fprintln(w)
	}
}

// unfiredNames lists the unfired hooks, marking those switched off.
func unfiredNames(f testrun.FileCoverage) []string {
	var out []string
	for _, h := range f.Hooks {
		switch {
		case h.Fired:
		case !h.Enabled:
			out = append(out, h.ID+" (disabled)")
		default:
			out = append(out, h.ID)
		}
	}
	return out
}

// testSummaryJSON is the last --json object of hookhost test.
type testSummaryJSON struct {
	Passed     int      `json:"passed"`
	Failed     int      `json:"failed"`
	LoadErrors []string `json:"load_errors"`
	Problems   []string `json:"problems"`
	// Coverage is there with --coverage only ([] when there are no hooks).
	Coverage *[]fileCoverageJSON `json:"coverage,omitempty"`
}

type fileCoverageJSON struct {
	File     string   `json:"file"`
	Hooks    int      `json:"hooks"`
	Fired    int      `json:"fired"`
	NotFired []string `json:"not_fired"`
	// Disabled are the hooks switched off, which no test can fire.
	Disabled []string `json:"disabled"`
}

func summaryJSON(r *testrun.Report, coverage bool) testSummaryJSON {
	s := testSummaryJSON{Passed: r.Passed(), Failed: r.Failed(), LoadErrors: errorTexts(r.LoadErrors), Problems: errorTexts(r.Problems)}
	if !coverage {
		return s
	}
	files := []fileCoverageJSON{}
	s.Coverage = &files
	for _, f := range r.Coverage() {
		unfired := f.Unfired()
		if unfired == nil {
			unfired = []string{}
		}
		disabled := []string{}
		for _, h := range f.Hooks {
			if !h.Enabled {
				disabled = append(disabled, h.ID)
			}
		}
		files = append(files, fileCoverageJSON{File: f.File, Hooks: len(f.Hooks), Fired: len(f.Hooks) - len(unfired),
			NotFired: unfired, Disabled: disabled})
	}
	return s
}

// errorTexts is each problem's line, [] when none.
func errorTexts(errs []error) []string {
	out := []string{}
	for _, e := range errs {
		for _, p := range flatten(e) {
			out = append(out, p.Error())
		}
	}
	return out
}
