package scaffold

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/std"
)

// The LuaLS annotations that init writes are the editor's view of the
// script API. These tests read them from the embedded templates — what
// init really writes — and compare them with the modules the engines
// bind, so a function cannot be added, renamed or given new parameters
// without its annotation following.

const annotations = "lua/hookhost.lua"

// luaFunc matches an annotated function and its parameters.
var luaFunc = regexp.MustCompile(`(?m)^function (\w+)\.(\w+)\(([^)]*)\)`)

func readTemplate(t *testing.T, name string) string {
	t.Helper()
	data, err := templates.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestLuaAnnotationsMatchTheModules checks that hookhost.lua declares a
// class for every module (the standard ones, hook and expect) and a
// function for every function, with the parameters the module takes, in
// order, and no function the code does not have.
func TestLuaAnnotationsMatchTheModules(t *testing.T) {
	ann := readTemplate(t, annotations)
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
	for _, m := range scripttest.APIModules(std.Modules(std.Options{})...) {
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
// and a function that takes named values (log.info, hook.fire) has one
// more parameter, the table of them.
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

// TestLuaRequireShims checks that every loadable module (the standard
// ones and expect) has its small lua/<module>.lua, which makes
// require("<module>") resolve to the module's class, and that there is
// no shim for a module that does not exist.
func TestLuaRequireShims(t *testing.T) {
	want := map[string]bool{"hookhost.lua": true}
	for _, m := range scripttest.APIModules(std.Modules(std.Options{})...) {
		if m.Name == "hook" {
			continue // a global, not loaded
		}
		name := "lua/" + m.Name + ".lua"
		want[m.Name+".lua"] = true
		text := readTemplate(t, name)
		if !strings.HasPrefix(text, "---@meta "+m.Name+"\n") || !strings.Contains(text, "---@type "+m.Name+"\n") {
			t.Errorf("%s: want \"---@meta %s\" and a value of \"---@type %s\" returned", name, m.Name, m.Name)
		}
	}
	entries, err := templates.ReadDir("lua")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !want[e.Name()] {
			t.Errorf("lua/%s: no module is named %s", e.Name(), strings.TrimSuffix(e.Name(), ".lua"))
		}
	}
}
