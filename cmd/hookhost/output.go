package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/stdlib"
)

// writeResult writes a fire's result for people: the trace as a table,
// then the decision, the messages, and the payload when a hook changed
// it. in is the payload the fire was given.
func writeResult(w io.Writer, in map[string]any, res host.Result) error {
	ew := &errWriter{w: w}
	writeTrace(ew, res.Trace)
	fmt.Fprintln(ew)
	writeDecision(ew, res.Decision)
	if len(res.Messages) > 0 {
		fmt.Fprintln(ew, "messages:")
		for _, m := range res.Messages {
			fmt.Fprintf(ew, "  [%s] %s\n", m.Role, indentLines(m.Content, "  "))
		}
	}
	if !stdlib.Equal(in, res.Payload) {
		fmt.Fprintln(ew, "payload (modified):")
		fmt.Fprintf(ew, "  %s\n", indentLines(jsonText(res.Payload, true), "  "))
	}
	return ew.err
}

// writeTrace writes one row per hook that ran. The action of a hook in
// shadow mode, recorded but not applied, is marked with its enforcement:
// "deny (dryrun)".
func writeTrace(w io.Writer, trace []host.TraceEntry) {
	if len(trace) == 0 {
		fmt.Fprintln(w, "no hooks ran")
		return
	}
	rows := [][]string{{"HOOK", "PRIORITY", "OUTCOME", "ACTION", "DURATION", "ERROR"}}
	for _, t := range trace {
		action := orDash(string(t.Action))
		if t.Enforce != "" {
			action += " (" + string(t.Enforce) + ")"
		}
		rows = append(rows, []string{t.Hook, strconv.FormatInt(t.Priority, 10), string(t.Outcome),
			action, formatDuration(t.Duration), firstLine(t.Error)})
	}
	writeTable(w, rows)
}

// writeTable writes rows as columns two spaces apart, without trailing
// spaces.
func writeTable(w io.Writer, rows [][]string) {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
	for line := range strings.Lines(buf.String()) {
		fmt.Fprintln(w, strings.TrimRight(line, " \n"))
	}
}

// writeDecision writes the decision as "key: value" lines.
func writeDecision(w io.Writer, d host.Decision) {
	fmt.Fprintf(w, "decision: %s\n", d.Action)
	if d.Reason != "" {
		fmt.Fprintf(w, "reason:   %s\n", indentLines(d.Reason, "          "))
	}
	if d.Hook != "" {
		fmt.Fprintf(w, "hook:     %s\n", d.Hook)
	}
	if d.Action == host.Respond {
		fmt.Fprintf(w, "result:   %s\n", jsonText(d.Result, false))
	}
	if a := d.Approval; a != nil && d.Action == host.Ask {
		fmt.Fprintf(w, "approval: %s\n", approvalText(a))
	}
}

func approvalText(a *host.Approval) string {
	var parts []string
	if a.Title != "" {
		parts = append(parts, fmt.Sprintf("title %q", a.Title))
	}
	if a.Severity != "" {
		parts = append(parts, "severity "+a.Severity)
	}
	if a.Timeout > 0 {
		parts = append(parts, "timeout "+a.Timeout.String())
	}
	return strings.Join(append(parts, "on timeout "+string(a.TimeoutBehavior)), ", ")
}

// formatDuration rounds to the microsecond (three significant places
// below a millisecond are noise for a person).
func formatDuration(d time.Duration) string {
	return d.Round(time.Microsecond).String()
}

func jsonText(v any, indent bool) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// indentLines indents every line of s after the first.
func indentLines(s, indent string) string {
	return strings.ReplaceAll(s, "\n", "\n"+indent)
}

// errWriter remembers the first write error, so a sequence of prints
// can be checked once.
type errWriter struct {
	w   io.Writer
	err error
}

// Write writes p unless an earlier write failed, and keeps the first error.
func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// writeHooks writes the hooks as a table, one row per hook.
func writeHooks(w io.Writer, hooks []host.HookInfo) error {
	ew := &errWriter{w: w}
	if len(hooks) == 0 {
		fmt.Fprintln(ew, "no hooks")
		return ew.err
	}
	rows := [][]string{{"ID", "EVENT", "PRIORITY", "TIMEOUT", "ENABLED", "QUARANTINED", "ISOLATED", "ENFORCE", "PARAMS"}}
	// Recent failures exist only in a host that has fired (a one-shot
	// list's has not): the column shows when some hook has any.
	failures := slices.ContainsFunc(hooks, func(h host.HookInfo) bool { return h.Recent.Total() > 0 })
	if failures {
		rows[0] = append(rows[0], "FAILURES ("+shortDuration(host.FailureWindow)+")")
	}
	for _, h := range hooks {
		row := []string{h.ID, h.Event, strconv.FormatInt(h.Priority, 10),
			fmt.Sprintf("%s (%s)", h.Timeout, h.TimeoutFrom), yesNo(h.Enabled), yesNo(h.Quarantined),
			yesNo(h.Isolated), string(h.Enforce), orDash(strings.Join(h.Params, ", "))}
		if failures {
			row = append(row, failureText(h.Recent))
		}
		rows = append(rows, row)
	}
	writeTable(ew, rows)
	writePacks(ew, hooks)
	return ew.err
}

// writePacks lists the hook packs of the hooks, with their descriptions,
// after the table.
func writePacks(w io.Writer, hooks []host.HookInfo) {
	rows := [][]string{{"PACK", "DESCRIPTION"}}
	seen := map[string]bool{}
	for _, h := range hooks {
		if h.Pack != "" && !seen[h.Pack] {
			seen[h.Pack] = true
			rows = append(rows, []string{h.Pack + "/", orDash(h.PackDescription)})
		}
	}
	if len(rows) > 1 {
		fmt.Fprintln(w)
		writeTable(w, rows)
	}
}

// failureText is a hook's recent failures in a word or a few:
// "3 timeouts, 1 error, last 2026-12-02T08:01:02Z: timed out after 1s".
func failureText(r host.RecentFailures) string {
	if r.Total() == 0 {
		return "-"
	}
	return fmt.Sprintf("%d %s, %d %s, last %s: %s", r.Timeouts, plural(r.Timeouts, "timeout", "timeouts"),
		r.Errors, plural(r.Errors, "error", "errors"), r.LastAt.UTC().Format(time.RFC3339), r.LastError)
}

// shortDuration is d as "10m" rather than "10m0s".
func shortDuration(d time.Duration) string {
	return strings.TrimSuffix(d.String(), "0s")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
