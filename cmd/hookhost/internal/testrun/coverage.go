package testrun

import (
	"slices"
	"strings"
)

// A FileCoverage is which hooks of one hook file the tests fired.
type FileCoverage struct {
	// File is the hook file, relative to the hooks directory.
	File string
	// Hooks are its hooks, sorted by id.
	Hooks []HookCoverage
}

// A HookCoverage is whether any test's fire ran a hook.
type HookCoverage struct {
	ID string
	// Fired: the hook appears in the trace of at least one fire.
	Fired bool
	// Enabled is false for a hook switched off (by its script or the
	// config), which no fire can run.
	Enabled bool
}

// Unfired lists the ids of the hooks no test fired.
func (f FileCoverage) Unfired() []string {
	var out []string
	for _, h := range f.Hooks {
		if !h.Fired {
			out = append(out, h.ID)
		}
	}
	return out
}

// Coverage reports, per hook file in path order, which of its hooks the
// tests' fires ran, from their traces. It covers only the tests that ran:
// with Match, a subset.
func (r *Report) Coverage() []FileCoverage {
	fired := map[string]bool{}
	for _, res := range r.Results {
		for _, f := range res.Fires {
			for _, t := range f.Result.Trace {
				fired[t.Hook] = true
			}
		}
	}
	byFile := map[string]*FileCoverage{}
	var out []*FileCoverage
	for _, h := range r.Hooks {
		fc := byFile[h.File]
		if fc == nil {
			fc = &FileCoverage{File: h.File}
			byFile[h.File] = fc
			out = append(out, fc)
		}
		fc.Hooks = append(fc.Hooks, HookCoverage{ID: h.ID, Fired: fired[h.ID], Enabled: h.Enabled})
	}
	slices.SortFunc(out, func(a, b *FileCoverage) int { return strings.Compare(a.File, b.File) })
	result := make([]FileCoverage, len(out))
	for i, fc := range out {
		slices.SortFunc(fc.Hooks, func(a, b HookCoverage) int { return strings.Compare(a.ID, b.ID) })
		result[i] = *fc
	}
	return result
}
