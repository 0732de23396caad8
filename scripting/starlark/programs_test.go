package starlark

import (
	"context"
	"crypto/sha256"
	"testing"

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

var starGuard = programtest.Guard{
	Engine:   Engine{},
	Source:   scripting.Source{Name: "g.star", Code: []byte(cachedGuard)},
	HookLine: 11, Params: []string{"params"}, FailLine: 9,
	Reasons: func(word string) string { return "blocked " + word },
	Broken:  scripting.Source{Name: "bad.star", Code: []byte("def f(:\n")},
}

func TestProgramCacheReuse(t *testing.T)   { programtest.CheckReuse(t, starGuard) }
func TestProgramCacheDamaged(t *testing.T) { programtest.CheckDamaged(t, starGuard) }

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
	// the content's sum, when the source carries it, stands for the content
	sum := sha256.Sum256([]byte("x = 1\n"))
	if programKey(scripting.Source{Name: "a.star", Code: []byte("x = 1\n"), Sum: &sum}, pre) != base {
		t.Error("the source with its sum has another key")
	}
	other := sha256.Sum256([]byte("x = 2\n"))
	if programKey(scripting.Source{Name: "a.star", Code: []byte("x = 1\n"), Sum: &other}, pre) == base {
		t.Error("a source's sum is not what its key uses")
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
