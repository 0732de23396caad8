package testrun

import (
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
)

func TestDecodeTable(t *testing.T) {
	yamlTable := `cases:
  - name: rm of root            # a comment
    event: tool.execute.pre
    payload: {tool_name: Bash, params: {command: "rm -rf /"}, cwd: /work/project, n: 3, f: 2.5}
    expect: {action: deny, reason_contains: "root", hook: "destructive.lua:no-destructive-commands"}
  - event: turn.pre
    allow_hook_errors: true
    expect:
      ran: a.lua:x
      payload: {prompt: hi}
`
	tbl, err := DecodeTable("t_test.yaml", []byte(yamlTable))
	if err != nil {
		t.Fatal(err)
	}
	if len(tbl.Cases) != 2 {
		t.Fatalf("%d cases, want 2", len(tbl.Cases))
	}
	c := tbl.Cases[0]
	if c.Name != "rm of root" || c.Line != 2 || c.Event != "tool.execute.pre" || c.AllowHookErrors {
		t.Errorf("case 1: %+v", c)
	}
	wantPayload := map[string]any{"tool_name": "Bash", "params": map[string]any{"command": "rm -rf /"},
		"cwd": "/work/project", "n": int64(3), "f": 2.5}
	if !stdlib.Equal(c.Payload, wantPayload) {
		t.Errorf("payload %#v, want %#v", c.Payload, wantPayload)
	}
	wantExpect := []Expectation{{"action", "deny", 5}, {"reason_contains", "root", 5}, {"hook", "destructive.lua:no-destructive-commands", 5}}
	if len(c.Expect) != len(wantExpect) {
		t.Fatalf("expect %+v, want %+v", c.Expect, wantExpect)
	}
	for i, e := range wantExpect {
		if c.Expect[i].Key != e.Key || c.Expect[i].Want != e.Want || c.Expect[i].Line != e.Line {
			t.Errorf("expect %d: %+v, want %+v", i, c.Expect[i], e)
		}
	}
	c = tbl.Cases[1]
	if c.Name != "turn.pre #2" || !c.AllowHookErrors || len(c.Payload) != 0 || c.Payload == nil {
		t.Errorf("case 2: %+v", c)
	}
	if got := c.Expect[0]; got.Key != "ran" || !stdlib.Equal(got.Want, []any{"a.lua:x"}) || got.Line != 9 {
		t.Errorf("ran: %+v", got)
	}
	if got := c.Expect[1]; got.Key != "payload" || !stdlib.Equal(got.Want, map[string]any{"prompt": "hi"}) {
		t.Errorf("payload: %+v", got)
	}
}

// TestDecodeTableJSON: JSON is read as YAML, lines included.
func TestDecodeTableJSON(t *testing.T) {
	data := "{\n\t\"cases\": [\n\t\t{\"event\": \"turn.pre\", \"payload\": {\"a\": [1, null, \"\\/x\"], \"b\": \"x\\\\/y\"},\n\t\t \"expect\": {\"action\": \"deny\"}}\n\t]\n}\n"
	tbl, err := DecodeTable("t_test.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	c := tbl.Cases[0]
	if c.Line != 3 || c.Expect[0].Line != 4 || !stdlib.Equal(c.Payload, map[string]any{"a": []any{int64(1), nil, "/x"}, "b": `x\/y`}) {
		t.Errorf("case %+v", c)
	}
}

func TestDecodeTableErrors(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"", `t_test.yaml: table test: the file is empty (want a mapping with "cases")`},
		{"cases: [\n", "t_test.yaml:1: did not find expected node content"},
		{"- 1\n", "t_test.yaml:1: table test: the file: want a mapping (cases, hooks_dir), got a list"},
		{"tests: []\n", `t_test.yaml:1: table test: the file: unknown key "tests" (want cases, hooks_dir)`},
		{"hooks_dir: guards\ncases: []\n", `t_test.yaml:1: table test: hooks_dir: want an absolute path, got "guards"`},
		{"hooks_dir: [x]\ncases: []\n", "t_test.yaml:1: table test: hooks_dir: want a string, got a list"},
		{"{}\n", `t_test.yaml:1: table test: the file has no "cases" list`},
		{"cases: 3\n", "t_test.yaml:1: table test: cases: want a list of cases, got int 3"},
		{"cases:\n  - 5\n", "t_test.yaml:2: table test: case 1: want a mapping (name, event, payload, expect, allow_hook_errors), got int 5"},
		{"cases:\n  - event: a\n  - nme: x\n", `t_test.yaml:3: table test: case 2: unknown key "nme" (want name, event, payload, expect, allow_hook_errors)`},
		{"cases:\n  - name: x\n", "t_test.yaml:2: table test: case 1: no event (want event: tool.execute.pre, say)"},
		{"cases:\n  - event: 5\n", "t_test.yaml:2: table test: case 1: event: want a string, got int 5"},
		{"cases:\n  - event: a\n    event: b\n", `t_test.yaml:3: table test: case 1: key "event" is repeated`},
		{"cases:\n  - event: a\n    payload: [1]\n", "t_test.yaml:3: table test: case 1: payload: want a mapping, got a list"},
		{"cases:\n  - event: a\n    payload: {x: .nan}\n", "t_test.yaml:3: table test: case 1: payload: "},
		{"cases:\n  - event: a\n    expect: {action: deny,\n      reasn: x}\n", `t_test.yaml:4: table test: case 1: expect: unknown key "reasn"`},
		{"cases:\n  - event: a\n    expect: {action: [deny]}\n", "t_test.yaml:3: table test: case 1: expect: action: want a string, got a list"},
		{"cases:\n  - event: a\n    expect: {ran: {a: b}}\n", "t_test.yaml:3: table test: case 1: expect: ran: want a hook id or a list of them, got a mapping"},
		{"cases:\n  - event: a\n    expect: {shadow: deny}\n", `t_test.yaml:3: table test: case 1: expect: shadow: want a mapping of hook id to action, got the string "deny"`},
		{"cases:\n  - event: a\n    expect:\n      shadow: {a.lua:x: [deny]}\n", "t_test.yaml:4: table test: case 1: expect: shadow: a.lua:x: want a string, got a list"},
		{"cases:\n  - event: a\n    allow_hook_errors: yes\n", `t_test.yaml:3: table test: case 1: allow_hook_errors: want true or false, got the string "yes"`},
		{aliasBomb(), "t_test.yaml:4: table test: case 1: payload: document contains excessive aliasing"},
	} {
		_, err := DecodeTable("t_test.yaml", []byte(tc.data))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s…", tc.data, err, tc.want)
		}
	}
}

// aliasBomb is a payload whose aliases would expand to 9^9 strings.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("cases:\n  - event: a\n    payload:\n      a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	prev := "a"
	for _, name := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		b.WriteString("      " + name + ": &" + name + " [" + strings.Repeat("*"+prev+", ", 8) + "*" + prev + "]\n")
		prev = name
	}
	return b.String()
}

func FuzzDecodeTable(f *testing.F) {
	f.Add([]byte("cases:\n  - name: x\n    event: tool.execute.pre\n    payload: {a: [1, 2.5, true, null]}\n    expect: {action: deny, ran: [a, b]}\n"))
	f.Add([]byte(`{"cases": [{"event": "turn.pre", "payload": {"x": {"y": "z"}}, "expect": {"payload": {"x": 1}}}]}`))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("cases:\n  - event: a\n    payload: &p {x: [*p]}\n"))
	f.Add([]byte("cases: [{event: a, payload: {a: &x [1,2], b: [*x, *x, *x]}}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"f_test.yaml", "f_test.json"} {
			checkDecoded(t, name, data)
		}
	})
}

// checkDecoded decodes data and checks that an error names the file and
// that a table is complete and made of neutral values.
func checkDecoded(t *testing.T, name string, data []byte) {
	tbl, err := DecodeTable(name, data)
	if err != nil {
		if !strings.HasPrefix(err.Error(), name) {
			t.Fatalf("error %q does not name the file", err)
		}
		return
	}
	for _, c := range tbl.Cases {
		if c.Event == "" || c.Name == "" || c.Payload == nil || c.Line <= 0 {
			t.Fatalf("incomplete case %+v", c)
		}
		if err := stdlib.Check(c.Payload); err != nil {
			t.Fatalf("payload is not made of neutral values: %v", err)
		}
		for _, e := range c.Expect {
			if e.Line <= 0 {
				t.Fatalf("expectation %+v has no line", e)
			}
		}
	}
}
