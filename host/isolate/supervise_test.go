package isolate

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hookhost/hookhost/host/isolate/isolatetest"
	"github.com/hookhost/hookhost/scripting"
)

func TestRestartBackoff(t *testing.T) {
	for _, tc := range []struct {
		failures int
		want     time.Duration
	}{
		{0, 0}, {1, 100 * time.Millisecond}, {2, 200 * time.Millisecond}, {3, 400 * time.Millisecond},
		{7, 6400 * time.Millisecond}, {8, 10 * time.Second}, {50, 10 * time.Second},
	} {
		if got := restartBackoff(tc.failures); got != tc.want {
			t.Errorf("restartBackoff(%d) = %v, want %v", tc.failures, got, tc.want)
		}
	}
}

// fakeTimers records the delayed restarts a pool asks for and runs them
// when the test says so.
type fakeTimers struct {
	mu      sync.Mutex
	delays  []time.Duration
	pending []func()
	asked   chan struct{}
}

func newFakeTimers(p *Pool) *fakeTimers {
	ft := &fakeTimers{asked: make(chan struct{}, 16)}
	p.afterFunc = func(d time.Duration, f func()) stopper {
		ft.mu.Lock()
		ft.delays = append(ft.delays, d)
		ft.pending = append(ft.pending, f)
		ft.mu.Unlock()
		ft.asked <- struct{}{}
		return fakeTimer{}
	}
	return ft
}

type fakeTimer struct{}

func (fakeTimer) Stop() bool { return true }

// next waits for the pool to schedule a restart and returns its delay.
func (ft *fakeTimers) next(t *testing.T) time.Duration {
	t.Helper()
	select {
	case <-ft.asked:
	case <-time.After(30 * time.Second):
		t.Fatal("no restart was scheduled")
	}
	ft.mu.Lock()
	defer ft.mu.Unlock()
	return ft.delays[len(ft.delays)-1]
}

// fire runs the last scheduled restart, as its timer would.
func (ft *fakeTimers) fire() {
	ft.mu.Lock()
	f := ft.pending[len(ft.pending)-1]
	ft.mu.Unlock()
	f()
}

const echoLua = `hook.on("x", function(v) return v end, { name = "h" })`

func compileEcho(t *testing.T, pool *Pool) (*program, scripting.Hook) {
	t.Helper()
	prog, err := pool.Engine("a.lua", ".lua").Compile(context.Background(),
		scripting.Source{Name: "a.lua", Code: []byte(echoLua)}, &scripting.Env{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(prog.Close)
	return prog.(*program), prog.Hooks()[0]
}

func echoCall(timeout time.Duration) *scripting.Call {
	return &scripting.Call{Payload: map[string]any{"v": "hi"}, Event: "x", Hook: "a.lua:h", Config: map[string]any{},
		Timeout: timeout, Deadline: time.Now().Add(timeout)}
}

// pidOf is the pid of the worker's running process, waiting (bounded)
// for one to run: starts happen in the background.
func pidOf(t *testing.T, w *worker, not int) int {
	t.Helper()
	for range 3000 {
		w.mu.Lock()
		p := w.proc
		w.mu.Unlock()
		if p != nil && p.alive() && p.cmd.Process.Pid != not {
			return p.cmd.Process.Pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no worker process came up within 30s")
	return 0
}

// A worker that dies is started again at once, in the background: no
// call is needed, and the next call finds it running.
func TestRestartIsEager(t *testing.T) {
	pool := NewPool(Options{Executable: testWorker})
	defer pool.Close()
	prog, hook := compileEcho(t, pool)
	if v, err := hook.Func.Call(echoCall(10 * time.Second)); err != nil || v != "hi" {
		t.Fatalf("first call: %v, %v", v, err)
	}
	first := pidOf(t, prog.w, 0)
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	second := pidOf(t, prog.w, first) // no call: the restart came by itself
	wf := hook.Func.(WorkerFunction)
	if !wf.Ready() {
		t.Fatalf("a worker running as pid %d is not ready", second)
	}
	if v, err := hook.Func.Call(echoCall(10 * time.Second)); err != nil || v != "hi" {
		t.Fatalf("after the restart: %v, %v", v, err)
	}
	prog.w.mu.Lock()
	starts := prog.w.starts
	prog.w.mu.Unlock()
	if starts != 2 {
		t.Errorf("%d starts, want 2", starts)
	}
}

// A call that comes while its worker starts waits for the start, and the
// start is not charged to its deadline: here every start after the first
// takes two seconds, the call has one (far more than an answer takes,
// on a busy machine too, and half the start), and it answers.
func TestCallWaitsForStart(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	exe, err := isolatetest.Wrapper(dir, testWorker, "if [ -e '"+marker+"' ]; then sleep 2; fi\ntouch '"+marker+"'")
	if err != nil {
		t.Fatal(err)
	}
	pool := NewPool(Options{Executable: exe, Build: workerBuild(t)})
	defer pool.Close()
	prog, hook := compileEcho(t, pool)
	if _, err := hook.Func.Call(echoCall(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pidOf(t, prog.w, 0), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	wf := hook.Func.(WorkerFunction)
	for wf.Ready() { // until the death is seen
		time.Sleep(time.Millisecond)
	}
	if err := wf.AwaitReady(context.Background(), "a.lua:h"); err != nil {
		t.Fatalf("AwaitReady: %v", err)
	}
	c := echoCall(time.Second)
	if v, err := hook.Func.Call(c); err != nil || v != "hi" {
		t.Fatalf("the call after the restart: %v, %v (interrupted %v)", v, err, c.Interrupted())
	}
}

// A worker that cannot start is retried with a doubling backoff, never in
// a loop; calls meanwhile fail at once with why, naming the file and the
// hook; once it can start again, calls work.
func TestStartFailureBackoff(t *testing.T) {
	dir := t.TempDir()
	refuse, marker := filepath.Join(dir, "refuse"), filepath.Join(dir, "started")
	exe, err := isolatetest.Wrapper(dir, testWorker,
		"if [ -e '"+refuse+"' ]; then echo 'wrapper: refusing to start' >&2; exit 3; fi\ntouch '"+marker+"'")
	if err != nil {
		t.Fatal(err)
	}
	pool := NewPool(Options{Executable: exe, Build: workerBuild(t)})
	defer pool.Close()
	timers := newFakeTimers(pool)
	prog, hook := compileEcho(t, pool)
	if _, err := hook.Func.Call(echoCall(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(refuse, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pidOf(t, prog.w, 0), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var delays []time.Duration
	for i := range 3 {
		delays = append(delays, timers.next(t))
		err := hook.Func.(WorkerFunction).AwaitReady(context.Background(), "a.lua:h")
		var se *scripting.Error
		if !errors.Is(err, ErrWorkerStart) || !errors.As(err, &se) || se.File != "a.lua" || se.Line != 1 || se.Hook != "a.lua:h" ||
			!strings.Contains(err.Error(), "wrapper: refusing to start") {
			t.Fatalf("a call while the worker cannot start: %v, want the start's failure naming a.lua:1 and the hook", err)
		}
		if i < 2 {
			timers.fire()
		}
	}
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}
	if strings.Join(durations(delays), " ") != strings.Join(durations(want), " ") {
		t.Errorf("restarts were scheduled after %v, want %v", delays, want)
	}
	if err := os.Remove(refuse); err != nil {
		t.Fatal(err)
	}
	timers.fire()
	if err := hook.Func.(WorkerFunction).AwaitReady(context.Background(), "a.lua:h"); err != nil {
		t.Fatalf("after the cause went away: %v", err)
	}
	if v, err := hook.Func.Call(echoCall(10 * time.Second)); err != nil || v != "hi" {
		t.Fatalf("a call once the worker starts again: %v, %v", v, err)
	}
}

func durations(ds []time.Duration) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.String()
	}
	return out
}

// Closing the pool while a worker starts aborts the start and leaves no
// process behind.
func TestCloseDuringStart(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	exe, err := isolatetest.Wrapper(dir, testWorker, "if [ -e '"+marker+"' ]; then sleep 3; fi\ntouch '"+marker+"'")
	if err != nil {
		t.Fatal(err)
	}
	pool := NewPool(Options{Executable: exe, Build: workerBuild(t)})
	prog, hook := compileEcho(t, pool)
	if _, err := hook.Func.Call(echoCall(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pidOf(t, prog.w, 0), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var run *startRun
	for run == nil { // the restart is under way (sleeping in the wrapper)
		prog.w.mu.Lock()
		run = prog.w.start
		prog.w.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	pool.Close()
	select {
	case <-run.done:
	default:
		t.Fatal("Close returned while a start still ran")
	}
	prog.w.mu.Lock()
	published := prog.w.proc != nil
	prog.w.mu.Unlock()
	if published {
		t.Errorf("a process was published after Close")
	}
	if err := hook.Func.(WorkerFunction).AwaitReady(context.Background(), "a.lua:h"); err == nil {
		t.Errorf("a call after Close found a worker")
	}
}

// A worker whose input ends (its host died, or is stopping it) does not
// run on with the calls in flight: past stopGrace it interrupts them and
// exits by itself, so it cannot outlive its host by a call's deadline even
// where no parent-death signal kills it.
func TestWorkerEndsWithItsInput(t *testing.T) {
	var logs syncBuffer
	pool := NewPool(Options{Executable: testWorker, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	defer pool.Close()
	prog, err := pool.Engine("spin.lua", ".lua").Compile(context.Background(), scripting.Source{Name: "spin.lua",
		Code: []byte(`hook.on("x", function() print("spinning") while true do end end, { name = "spin" })`)}, &scripting.Env{})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	w := prog.(*program).w
	pidOf(t, w, 0)
	w.mu.Lock()
	proc := w.proc
	w.mu.Unlock()
	answered := make(chan error, 1)
	go func() {
		c := &scripting.Call{Payload: map[string]any{}, Event: "x", Hook: "spin.lua:spin", Config: map[string]any{},
			Timeout: time.Hour, Deadline: time.Now().Add(time.Hour)}
		_, err := prog.Hooks()[0].Func.Call(c)
		answered <- err
	}()
	for !strings.Contains(logs.String(), "spinning") { // the call runs in the worker
		time.Sleep(time.Millisecond)
	}
	proc.wmu.Lock()
	proc.in.Close() // as if the host had gone: the worker sees its input end
	proc.wmu.Unlock()
	select {
	case <-proc.dead:
	case <-time.After(30 * time.Second):
		t.Fatal("the worker still ran 30s after its input ended, with an hour-long call in flight")
	}
	if proc.killed.Load() {
		t.Error("the worker was killed; want it to exit by itself")
	}
	if err := <-answered; err == nil {
		t.Error("the call in flight succeeded")
	}
}

// A syncBuffer is a bytes.Buffer safe for a logger and a test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
