// Package scripttest runs script tests: Lua and Starlark files whose top
// level makes assertions with the expect module. One harness serves every
// package, so a behaviour is tested the same way in both languages.
//
// A test file loads what it needs (require("json") / load("json",
// "json"), and expect) and runs top to bottom; the first failed
// expectation or error fails its subtest with file:line: message.
//
//	local expect = require("expect")
//	expect.eq(1 + 1, 2)
//	expect.fails(function() error("boom") end, "boom")
package scripttest

import (
	"context"
	"github.com/hookhost/hookhost/scripting/engines"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// Engines are the engines script tests run on, by file extension.
func Engines() map[string]scripting.Engine {
	return engines.ByExtension()
}

// Run runs every .lua and .star file of dir as a subtest named after the
// file. It fails the test if dir has no script in one of the languages,
// so a behaviour cannot be tested in one language only by accident.
func Run(t *testing.T, dir string, modules ...stdlib.Module) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	seen := map[string]int{}
	for _, f := range files {
		ext := filepath.Ext(f)
		if Engines()[ext] == nil {
			continue
		}
		seen[ext]++
		t.Run(filepath.Base(f), func(t *testing.T) { RunFile(t, f, modules...) })
	}
	for ext := range Engines() {
		if seen[ext] == 0 {
			t.Errorf("%s has no %s script tests", dir, ext)
		}
	}
}

// RunFile runs one script test file.
func RunFile(t *testing.T, path string, modules ...stdlib.Module) {
	t.Helper()
	code, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	eng := Engines()[filepath.Ext(path)]
	env := &scripting.Env{Modules: modules, Testing: true, Logger: slog.New(slog.NewTextHandler(testWriter{t}, nil))}
	prog, err := eng.Compile(context.Background(), scripting.Source{Name: filepath.Base(path), Code: code}, env)
	if err != nil {
		t.Fatalf("%v", err)
	}
	prog.Close()
}

// testWriter sends script output (print, log) to the test log.
type testWriter struct{ t *testing.T }

// Write logs p as one test log line.
func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(string(p))
	return len(p), nil
}

// APIModules returns the whole script API as modules, for the checks
// that keep documentation in step with the code: mods, then the hook
// module (its constructors, hook.fire, and hook.on, which each engine
// adds itself) and the expect module of test files (with expect.fails,
// which each engine adds itself).
func APIModules(mods ...stdlib.Module) []stdlib.Module {
	hook := scripting.HookModuleFor(nil)
	hook.Funcs = append(hook.Funcs, stdlib.Func{
		Name:   "on",
		Params: []stdlib.Param{stdlib.P("event"), stdlib.P("fn"), stdlib.Opt("opts")},
	})
	expect := scripting.ExpectModule()
	expect.Funcs = append(expect.Funcs, stdlib.Func{
		Name:   "fails",
		Params: []stdlib.Param{stdlib.P("fn"), stdlib.Opt("text")},
	})
	return append(append([]stdlib.Module(nil), mods...), hook, expect)
}
