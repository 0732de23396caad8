package shell

import (
	"context"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
)

// call runs a module function as a binder would.
func call(t *testing.T, name string, args ...any) (any, error) {
	t.Helper()
	m := New()
	f, ok := m.Lookup(name)
	if !ok {
		t.Fatalf("shell.%s is missing", name)
	}
	for len(args) < len(f.Params) {
		args = append(args, nil)
	}
	out, err := f.Impl(&stdlib.Call{Context: context.Background(), Func: f, Args: args})
	return stdlib.Plain(out), err // the neutral value a result stands for
}

func TestModule(t *testing.T) {
	m := New()
	if m.Name != "shell" {
		t.Errorf("Name = %q", m.Name)
	}
	for _, name := range []string{"parse", "salvage", "powershell", "split", "has_flag", "roles", "code_calls"} {
		if f, ok := m.Lookup(name); !ok || f.Impl == nil || f.Doc == "" || f.Blocking {
			t.Errorf("shell.%s: %+v", name, f)
		}
	}
}

func TestModuleParse(t *testing.T) {
	got, err := call(t, "parse", "cd / && sudo rm -fr * > log")
	if err != nil {
		t.Fatal(err)
	}
	if err := stdlib.Check(got); err != nil {
		t.Fatalf("parse returned a non-neutral value: %v", err)
	}
	want := []any{
		map[string]any{
			"name": "cd", "argv": []any{"cd", "/"}, "wrapped_by": []any{}, "redirects": []any{},
			"pipeline": int64(0), "position": int64(0), "dynamic": false,
			"paths":       []any{pathValue("cd", "cd", false, false), pathValue("/", "/", false, false)},
			"roles":       []any{"name", "operand"},
			"in_function": "", "background": false, "code_from": []any{}, "lang": "", "code": "", "calls": []any{},
			"dir": "", "alt_dirs": []any{},
		},
		map[string]any{
			"name": "rm", "argv": []any{"rm", "-fr", "*"}, "wrapped_by": []any{"sudo"},
			"redirects": []any{map[string]any{"op": ">", "fd": int64(1), "target": "log"}},
			"pipeline":  int64(1), "position": int64(0), "dynamic": true,
			"paths": []any{pathValue("rm", "rm", false, false), pathValue("-fr", "-fr", false, false),
				pathValue("*", ".", true, false)},
			"roles":       []any{"name", "option", "operand"},
			"in_function": "", "background": false, "code_from": []any{}, "lang": "", "code": "", "calls": []any{},
			"dir": "/", "alt_dirs": []any{},
		},
	}
	if !stdlib.Equal(got, want) {
		t.Errorf("parse =\n%v\nwant\n%v", got, want)
	}
}

func pathValue(p, prefix string, glob, dynamic bool) map[string]any {
	return map[string]any{"path": p, "prefix": prefix, "glob": glob, "dynamic": dynamic}
}

func TestModuleCodeCalls(t *testing.T) {
	got, err := call(t, "code_calls", "python", `import os; os.system("rm -rf ~")`)
	want := []any{map[string]any{
		"kind": "shell", "func": "os.system", "args": []any{"rm -rf ~"}, "paths": []any{},
		"recursive": false, "dynamic": false,
	}}
	if err != nil || !stdlib.Equal(got, want) {
		t.Errorf("code_calls = %v, %v; want %v", got, err, want)
	}
	if err := stdlib.Check(got); err != nil {
		t.Error(err)
	}
	got, err = call(t, "code_calls", "ruby", "puts 1")
	if err != nil || !stdlib.Equal(got, []any{}) {
		t.Errorf("code_calls(ruby, puts 1) = %#v, %v; want an empty list", got, err)
	}
}

func TestModuleSplit(t *testing.T) {
	got, err := call(t, "split", `git commit -m "a message"`)
	if err != nil || !stdlib.Equal(got, []any{"git", "commit", "-m", "a message"}) {
		t.Errorf("split = %v, %v", got, err)
	}
	got, err = call(t, "split", "")
	if err != nil || !stdlib.Equal(got, []any{}) {
		t.Errorf("split('') = %#v, %v; want an empty list", got, err)
	}
}

func TestModuleHasFlag(t *testing.T) {
	parsed, err := call(t, "parse", "rm / -fr")
	if err != nil {
		t.Fatal(err)
	}
	cmd := parsed.([]any)[0]
	tests := []struct {
		cmd         any
		short, long any
		want        bool
	}{
		{cmd, "r", "recursive", true},
		{cmd, nil, "force", false},
		{cmd, "-f", nil, true},
		{cmd, "", "recursive", false},
		{[]any{"rm", "--recursive", "/"}, nil, "recursive", true},
		{[]any{"rm", "--rec", "/"}, "r", "--recursive", true},
		{map[string]any{}, "r", nil, false}, // an empty Lua table
	}
	for _, tc := range tests {
		got, err := call(t, "has_flag", tc.cmd, tc.short, tc.long)
		if err != nil || got != tc.want {
			t.Errorf("has_flag(%v, %v, %v) = %v, %v; want %v", tc.cmd, tc.short, tc.long, got, err, tc.want)
		}
	}
}

func TestModuleErrors(t *testing.T) {
	tests := []struct {
		fn       string
		args     []any
		contains string
	}{
		{"parse", []any{int64(1)}, "argument 1 (line): want string, got int"},
		{"parse", []any{nil}, "want string, got nil"},
		{"parse", []any{`echo "x`}, "reached EOF without closing quote"},
		{"parse", []any{strings.Repeat("x", MaxLineBytes+1)}, "too long"},
		{"split", []any{"a | b"}, "`|` is not a valid word"},
		{"split", []any{true}, "want string, got bool"},
		{"has_flag", []any{"rm -rf", "r", nil}, "got string"},
		{"has_flag", []any{map[string]any{"name": "rm"}, "r", nil}, "without argv"},
		{"has_flag", []any{[]any{"rm", int64(1)}, "r", nil}, "argv[1]: want string, got int"},
		{"has_flag", []any{[]any{"rm"}, nil, nil}, "want a short or a long flag"},
		{"has_flag", []any{[]any{"rm"}, "rf", nil}, "want one character"},
		{"has_flag", []any{[]any{"rm"}, nil, "--"}, "want a name"},
		{"has_flag", []any{[]any{"rm"}, int64(1), nil}, "argument 2 (short): want string"},
		{"code_calls", []any{"cobol", "x"}, `unknown language "cobol" (want one of python, perl, ruby, node, php, lua)`},
		{"code_calls", []any{"python", int64(1)}, "argument 2 (code): want string, got int"},
		{"code_calls", []any{"python", strings.Repeat("x", MaxLineBytes+1)}, "too long"},
	}
	for _, tc := range tests {
		got, err := call(t, tc.fn, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.contains) {
			t.Errorf("%s(%.40v) = %v, %v; want an error containing %q", tc.fn, tc.args, got, err, tc.contains)
		}
		if err != nil && strings.HasPrefix(err.Error(), "shell.") {
			t.Errorf("%s: error %q repeats the binder's prefix", tc.fn, err)
		}
	}
}

// TestModuleConcurrent runs parse from many goroutines, for -race.
func TestModuleConcurrent(t *testing.T) {
	done := make(chan error)
	for range 8 {
		go func() {
			var err error
			for _, tc := range parseCases[:20] {
				if _, e := call(t, "parse", tc.line); e != nil {
					err = e
				}
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
