package yamlnode

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/hookhost/hookhost/stdlib"
)

// A Style is how a Decoder words the problems it finds.
type Style int

const (
	// Terse says what was wanted ("want a string"), takes a null where a
	// mapping is wanted as an empty one, and calls a repeated key one
	// that "appears twice": hookhost.yaml's and HOOK.md's wording.
	Terse Style = iota
	// Found also says what was found instead ("want a string, got a
	// list"), lists the allowed keys when a mapping is missing, refuses a
	// null mapping, and calls a repeated key "repeated": the table tests'
	// wording.
	Found
)

// A Decoder walks YAML nodes and reports each problem, with the line of
// the node it is about, to Report.
type Decoder struct {
	// Report receives every problem: the node's line and the message.
	Report func(line int, msg string)
	// Stop, when set, reports whether to stop walking a mapping's keys
	// (a decoder that keeps only its first problem).
	Stop func() bool
	// Style is the wording of messages.
	Style Style
}

// Errorf reports a problem at n's line.
func (d *Decoder) Errorf(n *yaml.Node, format string, args ...any) {
	d.Report(n.Line, fmt.Sprintf(format, args...))
}

func (d *Decoder) stopped() bool { return d.Stop != nil && d.Stop() }

// Mapping calls fn for each key of a mapping node, in order, reporting
// keys not in allowed (nil allows any key) and keys given twice. what
// names the mapping in messages.
func (d *Decoder) Mapping(n *yaml.Node, what string, allowed []string, fn func(key string, k, v *yaml.Node)) {
	if d.Style == Terse && n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return
	}
	if n.Kind != yaml.MappingNode {
		if d.Style == Found {
			d.Errorf(n, "%s: want a mapping (%s), got %s", what, strings.Join(allowed, ", "), KindName(n))
		} else {
			d.Errorf(n, "%s: want a mapping", what)
		}
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content) && !d.stopped(); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case allowed != nil && (k.Kind != yaml.ScalarNode || !slices.Contains(allowed, k.Value)):
			d.Errorf(k, "%s: unknown key %q (want %s)", what, k.Value, strings.Join(allowed, ", "))
		case seen[k.Value]:
			d.Errorf(k, "%s: key %q %s", what, k.Value, d.repeated())
		default:
			seen[k.Value] = true
			fn(k.Value, k, v)
		}
	}
}

func (d *Decoder) repeated() string {
	if d.Style == Found {
		return "is repeated"
	}
	return "appears twice"
}

// got is ", got …" naming what n is, in the Found style.
func (d *Decoder) got(n *yaml.Node) string {
	if d.Style == Found {
		return ", got " + KindName(n)
	}
	return ""
}

// Str reads a string ("" after a problem).
func (d *Decoder) Str(n *yaml.Node, what string) string {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		d.Errorf(n, "%s: want a string%s", what, d.got(n))
		return ""
	}
	return n.Value
}

// StrList reads a list of strings.
func (d *Decoder) StrList(n *yaml.Node, what string) []string {
	if n.Kind != yaml.SequenceNode {
		d.Errorf(n, "%s: want a list of strings%s", what, d.got(n))
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for _, e := range n.Content {
		out = append(out, d.Str(e, what))
	}
	return out
}

// FreeMap decodes a mapping of any content into the neutral values hooks
// see (stdlib.Normalize); a null is an empty mapping in the Terse style.
func (d *Decoder) FreeMap(n *yaml.Node, what string) map[string]any {
	if d.Style == Found && n.Kind != yaml.MappingNode {
		d.Errorf(n, "%s: want a mapping, got %s", what, KindName(n))
		return nil
	}
	var raw map[string]any
	if err := n.Decode(&raw); err != nil {
		if d.Style == Found {
			d.Errorf(n, "%s: %s", what, strings.TrimPrefix(err.Error(), "yaml: "))
		} else {
			d.Errorf(n, "%s: want a mapping: %v", what, err)
		}
		return nil
	}
	v, err := stdlib.Normalize(raw)
	if err != nil {
		d.Errorf(n, "%s: %v", what, err)
		return nil
	}
	m, _ := v.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

// KindName describes a node for messages: "a mapping", "a list",
// "null", `the string "x"`, "int 3".
func KindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	switch n.Tag {
	case "!!null":
		return "null"
	case "!!str":
		return fmt.Sprintf("the string %q", n.Value)
	}
	return fmt.Sprintf("%s %s", strings.TrimPrefix(n.Tag, "!!"), n.Value)
}

// SyntaxError splits a YAML syntax error ("yaml: line 3: did not find
// expected node content") into its line and the rest, so that an error
// names the line once, as file:line; line is 0 when the text names none.
// The YAML package gives syntax errors no type of their own; its text is
// all there is.
func SyntaxError(err error) (line int, msg string) {
	msg = strings.TrimPrefix(err.Error(), "yaml: ")
	if _, e := fmt.Sscanf(msg, "line %d:", &line); e == nil {
		_, rest, _ := strings.Cut(msg, ": ")
		return line, rest
	}
	return 0, msg
}
