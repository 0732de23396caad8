package host

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hookhost/hookhost/scripting"
)

// fakeEngine compiles ".fake" files, whose content drives what the
// program does, so that reload tests can hold a compile or a call at a
// point of their choosing. A file is one line of words:
//
//	deny REASON        one hook "h" on tool.approve that denies with REASON
//	block deny REASON  the same, but each call waits for release
//	slow deny REASON   compiling waits until the compile's ctx ends, while
//	                   fakeEngine.slow is set
//	bad                a compile error at line 2
type fakeEngine struct {
	slow      atomic.Bool
	compiling chan struct{} // gets a value when a slow compile starts
	entered   chan struct{} // gets a value when a blocking call starts
	release   chan struct{} // closed to let blocking calls return

	mu    sync.Mutex
	progs []*fakeProgram
}

func newFakeEngine() *fakeEngine {
	return &fakeEngine{compiling: make(chan struct{}, 16), entered: make(chan struct{}, 16), release: make(chan struct{})}
}

func (*fakeEngine) Language() string  { return "fake" }
func (*fakeEngine) Extension() string { return ".fake" }

func (e *fakeEngine) Compile(ctx context.Context, src scripting.Source, _ *scripting.Env) (scripting.Program, error) {
	words := strings.Fields(string(src.Code))
	if len(words) > 0 && words[0] == "slow" {
		words = words[1:]
		if e.slow.Load() {
			e.compiling <- struct{}{}
			<-ctx.Done()
			return nil, &scripting.Error{File: src.Name, Msg: "interrupted", Err: ctx.Err()}
		}
	}
	if len(words) == 1 && words[0] == "bad" {
		return nil, &scripting.Error{File: src.Name, Line: 2, Msg: "bad script"}
	}
	p := &fakeProgram{engine: e, name: src.Name}
	if len(words) > 0 && words[0] == "block" {
		p.block, words = true, words[1:]
	}
	if len(words) != 2 || words[0] != "deny" {
		return nil, &scripting.Error{File: src.Name, Line: 1, Msg: "want: [block|slow] deny REASON"}
	}
	p.reason = words[1]
	e.mu.Lock()
	e.progs = append(e.progs, p)
	e.mu.Unlock()
	return p, nil
}

// programs returns every program compiled so far, in order.
func (e *fakeEngine) programs() []*fakeProgram {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]*fakeProgram(nil), e.progs...)
}

type fakeProgram struct {
	engine *fakeEngine
	name   string
	reason string
	block  bool
	closed atomic.Bool
}

func (p *fakeProgram) Hooks() []scripting.Hook {
	return []scripting.Hook{{Event: "tool.approve", Name: "h", Line: 1, Enabled: true, Func: p}}
}

func (p *fakeProgram) Close() { p.closed.Store(true) }

func (p *fakeProgram) Call(*scripting.Call) (any, error) {
	if p.block {
		p.engine.entered <- struct{}{}
		<-p.engine.release
	}
	if p.closed.Load() {
		return nil, errors.New("called a closed program")
	}
	return map[string]any{"action": "deny", "reason": p.reason}, nil
}
