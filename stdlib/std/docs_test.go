package std_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/scripting/scripttest"
	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/shell"
	"github.com/hookhost/hookhost/stdlib/std"
)

// The documentation of the script API lives outside the code: the
// reference docs/stdlib.md and the LuaLS annotations docs/lua/hookhost.lua
// that operators' editors read. These tests keep both in step with the
// modules, so that a function cannot be added, renamed or given new
// parameters without the docs following.

const (
	stdlibDoc   = "../../docs/stdlib.md"
	annotations = "../../docs/lua/hookhost.lua"
	luaDir      = "../../docs/lua"
)

// standardModules returns fresh standard modules, shell included.
func standardModules() []stdlib.Module {
	mods := std.Modules(std.Options{})
	if !slices.ContainsFunc(mods, func(m stdlib.Module) bool { return m.Name == "shell" }) {
		mods = append(mods, shell.New())
	}
	return mods
}

// documentedModules returns the standard modules and the hook module,
// with hook.on (which each engine adds itself) as one more function.
func documentedModules() []stdlib.Module {
	mods := standardModules()
	hook := scripting.HookModule()
	hook.Funcs = append(hook.Funcs, stdlib.Func{
		Name:   "on",
		Params: []stdlib.Param{stdlib.P("event"), stdlib.P("fn"), stdlib.Opt("opts")},
	})
	return append(mods, hook)
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
			if m.Name == "hook" {
				continue // summarised in a table; scripting.md is its reference
			}
			if !regexp.MustCompile(`(?m)^#{3,4} ` + regexp.QuoteMeta(full) + `\(`).MatchString(doc) {
				t.Errorf("%s: function %s has no heading (### %s(…))", stdlibDoc, full, full)
			}
		}
	}
}

// luaFunc matches a function annotated in hookhost.lua and its parameters.
var luaFunc = regexp.MustCompile(`(?m)^function (\w+)\.(\w+)\(([^)]*)\)`)

// TestLuaAnnotationsMatchTheModules checks that docs/lua/hookhost.lua
// declares a class for every module and a function for every function,
// with the parameters the module takes, in order, and no function the
// code does not have.
func TestLuaAnnotationsMatchTheModules(t *testing.T) {
	ann := readDoc(t, annotations)
	if !strings.HasPrefix(ann, "---@meta") {
		t.Errorf("%s: does not start with ---@meta", annotations)
	}
	annotated := map[string][]string{} // "re.find_all" -> its parameters
	for _, m := range luaFunc.FindAllStringSubmatch(ann, -1) {
		var params []string
		for _, p := range strings.Split(m[3], ",") {
			if p = strings.TrimSpace(p); p != "" {
				params = append(params, p)
			}
		}
		annotated[m[1]+"."+m[2]] = params
	}
	known := map[string]bool{}
	for _, m := range documentedModules() {
		if !regexp.MustCompile(`(?m)^---@class ` + regexp.QuoteMeta(m.Name) + `\s*$`).MatchString(ann) {
			t.Errorf("%s: no ---@class %s", annotations, m.Name)
		}
		for i := range m.Funcs {
			f := &m.Funcs[i]
			full := m.Name + "." + f.Name
			known[full] = true
			params, ok := annotated[full]
			if !ok {
				t.Errorf("%s: function %s is not annotated (want a line \"function %s(…) end\")", annotations, full, full)
				continue
			}
			if err := sameParams(f, params); err != "" {
				t.Errorf("%s: function %s(%s): %s", annotations, full, strings.Join(params, ", "), err)
			}
		}
	}
	for full := range annotated {
		if !known[full] {
			t.Errorf("%s: annotates %s, which no module has", annotations, full)
		}
	}
}

// sameParams compares an annotation's parameter names with f's. A
// trailing "..." stands for the remaining optional parameters (path.join),
// and a function that takes named values (log.info) has one more
// parameter, the table of them.
func sameParams(f *stdlib.Func, annotated []string) string {
	for i, name := range annotated {
		switch {
		case name == "..." && i == len(annotated)-1:
			for _, p := range f.Params[min(i, len(f.Params)):] {
				if !p.Optional {
					return "\"...\" stands for the required parameter " + p.Name
				}
			}
			return ""
		case i < len(f.Params) && name == f.Params[i].Name:
		case i == len(f.Params) && f.Kwargs:
		case i < len(f.Params):
			return "parameter " + name + " should be " + f.Params[i].Name
		default:
			return "parameter " + name + " is not taken by the function"
		}
	}
	if len(annotated) < len(f.Params) {
		return "parameter " + f.Params[len(annotated)].Name + " is missing"
	}
	return ""
}

// TestLuaRequireShims checks that every standard module has its small
// docs/lua/<module>.lua, which makes require("<module>") resolve to the
// module's class in lua-language-server.
func TestLuaRequireShims(t *testing.T) {
	for _, m := range standardModules() {
		name := filepath.Join(luaDir, m.Name+".lua")
		data, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("module %s: %v", m.Name, err)
			continue
		}
		text := string(data)
		if !strings.HasPrefix(text, "---@meta "+m.Name+"\n") || !strings.Contains(text, "---@type "+m.Name+"\n") {
			t.Errorf("%s: want \"---@meta %s\" and a value of \"---@type %s\" returned", name, m.Name, m.Name)
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
