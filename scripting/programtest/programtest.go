package programtest

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// MemPrograms is a scripting.ProgramCache in memory that counts its use,
// for the engines' tests of their program caches.
type MemPrograms struct {
	mu         sync.Mutex
	data       map[string][]byte
	gets, puts int
}

var _ scripting.ProgramCache = (*MemPrograms)(nil)

// Get implements scripting.ProgramCache, and counts the get.
func (m *MemPrograms) Get(key string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gets++
	return m.data[key]
}

// Put implements scripting.ProgramCache: it keeps a copy of data, and
// counts the put.
func (m *MemPrograms) Put(key string, data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.puts++
	if m.data == nil {
		m.data = map[string][]byte{}
	}
	m.data[key] = slices.Clone(data)
}

// Counts is how many Gets and Puts the cache has had.
func (m *MemPrograms) Counts() (gets, puts int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.gets, m.puts
}

// Keys lists the keys the cache holds, sorted.
func (m *MemPrograms) Keys() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.data))
}

// Data is what the cache holds under key.
func (m *MemPrograms) Data(key string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.data[key]
}

// Set replaces what the cache holds under key (a test damaging it),
// without counting a Put.
func (m *MemPrograms) Set(key string, data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.data == nil {
		m.data = map[string][]byte{}
	}
	m.data[key] = data
}

// A Guard is a hook file for the engines' program-cache tests: one hook
// on tool.execute.pre at priority 3 that denies a command containing
// "rm -rf /" or "mkfs" with the reason Reasons gives, and fails on the
// command "fail" with "asked to fail".
type Guard struct {
	Engine scripting.Engine
	Source scripting.Source
	// HookLine is the line the hook is registered on, Params its
	// parameters.
	HookLine int
	Params   []string
	// FailLine is the line of the error the command "fail" raises.
	FailLine int
	// Reasons gives the deny's reason for the word that matched
	// ("rm -rf /" or "mkfs"), as the file words it.
	Reasons func(word string) string
	// Broken is a file that does not compile, with a syntax error on its
	// first line.
	Broken scripting.Source
	// DecoderChecks says the engine's decoder checks what it is given, so
	// that a whole encoding cut short and sealed again is tried too.
	// go.starlark.net's decoder trusts its input (it recovers, but prints
	// a stack trace), so the Starlark engine relies on the seal alone.
	DecoderChecks bool
}

// call compiles the guard with env and calls its one hook with command.
func (g Guard) call(t *testing.T, env *scripting.Env, command string) (any, error) {
	t.Helper()
	p, err := g.Engine.Compile(context.Background(), g.Source, env)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	hooks := p.Hooks()
	if len(hooks) != 1 || hooks[0].Event != "tool.execute.pre" || hooks[0].Priority != 3 || hooks[0].Line != g.HookLine ||
		!slices.Equal(hooks[0].Params, g.Params) {
		t.Fatalf("hooks %+v, want one on tool.execute.pre, priority 3, line %d, params %v", hooks, g.HookLine, g.Params)
	}
	return hooks[0].Func.Call(&scripting.Call{Payload: map[string]any{"params": map[string]any{"command": command}},
		Hook: g.Source.Name + ":guard", Timeout: time.Second})
}

func reason(out any) any {
	m, _ := scripting.AsNeutral(out).(map[string]any)
	return m["reason"]
}

// CheckReuse checks that a program from the cache behaves as the one
// compiled from source: same hooks and parameters, same decisions, same
// error positions and text; and that it was put once and found by the
// later compiles.
func CheckReuse(t *testing.T, g Guard) {
	cache := &MemPrograms{}
	env := &scripting.Env{Programs: cache}
	var firstErr string
	for round := range 2 {
		out, err := g.call(t, env, "sudo rm -rf /")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := reason(out), g.Reasons("rm -rf /"); got != want {
			t.Errorf("round %d: reason %v, want %q", round, got, want)
		}
		_, err = g.call(t, env, "fail")
		var se *scripting.Error
		if !errors.As(err, &se) || se.File != g.Source.Name || se.Line != g.FailLine || !strings.Contains(se.Msg, "asked to fail") {
			t.Fatalf("round %d: error %v, want %s:%d asked to fail", round, err, g.Source.Name, g.FailLine)
		}
		if round == 0 {
			firstErr = err.Error()
		} else if err.Error() != firstErr {
			t.Errorf("from the cache the error reads\n%s\nfrom source\n%s", err, firstErr)
		}
	}
	if gets, puts := cache.Counts(); len(cache.Keys()) != 1 || puts != 1 || gets != 4 {
		t.Errorf("%d programs, %d puts, %d gets; want 1 program put once and found by the 3 later compiles", len(cache.Keys()), puts, gets)
	}
}

// CheckDamaged checks that a cached program that does not decode —
// garbage, cut short, a flipped bit, the seal missing, and where the
// decoder checks its input a whole encoding cut short and sealed again —
// is compiled from source and put again;
// and that a file that does not compile is never put, its error coming
// from its source every time.
func CheckDamaged(t *testing.T, g Guard) {
	cache := &MemPrograms{}
	env := &scripting.Env{Programs: cache}
	if _, err := g.call(t, env, "ls"); err != nil {
		t.Fatal(err)
	}
	key := cache.Keys()[0]
	good := cache.Data(key)
	flipped := slices.Clone(good)
	flipped[len(flipped)-3] ^= 0x40
	payload, _ := scripting.Unseal(good)
	resealed := scripting.Seal(append(make([]byte, scripting.SealSize), payload[:len(payload)-1]...))
	damaged := [][]byte{[]byte("garbage"), good[:len(good)/2], {}, flipped, good[scripting.SealSize:]}
	if g.DecoderChecks {
		damaged = append(damaged, resealed)
	}
	for _, bad := range damaged {
		cache.Set(key, bad)
		out, err := g.call(t, env, "mkfs /dev/sda")
		if want := g.Reasons("mkfs"); err != nil || reason(out) != want {
			t.Errorf("with %d damaged bytes cached: %v, %v; want the deny %q", len(bad), out, err, want)
		}
		if string(cache.Data(key)) != string(good) {
			t.Errorf("with %d damaged bytes cached: the program was not put again", len(bad))
		}
	}
	cache = &MemPrograms{}
	env.Programs = cache
	for range 2 {
		_, err := g.Engine.Compile(context.Background(), g.Broken, env)
		var se *scripting.Error
		if !errors.As(err, &se) || se.File != g.Broken.Name || se.Line != 1 || !strings.Contains(se.Msg, "syntax error") {
			t.Errorf("got %v, want %s:1 syntax error", err, g.Broken.Name)
		}
	}
	if _, puts := cache.Counts(); puts != 0 {
		t.Errorf("a file that does not compile was put %d times", puts)
	}
}
