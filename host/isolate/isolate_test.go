package isolate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/host/isolate/isolatetest"
	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// testWorker is the binary workers start from in these tests ("" for
// the test binary itself).
var testWorker string

// TestMain lets the test binary serve as the workers it starts, or builds
// one when the race detector makes it unfit.
func TestMain(m *testing.M) {
	RunWorkerIfRequested()
	runUpgradeHostIfRequested()
	exe, cleanup, err := isolatetest.Worker()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testWorker = exe
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// A message goes through a frame as it came, kinds kept; a frame
// announcing more than maxFrame is refused before anything is allocated.
func TestFrameRoundTrip(t *testing.T) {
	msg := map[string]any{"id": int64(7), "value": []any{2.0, "x", nil, map[string]any{"k": true}}}
	var buf bytes.Buffer
	if err := writeFrame(&buf, msg); err != nil {
		t.Fatal(err)
	}
	got, err := readFrame(&buf)
	if err != nil || !stdlib.Equal(got, msg) {
		t.Fatalf("%#v came back as %#v, %v", msg, got, err)
	}
	if _, isFloat := got["value"].([]any)[0].(float64); !isFloat {
		t.Errorf("2.0 lost its kind: %#v", got["value"])
	}
	if err := writeFrame(&buf, map[string]any{"f": func() {}}); err == nil || !strings.Contains(err.Error(), "cannot be sent to a worker") {
		t.Errorf("a func sent: %v", err)
	}
	buf.Reset()
	buf.Write([]byte{0xff, 0xff, 0xff, 0xff})
	if _, err := readFrame(&buf); !errors.Is(err, errFrameTooLarge) {
		t.Errorf("a 4 GiB frame: %v", err)
	}
	buf.Reset()
	buf.Write([]byte{0, 0, 0, 2, 'l', 9}) // a list of 9 in 1 byte
	if _, err := readFrame(&buf); !errors.Is(err, errCorrupt) {
		t.Errorf("a corrupt frame: %v", err)
	}
}

// A worker runs under the limits it was given: its data segment, its
// address space, a CPU allowance, and no descriptor beyond its standard
// streams.
func TestWorkerLimits(t *testing.T) {
	if _, err := os.Stat("/proc/self/limits"); err != nil {
		t.Skip("needs /proc")
	}
	pool := NewPool(Options{Executable: testWorker, Limits: OSLimits{Data: 256 << 20, CPU: 90 * time.Second}})
	defer pool.Close()
	prog, err := pool.Engine("a.lua", ".lua").Compile(context.Background(),
		scripting.Source{Name: "a.lua", Code: []byte(`hook.on("x", function() return 1 end, { name = "h" })`)}, &scripting.Env{})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	w := pool.worker("a.lua")
	w.mu.Lock()
	pid := w.proc.cmd.Process.Pid
	w.mu.Unlock()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/limits")
	if err != nil {
		t.Fatal(err)
	}
	limits := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 4 {
			limits[strings.Join(f[:len(f)-3], " ")] = f[len(f)-3] + " " + f[len(f)-2]
		}
	}
	high := 0
	fds, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	for _, e := range fds {
		if n, err := strconv.Atoi(e.Name()); err == nil && n > high {
			high = n
		}
	}
	if high < 2 || high > 8 {
		t.Errorf("the worker has descriptors up to %d open, want its standard streams and the runtime's few", high)
	}
	files := strconv.Itoa(high + 1)
	want := map[string]string{"Max data size": "268435456 268435456", "Max cpu time": "90 90", "Max open files": files + " " + files}
	for k, v := range want {
		if limits[k] != v {
			t.Errorf("%s = %q, want %q", k, limits[k], v)
		}
	}
	if as := limits["Max address space"]; as == "unlimited unlimited" || as == "" {
		t.Errorf("address space is not limited: %q", as)
	}
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err == nil && strings.Contains(string(env), "HOME=") {
		t.Errorf("the worker got the host's environment: %q", env)
	}
}

// A program that does not call RunWorkerIfRequested is no worker: the
// start fails with a clear error instead of hanging.
func TestNotAWorker(t *testing.T) {
	pool := NewPool(Options{Executable: "/bin/true"})
	defer pool.Close()
	_, err := pool.Engine("a.lua", ".lua").Compile(context.Background(),
		scripting.Source{Name: "a.lua", Code: []byte(`hook.on("x", function() end)`)}, &scripting.Env{})
	if err == nil || !strings.Contains(err.Error(), "must call isolate.RunWorkerIfRequested") {
		t.Fatalf("got %v, want the error naming RunWorkerIfRequested", err)
	}
}

// Calls through a worker: values keep their kinds, only the named
// fields travel, and the deadline interrupts.
func TestRemoteCall(t *testing.T) {
	pool := NewPool(Options{Executable: testWorker})
	defer pool.Close()
	prog, err := pool.Engine("a.star", ".star").Compile(context.Background(), scripting.Source{Name: "a.star", Code: []byte(`
def echo(v, ctx):
    return {"v": v, "event": ctx.event, "hook": ctx.hook, "others": 0}

def spin():
    for i in range(1000000000):
        pass

hook.on("x", echo)
hook.on("y", spin)`)}, &scripting.Env{})
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	hooks := prog.Hooks()
	if len(hooks) != 2 || strings.Join(hooks[0].Params, ",") != "v,ctx" {
		t.Fatalf("hooks %+v", hooks)
	}
	c := &scripting.Call{Payload: map[string]any{"v": []any{2.0, int64(2)}, "big": strings.Repeat("x", 1<<20)},
		Event: "x", Hook: "a.star:echo", Config: map[string]any{}, Timeout: time.Second, Deadline: time.Now().Add(10 * time.Second)}
	v, err := hooks[0].Func.Call(c)
	want := map[string]any{"v": []any{2.0, int64(2)}, "event": "x", "hook": "a.star:echo", "others": int64(0)}
	if err != nil || !stdlib.Equal(v, want) {
		t.Fatalf("echo: %#v, %v", v, err)
	}
	if got := hooks[0].Func.(*function).message(c).Payload; len(got) != 1 {
		t.Errorf("sent fields %v, want only v", got)
	}
	c = &scripting.Call{Payload: map[string]any{}, Event: "y", Hook: "a.star:spin", Config: map[string]any{},
		Timeout: 50 * time.Millisecond, Deadline: time.Now().Add(50 * time.Millisecond)}
	_, err = hooks[1].Func.Call(c)
	if !c.Interrupted() || err == nil {
		t.Fatalf("spin: interrupted %v, err %v; want an interrupted call", c.Interrupted(), err)
	}
}

// workerBuild is the build of the binary the tests' workers run, for
// pools that start them through a wrapper script.
func workerBuild(t *testing.T) string {
	t.Helper()
	id, err := ExecutableBuild(testWorker)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A worker of another build is refused at its hello, with an error
// naming both builds; the pool does not serve from it.
func TestWorkerOfAnotherBuildRefused(t *testing.T) {
	pool := NewPool(Options{Executable: testWorker, Build: "another-build"})
	defer pool.Close()
	_, err := pool.Engine("a.lua", ".lua").Compile(context.Background(),
		scripting.Source{Name: "a.lua", Code: []byte(echoLua)}, &scripting.Env{})
	want := "the worker is " // its program and build, then the host's
	if !errors.Is(err, ErrWorkerStart) || !errors.Is(err, errBuild) || !strings.Contains(err.Error(), want) ||
		!strings.Contains(err.Error(), "(build "+workerBuild(t)+")") || !strings.Contains(err.Error(), "host expects build another-build") {
		t.Fatalf("got %v, want the worker refused, naming its build and the host's", err)
	}
}

// A worker that receives what it cannot read says so and ends: the host
// reports the worker's own account, not a bare exit status.
func TestWorkerReportsProtocolError(t *testing.T) {
	pool := NewPool(Options{Executable: testWorker})
	defer pool.Close()
	prog, _ := compileEcho(t, pool)
	pidOf(t, prog.w, 0)
	prog.w.mu.Lock()
	proc := prog.w.proc
	prog.w.mu.Unlock()
	proc.wmu.Lock()
	err := writeFrame(proc.in, map[string]any{"op": "drop", "prog": int64(1), "force": true})
	proc.wmu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-proc.dead:
	case <-time.After(30 * time.Second):
		t.Fatal("the worker did not end")
	}
	err = proc.deadErr()
	if !errors.Is(err, ErrWorkerDied) || !strings.Contains(err.Error(), "it reported a protocol error") ||
		!strings.Contains(err.Error(), "unknown field drop.force") {
		t.Fatalf("got %v, want the worker's report of the protocol error", err)
	}
}
