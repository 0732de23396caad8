package starlark

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/scripting/programtest"
)

const cachedGuard = `BLOCKED = ["rm -rf /", "mkfs"]

def guard(params = {}):
    cmd = params.get("command", "")
    for b in BLOCKED:
        if b in cmd:
            return hook.deny("blocked " + b)
    if cmd == "fail":
        fail("asked to fail")

hook.on("tool.execute.pre", guard, priority = 3)
`

// callGuard compiles src with env and calls its one hook with command.
func callGuard(t *testing.T, src scripting.Source, env *scripting.Env, command string) (any, error) {
	t.Helper()
	p, err := Engine{}.Compile(context.Background(), src, env)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	hooks := p.Hooks()
	if len(hooks) != 1 || hooks[0].Event != "tool.execute.pre" || hooks[0].Priority != 3 || hooks[0].Line != 11 {
		t.Fatalf("hooks %+v, want guard on tool.execute.pre, priority 3, line 11", hooks)
	}
	return hooks[0].Func.Call(&scripting.Call{Payload: map[string]any{"params": map[string]any{"command": command}},
		Hook: "g.star:guard", Timeout: time.Second})
}

// A program from the cache behaves as the one compiled from source:
// same hooks, same decisions, same error positions.
func TestProgramCacheReuse(t *testing.T) {
	cache := &programtest.MemPrograms{}
	env := &scripting.Env{Programs: cache}
	src := scripting.Source{Name: "g.star", Code: []byte(cachedGuard)}
	for round := range 2 {
		out, err := callGuard(t, src, env, "sudo rm -rf /")
		if err != nil {
			t.Fatal(err)
		}
		if got := scripting.AsNeutral(out).(map[string]any)["reason"]; got != "blocked rm -rf /" {
			t.Errorf("round %d: reason %v, want the deny", round, got)
		}
		_, err = callGuard(t, src, env, "fail")
		var se *scripting.Error
		if !errors.As(err, &se) || se.File != "g.star" || se.Line != 9 || !strings.Contains(se.Msg, "asked to fail") {
			t.Errorf("round %d: error %v, want g.star:9 asked to fail", round, err)
		}
	}
	if gets, puts := cache.Counts(); len(cache.Keys()) != 1 || puts != 1 || gets != 4 {
		t.Errorf("%d programs, %d puts, %d gets; want 1 program put once and found by the 3 later compiles", len(cache.Keys()), puts, gets)
	}
}

// A cached program that does not decode is compiled from source and put
// again; a file that does not compile is never put, and its error comes
// from its source every time.
func TestProgramCacheDamaged(t *testing.T) {
	src := scripting.Source{Name: "g.star", Code: []byte(cachedGuard)}
	cache := &programtest.MemPrograms{}
	env := &scripting.Env{Programs: cache}
	if _, err := callGuard(t, src, env, "ls"); err != nil {
		t.Fatal(err)
	}
	key := cache.Keys()[0]
	good := cache.Data(key)
	flipped := slices.Clone(good)
	flipped[len(flipped)-3] ^= 0x40
	for _, bad := range [][]byte{[]byte("garbage"), good[:len(good)/2], {}, flipped, good[32:]} {
		cache.Set(key, bad)
		out, err := callGuard(t, src, env, "mkfs /dev/sda")
		if err != nil || scripting.AsNeutral(out).(map[string]any)["reason"] != "blocked mkfs" {
			t.Errorf("with %d damaged bytes cached: %v, %v; want the deny", len(bad), out, err)
		}
		if string(cache.Data(key)) != string(good) {
			t.Errorf("with %d damaged bytes cached: the program was not put again", len(bad))
		}
	}
	cache = &programtest.MemPrograms{}
	env.Programs = cache
	for range 2 {
		_, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "bad.star", Code: []byte("def f(:\n")}, env)
		var se *scripting.Error
		if !errors.As(err, &se) || se.File != "bad.star" || se.Line != 1 || !strings.Contains(se.Msg, "syntax error") {
			t.Errorf("got %v, want bad.star:1 syntax error", err)
		}
	}
	if _, puts := cache.Counts(); puts != 0 {
		t.Errorf("a file that does not compile was put %d times", puts)
	}
}

// The key covers the file's name and content: another name or another
// content is another program.
func TestProgramKey(t *testing.T) {
	pre := predeclared(hookModule(&scripting.Env{}))
	base := programKey(scripting.Source{Name: "a.star", Code: []byte("x = 1\n")}, pre)
	for _, src := range []scripting.Source{
		{Name: "b.star", Code: []byte("x = 1\n")},
		{Name: "a.star", Code: []byte("x = 2\n")},
		{Name: "a.sta", Code: []byte("rx = 1\n")},
	} {
		if programKey(src, pre) == base {
			t.Errorf("%s %q has the key of a.star %q", src.Name, src.Code, "x = 1\n")
		}
	}
	if programKey(scripting.Source{Name: "a.star", Code: []byte("x = 1\n")}, pre) != base {
		t.Error("the same source has another key")
	}
	delete(pre, "print")
	if programKey(scripting.Source{Name: "a.star", Code: []byte("x = 1\n")}, pre) == base {
		t.Error("other predeclared names, same key")
	}
}

// BenchmarkCompile measures compiling a guardrail file from source and
// from a program cache that holds it (docs/performance.md, "Command-hook
// start-up").
func BenchmarkCompile(b *testing.B) {
	src := scripting.Source{Name: "g.star", Code: []byte(cachedGuard)}
	for _, tc := range []struct {
		name     string
		programs scripting.ProgramCache
	}{{"source", nil}, {"cached", &programtest.MemPrograms{}}} {
		b.Run(tc.name, func(b *testing.B) {
			env := &scripting.Env{Programs: tc.programs}
			b.ReportAllocs()
			for b.Loop() {
				p, err := Engine{}.Compile(context.Background(), src, env)
				if err != nil {
					b.Fatal(err)
				}
				p.Close()
			}
		})
	}
}
