package testrun

import (
	"bytes"
	"fmt"
	"path"

	"go.yaml.in/yaml/v3"

	"github.com/hookhost/hookhost/host/yamlnode"
	"github.com/hookhost/hookhost/scripting"
)

// A Table is a table-test file (*_test.yaml, *_test.json): cases that
// need no code, each an event, a payload and what the decision must be.
//
//	cases:
//	  - name: rm of root
//	    event: tool.execute.pre
//	    payload: {tool_name: Bash, params: {command: "rm -rf /"}}
//	    expect: {action: deny, reason_contains: root}
//
// A file may say where its hooks are told they live (ctx.hooks_dir),
// so that a guard of the hooks directory can be tested on a path of the
// test's choosing: hooks_dir: /srv/guards.
type Table struct {
	Cases []Case
	// HooksDir is the absolute path the hooks see as ctx.hooks_dir in
	// this file's cases; empty means the directory tested.
	HooksDir string
}

// A Case is one row of a table test.
type Case struct {
	// Name names the case in reports; default "<event> #<index>", the
	// index counting the file's cases from 1.
	Name string
	// Line is where the case starts in the file.
	Line int
	// Event is the event to fire.
	Event string
	// Payload is the payload to fire it with; {} when absent.
	Payload map[string]any
	// Expect lists what the fire's result must be, in the file's order.
	Expect []Expectation
	// AllowHookErrors lets the case pass although a hook failed or timed
	// out during the fire (to test an event that fails closed).
	AllowHookErrors bool
}

// An Expectation is one key of a case's expect mapping.
type Expectation struct {
	// Key is the expectation: one of ExpectKeys.
	Key string
	// Want is its value: a string, except for payload (a map), ran (a
	// list of strings) and shadow (a map of hook id to action).
	Want any
	// Line is where the key is in the file.
	Line int
}

// caseKeys are the keys a case may have.
var caseKeys = []string{"name", "event", "payload", "expect", "allow_hook_errors"}

// ExpectKeys are the keys an expect mapping may have: the decision's
// action, its exact reason, a part of its reason, the id of the deciding
// hook, a part of one message, top-level fields the folded payload must
// hold, the hooks that must have run, and what hooks in shadow mode
// (enforce: dryrun or warn) returned without it being applied.
var ExpectKeys = []string{"action", "reason", "reason_contains", "hook", "message_contains", "payload", "ran", "shadow"}

// MaxTableSize bounds a table-test file, in bytes.
const MaxTableSize = 8 << 20

// DecodeTable parses a table-test file: YAML, or JSON (which is YAML
// too, so both report lines the same way). Every problem is an error
// naming file and line; the first one found is returned.
func DecodeTable(file string, data []byte) (*Table, error) {
	if len(data) > MaxTableSize {
		return nil, scripting.Errorf(file, 0, "table test: the file is larger than %d bytes", MaxTableSize)
	}
	if path.Ext(file) == ".json" {
		data = unescapeSlashes(data)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line, msg := yamlnode.SyntaxError(err)
		return nil, scripting.Errorf(file, line, "%s", msg)
	}
	d := newTableDecoder(file)
	t := &Table{}
	if len(doc.Content) == 0 {
		return nil, scripting.Errorf(file, 0, `table test: the file is empty (want a mapping with "cases")`)
	}
	d.root(doc.Content[0], t)
	if d.err != nil {
		return nil, d.err
	}
	return t, nil
}

// unescapeSlashes replaces the JSON escape \/ (a "/") inside strings,
// which YAML does not have, so that JSON files parse as YAML; nothing
// else changes, so lines stay where they are.
func unescapeSlashes(data []byte) []byte {
	if !bytes.Contains(data, []byte(`\/`)) {
		return data
	}
	out := make([]byte, 0, len(data))
	inString := false
	for i := 0; i < len(data); i++ {
		b := data[i]
		switch {
		case inString && b == '\\' && i+1 < len(data):
			if data[i+1] != '/' {
				out = append(out, b)
			}
			out = append(out, data[i+1])
			i++
			continue
		case b == '"':
			inString = !inString
		}
		out = append(out, b)
	}
	return out
}

// A tableDecoder walks the YAML nodes with a yamlnode.Decoder in the
// Found style, keeping the first problem.
type tableDecoder struct {
	yamlnode.Decoder
	err error
}

func newTableDecoder(file string) *tableDecoder {
	d := &tableDecoder{}
	d.Style = yamlnode.Found
	d.Report = func(line int, msg string) {
		if d.err == nil {
			d.err = scripting.Errorf(file, line, "table test: %s", msg)
		}
	}
	d.Stop = func() bool { return d.err != nil }
	return d
}

func (d *tableDecoder) root(n *yaml.Node, t *Table) {
	found := false
	d.Mapping(n, "the file", []string{"cases", "hooks_dir"}, func(key string, _, v *yaml.Node) {
		if key == "hooks_dir" {
			if t.HooksDir = d.Str(v, "hooks_dir"); d.err == nil && !path.IsAbs(t.HooksDir) {
				d.Errorf(v, "hooks_dir: want an absolute path, got %q", t.HooksDir)
			}
			return
		}
		found = true
		if v.Kind != yaml.SequenceNode {
			d.Errorf(v, "cases: want a list of cases, got %s", yamlnode.KindName(v))
			return
		}
		for i, c := range v.Content {
			if d.err == nil {
				t.Cases = append(t.Cases, d.decodeCase(c, i+1))
			}
		}
	})
	if !found && d.err == nil {
		d.Errorf(n, `the file has no "cases" list`)
	}
}

func (d *tableDecoder) decodeCase(n *yaml.Node, index int) Case {
	c := Case{Line: n.Line}
	what := fmt.Sprintf("case %d", index)
	d.Mapping(n, what, caseKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "name":
			c.Name = d.Str(v, what+": name")
		case "event":
			c.Event = d.Str(v, what+": event")
		case "payload":
			c.Payload = d.FreeMap(v, what+": payload")
		case "expect":
			c.Expect = d.expectations(v, what+": expect")
		case "allow_hook_errors":
			c.AllowHookErrors = d.boolean(v, what+": allow_hook_errors")
		}
	})
	if d.err == nil && c.Event == "" {
		d.Errorf(n, "%s: no event (want event: tool.execute.pre, say)", what)
	}
	if c.Name == "" {
		c.Name = fmt.Sprintf("%s #%d", c.Event, index)
	}
	if c.Payload == nil {
		c.Payload = map[string]any{}
	}
	return c
}

func (d *tableDecoder) expectations(n *yaml.Node, what string) []Expectation {
	var out []Expectation
	d.Mapping(n, what, ExpectKeys, func(key string, k, v *yaml.Node) {
		var want any
		switch key {
		case "payload":
			want = d.FreeMap(v, what+": payload")
		case "ran":
			want = d.hookIDs(v, what+": ran")
		case "shadow":
			want = d.shadowMap(v, what+": shadow")
		default:
			want = d.Str(v, what+": "+key)
		}
		out = append(out, Expectation{Key: key, Want: want, Line: k.Line})
	})
	return out
}

func (d *tableDecoder) boolean(n *yaml.Node, what string) bool {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		d.Errorf(n, "%s: want true or false, got %s", what, yamlnode.KindName(n))
		return false
	}
	return n.Value == "true"
}

// hookIDs reads one string or a list of strings, as a list.
func (d *tableDecoder) hookIDs(n *yaml.Node, what string) []any {
	if n.Kind == yaml.ScalarNode {
		return []any{d.Str(n, what)}
	}
	if n.Kind != yaml.SequenceNode {
		d.Errorf(n, "%s: want a hook id or a list of them, got %s", what, yamlnode.KindName(n))
		return nil
	}
	ids := d.StrList(n, what)
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// shadowMap reads the shadow expectation: a mapping of hook id to the
// action the hook returned ("continue" for none).
func (d *tableDecoder) shadowMap(n *yaml.Node, what string) map[string]any {
	if n.Kind != yaml.MappingNode {
		d.Errorf(n, "%s: want a mapping of hook id to action, got %s", what, yamlnode.KindName(n))
		return nil
	}
	out := map[string]any{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		id := d.Str(n.Content[i], what)
		out[id] = d.Str(n.Content[i+1], what+": "+id)
	}
	return out
}
