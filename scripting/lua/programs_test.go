package lua

import (
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/scripting/programtest"
	"github.com/hookhost/hookhost/stdlib/std"
)

// luaSources are the Lua files of the repository that the round trip is
// checked on: the shipped packs, the examples and this package's test
// scripts — large, varied, real code.
func luaSources(t *testing.T) []scripting.Source {
	t.Helper()
	var srcs []scripting.Source
	for _, root := range []string{"../../hooks.d", "../../examples", "testdata"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".lua") {
				return err
			}
			code, err := os.ReadFile(path)
			srcs = append(srcs, scripting.Source{Name: path, Code: code})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(srcs) < 10 {
		t.Fatalf("found %d Lua files, want the shipped packs and examples", len(srcs))
	}
	return srcs
}

// Decoding what was encoded gives back, field for field (unexported
// stringConstants included), the prototype gopher-lua compiled: the
// program from the cache is the program from source.
func TestProgramEncodingRoundTrip(t *testing.T) {
	if !cacheable() {
		t.Fatal("gopher-lua's FunctionProto has no stringConstants []string field: the program cache is off; update programs.go for this gopher-lua")
	}
	for _, src := range luaSources(t) {
		proto, err := compile(src)
		if err != nil {
			continue // a test script that fails to compile on purpose
		}
		data, err := encodeProto(nil, proto)
		if err != nil {
			t.Errorf("%s: %v", src.Name, err)
			continue
		}
		got, err := decodeProto(data)
		if err != nil {
			t.Errorf("%s: decoding what was encoded: %v", src.Name, err)
			continue
		}
		if !reflect.DeepEqual(normalized(got), normalized(proto)) {
			t.Errorf("%s: the decoded prototype differs from the compiled one", src.Name)
		}
		if again, _ := encodeProto(nil, got); string(again) != string(data) {
			t.Errorf("%s: encoding the decoded prototype gives other bytes", src.Name)
		}
	}
}

// normalized is a deep copy of p with empty slices made nil, since
// gopher-lua leaves some empty lists nil and others not: the difference
// is not observable, and DeepEqual would report it.
func normalized(p *lua.FunctionProto) *lua.FunctionProto {
	c := *p
	v := reflect.ValueOf(&c).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() != reflect.Slice || f.Len() != 0 {
			continue
		}
		if !f.CanSet() { // stringConstants
			setStringConstants(&c, nil)
			continue
		}
		f.SetZero()
	}
	c.FunctionPrototypes = nil
	for _, child := range p.FunctionPrototypes {
		c.FunctionPrototypes = append(c.FunctionPrototypes, normalized(child))
	}
	return &c
}

const cachedGuard = `local blocked = { "rm %-rf /", "mkfs" }

local function fail_now(why)
  error(why)
end

hook.on("tool.execute.pre", function(params)
  local cmd = params.command or ""
  for _, b in ipairs(blocked) do
    if string.find(cmd, b) then return hook.deny("blocked " .. b) end
  end
  if cmd == "fail" then fail_now("asked to fail") end
end, { priority = 3, name = "guard" })
`

var luaGuard = programtest.Guard{
	Engine:   Engine{},
	Source:   scripting.Source{Name: "g.lua", Code: []byte(cachedGuard)},
	HookLine: 7, Params: []string{"params"}, FailLine: 4,
	Reasons:       func(word string) string { return "blocked " + strings.ReplaceAll(word, "-", "%-") },
	Broken:        scripting.Source{Name: "bad.lua", Code: []byte("local x = = 1\n")},
	DecoderChecks: true,
}

func TestProgramCacheReuse(t *testing.T)   { programtest.CheckReuse(t, luaGuard) }
func TestProgramCacheDamaged(t *testing.T) { programtest.CheckDamaged(t, luaGuard) }

// The key covers the file's name and content: another name or another
// content is another program.
func TestProgramKey(t *testing.T) {
	base := programKey(scripting.Source{Name: "a.lua", Code: []byte("x = 1\n")})
	for _, src := range []scripting.Source{
		{Name: "b.lua", Code: []byte("x = 1\n")},
		{Name: "a.lua", Code: []byte("x = 2\n")},
		{Name: "a.lu", Code: []byte("ax = 1\n")},
	} {
		if programKey(src) == base {
			t.Errorf("%s %q has the key of a.lua %q", src.Name, src.Code, "x = 1\n")
		}
	}
	if programKey(scripting.Source{Name: "a.lua", Code: []byte("x = 1\n")}) != base {
		t.Error("the same source has another key")
	}
	// the content's sum, when the source carries it, stands for the content
	sum := sha256.Sum256([]byte("x = 1\n"))
	if programKey(scripting.Source{Name: "a.lua", Code: []byte("x = 1\n"), Sum: &sum}) != base {
		t.Error("the source with its sum has another key")
	}
	other := sha256.Sum256([]byte("x = 2\n"))
	if programKey(scripting.Source{Name: "a.lua", Code: []byte("x = 1\n"), Sum: &other}) == base {
		t.Error("a source's sum is not what its key uses")
	}
}

// FuzzDecodeProto: whatever the cache holds, decoding never panics, and
// what decodes encodes back to the same bytes (nothing is read that is
// not there, nothing is dropped).
func FuzzDecodeProto(f *testing.F) {
	for _, code := range []string{cachedGuard, "return 1", "local t = {1.5, 'a', x = function(...) return ... end}"} {
		proto, err := compile(scripting.Source{Name: "f.lua", Code: []byte(code)})
		if err != nil {
			f.Fatal(err)
		}
		data, err := encodeProto(nil, proto)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := decodeProto(data)
		if err != nil {
			return
		}
		again, err := encodeProto(nil, p)
		if err != nil || string(again) != string(data) {
			t.Errorf("decoded %d bytes, encoded back %d (%v)", len(data), len(again), err)
		}
	})
}

// BenchmarkCompile measures compiling the largest shipped pack from
// source and from a program cache that holds it (docs/performance.md,
// "Command-hook start-up").
func BenchmarkCompile(b *testing.B) {
	code, err := os.ReadFile("../../hooks.d/destructive/destructive.lua")
	if err != nil {
		b.Fatal(err)
	}
	src := scripting.Source{Name: "destructive.lua", Code: code}
	for _, tc := range []struct {
		name     string
		programs scripting.ProgramCache
	}{{"source", nil}, {"cached", &programtest.MemPrograms{}}} {
		b.Run(tc.name, func(b *testing.B) {
			env := &scripting.Env{Programs: tc.programs, Modules: std.Modules(std.Options{})}
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

// BenchmarkCompileShipped measures what a `hookhost claude` process
// spends on its Lua files once the program cache is warm: every shipped
// pack's hook file decoded from the cache and its first interpreter made
// (sandbox opened, top level run, frozen), as one operation; and the
// same steps apart: "decode" decodes the cached prototypes only, "state"
// makes one more interpreter of each program.
func BenchmarkCompileShipped(b *testing.B) {
	paths, err := filepath.Glob("../../hooks.d/*/*.lua")
	if err != nil {
		b.Fatal(err)
	}
	var srcs []scripting.Source
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.lua") {
			continue // a pack's tests are not loaded by a hook process
		}
		code, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, scripting.Source{Name: filepath.Base(path), Code: code})
	}
	if len(srcs) < 4 {
		b.Fatalf("found %d shipped Lua hook files, want the shipped packs", len(srcs))
	}
	env := &scripting.Env{Programs: &programtest.MemPrograms{}, Modules: std.Modules(std.Options{})}
	var progs []*program
	for _, src := range srcs { // warm the cache
		p, err := Engine{}.Compile(context.Background(), src, env)
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		progs = append(progs, p.(*program))
	}
	b.Run("compile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, src := range srcs {
				p, err := Engine{}.Compile(context.Background(), src, env)
				if err != nil {
					b.Fatal(err)
				}
				p.Close()
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		var entries [][]byte
		for _, src := range srcs {
			data, ok := scripting.Unseal(env.Programs.Get(programKey(src)))
			if !ok {
				b.Fatalf("%s is not in the warm cache", src.Name)
			}
			entries = append(entries, data)
		}
		b.ReportAllocs()
		for b.Loop() {
			for _, data := range entries {
				if _, err := decodeProto(data); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("state", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range progs {
				st, err := p.newState()
				if err != nil {
					b.Fatal(err)
				}
				st.close()
			}
		}
	})
}

// A program sealed in the cache by someone who can write it (the cache is
// as trusted as the hooks directory) but whose bytecode is nonsense is a
// load error naming the file, never a crash: the host then treats the
// file as broken, which blocks at a guard event.
func TestProgramCacheNonsenseBytecode(t *testing.T) {
	src := scripting.Source{Name: "g.lua", Code: []byte(cachedGuard)}
	proto, err := compile(src)
	if err != nil {
		t.Fatal(err)
	}
	for i := range proto.Code {
		proto.Code[i] = 0xFFFFFFFF
	}
	data, err := encodeProto(make([]byte, scripting.SealSize), proto)
	if err != nil {
		t.Fatal(err)
	}
	cache := &programtest.MemPrograms{}
	cache.Set(programKey(src), scripting.Seal(data))
	_, err = Engine{}.Compile(context.Background(), src, &scripting.Env{Programs: cache})
	if err == nil || !strings.Contains(err.Error(), "g.lua") {
		t.Fatalf("compiling over nonsense bytecode: %v, want an error naming g.lua", err)
	}
}

// compile keeps of each function's locals only its parameters, the same
// names in the same order as gopher-lua compiled them: the signatures
// hooks are bound by, on the repository's Lua files.
func TestCompileKeepsParameterNames(t *testing.T) {
	for _, src := range luaSources(t) {
		proto, err := compile(src)
		if err != nil {
			continue // a test script that fails to compile on purpose
		}
		chunk, err := parse.Parse(strings.NewReader(string(src.Code)), src.Name)
		if err != nil {
			t.Fatal(err)
		}
		full, err := lua.Compile(rewriteChunk(chunk), src.Name)
		if err != nil {
			t.Fatal(err)
		}
		var walk func(got, all *lua.FunctionProto)
		walk = func(got, all *lua.FunctionProto) {
			n := int(all.NumParameters)
			if len(got.DbgLocals) != min(n, len(all.DbgLocals)) {
				t.Errorf("%s:%d: %d locals kept, want the %d parameters", src.Name, all.LineDefined, len(got.DbgLocals), n)
				return
			}
			for i, l := range got.DbgLocals {
				if *l != *all.DbgLocals[i] {
					t.Errorf("%s:%d: local %d is %+v, want %+v", src.Name, all.LineDefined, i, *l, *all.DbgLocals[i])
				}
			}
			if !reflect.DeepEqual(signatureOf(got), signatureOf(all)) {
				t.Errorf("%s:%d: signature %v, want %v", src.Name, all.LineDefined, signatureOf(got), signatureOf(all))
			}
			for i := range all.FunctionPrototypes {
				walk(got.FunctionPrototypes[i], all.FunctionPrototypes[i])
			}
		}
		walk(proto, full)
	}
}
