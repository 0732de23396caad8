package std_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/shell"
	"github.com/hookhost/hookhost/stdlib/std"
)

// The reference of the script API, docs/stdlib.md, lives outside the
// code. These tests keep it in step with the modules, so that a function
// cannot be added or renamed without the docs following, and run its
// examples. (The LuaLS annotations, which hookhost init writes, are
// checked next to them, in cmd/hookhost/internal/scaffold.)

const stdlibDoc = "../../docs/stdlib.md"

// standardModules returns fresh standard modules, shell included.
func standardModules() []stdlib.Module {
	mods := std.Modules(std.Options{})
	if !slices.ContainsFunc(mods, func(m stdlib.Module) bool { return m.Name == "shell" }) {
		mods = append(mods, shell.New())
	}
	return mods
}

// documentedModules returns the standard modules, the hook module and
// the expect module, each with the functions the engines add.
func documentedModules() []stdlib.Module {
	return scripttest.APIModules(standardModules()...)
}

func readDoc(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestStdlibDocCoversEveryFunction checks that docs/stdlib.md has a
// section for every module and names every function as module.func; a
// standard module's function must have a heading of its own
// ("### re.find_all(pattern, text, n?)").
func TestStdlibDocCoversEveryFunction(t *testing.T) {
	doc := readDoc(t, stdlibDoc)
	for _, m := range documentedModules() {
		heading := regexp.MustCompile(`(?m)^#{2,3} ` + regexp.QuoteMeta(m.Name) + `\b`)
		if !heading.MatchString(doc) {
			t.Errorf("%s: module %s has no section (a heading starting with %q)", stdlibDoc, m.Name, m.Name)
		}
		for _, f := range m.Funcs {
			full := m.Name + "." + f.Name
			if !regexp.MustCompile(`\b` + regexp.QuoteMeta(full) + `\b`).MatchString(doc) {
				t.Errorf("%s: function %s is not mentioned", stdlibDoc, full)
				continue
			}
			if m.Name == "hook" || m.Name == "expect" {
				continue // summarised in a table; scripting.md and testing.md are their references
			}
			if !regexp.MustCompile(`(?m)^#{3,4} ` + regexp.QuoteMeta(full) + `\(`).MatchString(doc) {
				t.Errorf("%s: function %s has no heading (### %s(…))", stdlibDoc, full, full)
			}
		}
	}
}

// exampleBlock matches a fenced Lua or Starlark block of the docs.
var exampleBlock = regexp.MustCompile("(?s)```(lua|python)\n(.*?)```")

// TestStdlibDocExamples runs the side-by-side examples of docs/stdlib.md,
// the blocks whose lines show results ("expr  --> value" in Lua,
// "expr  # => value" in Starlark, "--> error "part of the message""),
// as script tests: each result line becomes an expect.eq, each error line
// an expect.fails, and every other line runs as it is. A test file is
// named after the line S of docs/stdlib.md where its block's code starts;
// its line L is line S+L-2 of the doc (line 1 loads expect). Each block
// gets fresh modules, so the state examples start from an empty store.
func TestStdlibDocExamples(t *testing.T) {
	doc := readDoc(t, stdlibDoc)
	dir := t.TempDir()
	n := 0
	for _, m := range exampleBlock.FindAllStringSubmatchIndex(doc, -1) {
		lang, code := doc[m[2]:m[3]], doc[m[4]:m[5]]
		marker, ext, head := " --> ", ".lua", `local expect = require("expect")`
		if lang == "python" {
			marker, ext, head = " # => ", ".star", `load("expect", "expect")`
		}
		if !strings.Contains(code, marker) {
			continue
		}
		lines := []string{head}
		for _, line := range strings.Split(code, "\n") {
			expr, want, ok := strings.Cut(line, marker)
			expr, want = strings.TrimSpace(expr), strings.TrimSpace(want)
			msg, isErr := strings.CutPrefix(want, "error ")
			switch {
			case !ok:
				lines = append(lines, line)
			case isErr && lang == "lua":
				lines = append(lines, "expect.fails(function() return "+expr+" end, "+msg+")")
			case isErr:
				lines = append(lines, "expect.fails(lambda: "+expr+", "+msg+")")
			default:
				lines = append(lines, "expect.eq("+expr+", "+want+")")
			}
		}
		start := strings.Count(doc[:m[4]], "\n") + 1
		name := filepath.Join(dir, fmt.Sprintf("stdlib.md_line_%d%s", start, ext))
		if err := os.WriteFile(name, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		n++
		t.Run(filepath.Base(name), func(t *testing.T) {
			scripttest.RunFile(t, name, standardModules()...)
		})
	}
	if n < 14 {
		t.Errorf("%s: %d example blocks show results, want at least one per module and language (14)", stdlibDoc, n)
	}
}
