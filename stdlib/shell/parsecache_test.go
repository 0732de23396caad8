package shell

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
)

// TestParseCache: one module's parse gives the same commands for a line
// it kept as for a fresh parse, keeps the last parseCacheLines lines, and
// keeps neither a line that failed nor one too long to keep.
func TestParseCache(t *testing.T) {
	m := New()
	parse, _ := m.Lookup("parse")
	run := func(ctx context.Context, line string) (any, error) {
		out, err := parse.Impl(&stdlib.Call{Context: ctx, Func: parse, Args: []any{line}})
		return stdlib.Plain(out), err
	}
	lines := []string{"rm -rf ./build && mkdir -p build", "git status | head", "echo hi > /tmp/x", ""}
	for round := range 2 { // the second round is served from the cache
		for _, line := range lines {
			got, err := run(context.Background(), line)
			if err != nil {
				t.Fatalf("round %d: parse(%q): %v", round, line, err)
			}
			cmds, err := Parse(context.Background(), line)
			if err != nil {
				t.Fatal(err)
			}
			if want := stdlib.Plain(Records(cmds)); !reflect.DeepEqual(got, want) {
				t.Errorf("round %d: parse(%q) = %v, want %v", round, line, got, want)
			}
		}
	}
	// what a call is given is its own: changing it changes no later answer
	raw, err := parse.Impl(&stdlib.Call{Context: context.Background(), Func: parse, Args: []any{lines[0]}})
	if err != nil {
		t.Fatal(err)
	}
	raw.([]any)[0].(stdlib.Record).Values[commandKeys.Index("argv")].([]any)[0] = "changed"
	if again, _ := run(context.Background(), lines[0]); again.([]any)[0].(map[string]any)["argv"].([]any)[0] != "rm" {
		t.Errorf("a changed result reached a later call: %v", again)
	}

	p := &parseCache{}
	for i := range parseCacheLines + 1 {
		p.put(strings.Repeat("x", i+1), []Command{})
	}
	if _, ok := p.get("x"); ok {
		t.Error("the oldest line is still kept past parseCacheLines lines")
	}
	if _, ok := p.get(strings.Repeat("x", parseCacheLines+1)); !ok {
		t.Error("the newest line is not kept")
	}
	long := strings.Repeat("a", parseCacheLineBytes+1)
	p.put(long, []Command{})
	if _, ok := p.get(long); ok {
		t.Error("a line over parseCacheLineBytes is kept")
	}

	// a parse that fails is answered again, not from the cache
	m = New()
	parse, _ = m.Lookup("parse")
	for range 2 {
		if _, err := parse.Impl(&stdlib.Call{Context: context.Background(), Func: parse, Args: []any{"echo 'unclosed"}}); err == nil {
			t.Fatal("an unclosed quote parsed")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, errStopped := parse.Impl(&stdlib.Call{Context: ctx, Func: parse, Args: []any{"ls -la"}})
	if got, err := parse.Impl(&stdlib.Call{Context: context.Background(), Func: parse, Args: []any{"ls -la"}}); err != nil || len(got.([]any)) != 1 {
		t.Errorf("after a stopped parse (%v), parse(ls -la) = %v, %v", errStopped, got, err)
	}
}

// TestParseCacheConcurrent: parses of several lines from several
// goroutines each get their own line's commands (run with -race).
func TestParseCacheConcurrent(t *testing.T) {
	m := New()
	parse, _ := m.Lookup("parse")
	lines := make([]string, parseCacheLines*2)
	for i := range lines {
		lines[i] = "echo " + strings.Repeat("w", i+1)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				line := lines[(g+i)%len(lines)]
				out, err := parse.Impl(&stdlib.Call{Context: context.Background(), Func: parse, Args: []any{line}})
				if err != nil {
					errs <- err
					return
				}
				argv := stdlib.Plain(out).([]any)[0].(map[string]any)["argv"].([]any)
				if argv[1] != line[len("echo "):] {
					errs <- errors.New("parse(" + line + ") gave the commands of another line")
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestSalvageThroughTheCache: the module's salvage answers as Salvage
// does, whether parse or salvage read the line first, for a line that
// parses whole and for one that does not.
func TestSalvageThroughTheCache(t *testing.T) {
	for _, line := range []string{"git status && rm -rf ./build", "rm -rf / && echo 'unclosed", "ls\nfi\nrm -rf ~", ""} {
		cmds, unparsed, err := Salvage(context.Background(), line)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"commands": stdlib.Plain(Records(cmds)), "unparsed": stringList(unparsed)}
		for _, order := range [][]string{{"salvage", "salvage"}, {"parse", "salvage"}} {
			m := New()
			for _, name := range order {
				f, _ := m.Lookup(name)
				out, err := f.Impl(&stdlib.Call{Context: context.Background(), Func: f, Args: []any{line}})
				if name == "parse" {
					continue // an error for the lines that do not parse
				}
				if err != nil {
					t.Fatalf("%v: salvage(%q): %v", order, line, err)
				}
				if got := stdlib.Plain(out); !reflect.DeepEqual(got, want) {
					t.Errorf("%v: salvage(%q) = %v, want %v", order, line, got, want)
				}
			}
		}
	}
	long := strings.Repeat("x", MaxLineBytes+1)
	_, _, want := Salvage(context.Background(), long)
	m := New()
	f, _ := m.Lookup("salvage")
	if _, err := f.Impl(&stdlib.Call{Context: context.Background(), Func: f, Args: []any{long}}); err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("salvage of a line too long: %v, want %v", err, want)
	}
}
