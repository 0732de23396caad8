package doctor

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes the report for people: each entry, its verdict and
// why, then the conclusion.
func WriteText(w io.Writer, rep Report, title string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s, canary %q\n", title, rep.Event, rep.Canary)
	if len(rep.Files) > 0 {
		fmt.Fprintf(&b, "settings: %s\n", strings.Join(rep.Files, ", "))
	}
	for _, r := range rep.Entries {
		fmt.Fprintf(&b, "\n%s %s\n  %s\n", r.File, r.Path, r.describe())
		switch {
		case r.Skipped != "":
			fmt.Fprintf(&b, "  skipped: %s\n", r.Skipped)
		case r.Enforcing:
			fmt.Fprintf(&b, "  ENFORCING: %s\n", r.Answer)
		default:
			fmt.Fprintf(&b, "  NOT ENFORCING: %s\n", r.Reason)
			if r.Answer != "" {
				fmt.Fprintf(&b, "  it answered: %s\n", r.Answer)
			}
		}
		for _, warn := range r.Warnings {
			fmt.Fprintf(&b, "  warning: %s\n", warn)
		}
	}
	b.WriteString("\n")
	switch {
	case rep.Problem != "":
		fmt.Fprintf(&b, "not enforcing: %s\n", rep.Problem)
	case rep.Enforcing:
		fmt.Fprintf(&b, "enforcing: the canary is stopped\n")
	default:
		fmt.Fprintf(&b, "not enforcing: fix the entries marked NOT ENFORCING\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// describe is what the entry runs, and whose it is.
func (r Result) describe() string {
	whose := "not hookhost's"
	if r.Hookhost {
		whose = "hookhost"
	}
	if r.Managed {
		whose += ", managed"
	}
	what := r.Type + ": " + r.Command
	if r.Type == "http" {
		what = "http: POST " + r.URL
	}
	if r.Matcher != "" {
		what += " (matcher " + r.Matcher + ")"
	}
	return what + " [" + whose + "]"
}
