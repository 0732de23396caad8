package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/picoclaw"
	"github.com/hookhost/hookhost/host"
)

// A hook gets its payload by parameter name, so a misspelled parameter
// (tool_nme) is a hook that reads nil for ever: a guard that never fires,
// with nothing failing. check warns of, and serve notes, every parameter
// that is neither a field its event documents (host's catalog) nor one an
// agent's dialect puts in the payload nor ctx. A warning and not an
// error: custom events and agents' extra fields exist.

// fieldsDialect is a dialect that lists the payload fields its agent's
// events carry, as hooks see them.
type fieldsDialect interface{ Fields() []string }

// agentFields are the payload fields some agent's dialect adds: each
// command agent's and PicoClaw's.
func agentFields() map[string]bool {
	out := map[string]bool{}
	add := func(d any) {
		if fd, ok := d.(fieldsDialect); ok {
			for _, f := range fd.Fields() {
				out[f] = true
			}
		}
	}
	for _, a := range agents {
		add(a.dialect)
	}
	add(picoclaw.Dialect{})
	return out
}

// paramWarnings describes the hooks' parameters that name no known field,
// one a line as "<file>:<line>: hook <id>: parameter <p> is …", in the
// order of the hooks.
func paramWarnings(hooks []host.HookInfo, events []host.EventSpec) []string {
	specs := make(map[string]host.EventSpec, len(events))
	for _, e := range events {
		specs[e.Name] = e
	}
	agent := agentFields()
	var out []string
	for _, h := range hooks {
		spec, known := specs[h.Event]
		if !known || len(spec.Fields) == 0 { // a custom event documents no fields: nothing to check against
			continue
		}
		for _, p := range h.Params {
			if !checkedParam(p) || slices.Contains(spec.Fields, p) || agent[p] {
				continue
			}
			msg := fmt.Sprintf("%s:%d: hook %s: parameter %s is not a field of %s (%s) nor of any agent's payload: it is always nil",
				h.File, h.Line, h.ID, p, h.Event, strings.Join(spec.Fields, ", "))
			if near := nearFields(p, spec.Fields, agent); len(near) > 0 {
				msg += "; did you mean " + strings.Join(near, " or ") + "?"
			}
			out = append(out, msg)
		}
	}
	return out
}

// checkedParam reports whether a parameter names a payload field to
// check: not ctx (the call context), a vararg, **kwargs, self (Lua's
// method syntax) or a name that starts with _ (unused on purpose).
func checkedParam(p string) bool {
	return p != "ctx" && p != "..." && p != "self" && !strings.HasPrefix(p, "*") && !strings.HasPrefix(p, "_")
}

// nearFields are the known fields within a few edits of p, closest first
// (the event's own before an agent's at the same distance), at most three.
func nearFields(p string, event []string, agent map[string]bool) []string {
	type cand struct {
		name  string
		dist  int
		agent bool
	}
	limit := max(2, len(p)/3)
	var cands []cand
	seen := map[string]bool{}
	consider := func(f string, fromAgent bool) {
		if seen[f] {
			return
		}
		seen[f] = true
		if d := editDistance(strings.ToLower(p), strings.ToLower(f)); d <= limit {
			cands = append(cands, cand{f, d, fromAgent})
		}
	}
	for _, f := range event {
		consider(f, false)
	}
	for _, f := range slices.Sorted(maps.Keys(agent)) {
		consider(f, true)
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		if a.agent != b.agent {
			if a.agent {
				return 1
			}
			return -1
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for _, c := range cands[:min(3, len(cands))] {
		out = append(out, c.name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
