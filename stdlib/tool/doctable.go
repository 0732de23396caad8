package tool

import "strings"

// DocTable returns the table as the Markdown docs/stdlib.md shows: one
// row per agent, one column per kind, names in backticks. A test keeps
// the docs equal to it (go test ./stdlib/tool -run TestDocTable -update
// rewrites them).
func DocTable() string {
	var b strings.Builder
	var cols []string
	for _, k := range Kinds {
		if k != MCP { // found by the name's form, not listed
			cols = append(cols, k)
		}
	}
	b.WriteString("| Agent |")
	for _, k := range cols {
		b.WriteString(" " + k + " |")
	}
	b.WriteString("\n|---|")
	for range cols {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, a := range Agents() {
		b.WriteString("| " + a.Name + " |")
		for _, k := range cols {
			names := a.names(k)
			for i, n := range names {
				names[i] = "`" + n + "`"
			}
			b.WriteString(" " + strings.Join(names, ", ") + " |")
		}
		b.WriteString("\n")
	}
	return b.String()
}
