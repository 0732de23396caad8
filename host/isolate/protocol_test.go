package isolate

import (
	"bytes"
	"errors"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// Every message survives the wire: what is decoded is what was sent.
func TestMessagesRoundTrip(t *testing.T) {
	for _, msg := range []message{
		&compileMsg{ID: 1, Prog: 2, Name: "a.lua", Code: "x", LogLevel: -4,
			Limits: wireLimits{MaxSteps: 1 << 40, MaxStringSize: 3, MaxCallDepth: 4, MaxIdle: 5, MaxCallMemory: 6, InitTimeout: time.Second}},
		&callMsg{ID: 3, Prog: 2, Hook: 1, Payload: map[string]any{"v": []any{2.0, int64(2)}}, Event: "e", HookID: "a.lua:h",
			Config: map[string]any{}, Timeout: time.Second, Remaining: time.Millisecond},
		&cancelMsg{ID: 3},
		&dropMsg{Prog: 2},
		&helloMsg{Protocol: protocolVersion, Build: "x/y", Program: "hookhost"},
		&hooksMsg{ID: 1, Hooks: []wireHook{{Event: "e", Name: "h", Line: 3, Priority: -1, Timeout: time.Second, Enabled: true,
			ErrorBehavior: "deny", TimeoutBehavior: "skip", Params: []string{"a", "ctx"}}}},
		&hooksMsg{ID: 1, Hooks: []wireHook{}},
		&valueMsg{ID: 3, Value: map[string]any{"x": nil}},
		&errorMsg{ID: 3, Error: wireError{File: "a.lua", Line: 2, Hook: "a.lua:h", Msg: "m", Backtrace: "b", Cause: causeMemory}, Abandoned: true},
		&logMsg{Level: 4, Msg: "m", Attrs: []logAttr{{Key: "k", Value: int64(1)}, {Key: "g", Group: []logAttr{{Key: "a", Value: "b"}}}}},
		&exitMsg{Reason: exitInit, Msg: "m"},
	} {
		var b bytes.Buffer
		if err := writeMessage(&b, msg); err != nil {
			t.Fatalf("%s: %v", msg.op(), err)
		}
		kinds := workerMessages
		if hostMessages(msg.op()) != nil {
			kinds = hostMessages
		}
		got, err := readMessage(&b, kinds)
		if err != nil {
			t.Fatalf("%s: %v", msg.op(), err)
		}
		if !bytes.Equal(frameOf(t, got), frameOf(t, msg)) {
			t.Errorf("%s came back as %#v", msg.op(), got)
		}
	}
}

// A message that does not match its struct is an error naming what is
// wrong, never a zero value.
func TestMessagesStrict(t *testing.T) {
	call := func(edit func(map[string]any)) map[string]any {
		m := encodeMessage(&callMsg{ID: 1, Payload: map[string]any{}, Config: map[string]any{}})
		edit(m)
		return m
	}
	errMsg := func(edit func(map[string]any)) map[string]any {
		m := encodeMessage(&errorMsg{ID: 1})
		edit(m["error"].(map[string]any))
		return m
	}
	for _, tc := range []struct {
		name  string
		frame map[string]any
		kinds func(string) message
		want  string
	}{
		{"unknown field", call(func(m map[string]any) { m["deadline"] = int64(1) }), hostMessages, "unknown field call.deadline"},
		{"missing field", call(func(m map[string]any) { delete(m, "remaining") }), hostMessages, "field call.remaining is missing"},
		{"mistyped field", call(func(m map[string]any) { m["timeout"] = 1.5 }), hostMessages, "field call.timeout is a float, want an integer"},
		{"nil for a map", call(func(m map[string]any) { m["payload"] = nil }), hostMessages, "field call.payload is nil, want a map"},
		{"nested unknown", errMsg(func(m map[string]any) { m["code"] = "x" }), workerMessages, "unknown field error.error.code"},
		{"nested missing", errMsg(func(m map[string]any) { delete(m, "cause") }), workerMessages, "field error.error.cause is missing"},
		{"list element", encodeMessage(&hooksMsg{ID: 1, Hooks: []wireHook{{Params: []string{"a"}}}}), workerMessages, ""},
		{"bad list element", func() map[string]any {
			m := encodeMessage(&hooksMsg{ID: 1, Hooks: []wireHook{{}}})
			m["hooks"].([]any)[0].(map[string]any)["params"] = []any{int64(1)}
			return m
		}(), workerMessages, "field hooks.hooks[0].params[0] is an integer, want a string"},
		{"negative steps", func() map[string]any {
			m := encodeMessage(&compileMsg{})
			m["limits"].(map[string]any)["steps"] = int64(-1)
			return m
		}(), hostMessages, "field compile.limits.steps is an integer, want a non-negative integer"},
		{"no kind", map[string]any{"id": int64(1)}, hostMessages, "a message without a kind"},
		{"unknown kind", map[string]any{"op": "eval", "id": int64(1)}, hostMessages, `unknown message "eval"`},
		{"a worker's message to a worker", encodeMessage(&valueMsg{ID: 1}), hostMessages, `unknown message "value"`},
		{"a host's message to a host", encodeMessage(&cancelMsg{ID: 1}), workerMessages, `unknown message "cancel"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := writeFrame(&b, tc.frame); err != nil {
				t.Fatal(err)
			}
			_, err := readMessage(&b, tc.kinds)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("a good message refused: %v", err)
				}
				return
			}
			if !errors.Is(err, errProtocol) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want a protocol error with %q", err, tc.want)
			}
		})
	}
}

// The handshake: a worker of this version and build is accepted; one of
// another version or build, or one that says anything but hello first,
// is refused with an error naming both sides; one that cannot start
// says why.
func TestHandshake(t *testing.T) {
	host := build{ID: "host-id", Program: "hookhost commit aaaa"}
	for _, tc := range []struct {
		name  string
		first map[string]any
		want  []string
	}{
		{"same build", encodeMessage(&helloMsg{Protocol: protocolVersion, Build: "host-id", Program: "hookhost commit aaaa"}), nil},
		{"other build", encodeMessage(&helloMsg{Protocol: protocolVersion, Build: "new-id", Program: "hookhost commit bbbb"}),
			[]string{"the worker is hookhost commit bbbb (build new-id), the host expects hookhost commit aaaa (build host-id)"}},
		{"other version", map[string]any{"op": "hello", "protocol": int64(protocolVersion + 1), "build": "new-id",
			"program": "hookhost v9", "features": []any{}},
			[]string{"the worker speaks protocol version 4, this host 3", "hookhost v9", "hookhost commit aaaa"}},
		{"version 1", map[string]any{"op": "hello"}, []string{"the worker speaks protocol version 1, this host 3 (the worker is an older hookhost; the host hookhost commit aaaa (build host-id))"}},
		{"bad hello", map[string]any{"op": "hello", "protocol": int64(protocolVersion), "build": "host-id"},
			[]string{"field hello.program is missing"}},
		{"exit first", encodeMessage(&exitMsg{Reason: exitInit, Msg: "setting RLIMIT_DATA: operation not permitted"}),
			[]string{"it reported a failure to start: setting RLIMIT_DATA: operation not permitted"}},
		{"value first", encodeMessage(&valueMsg{ID: 1}), []string{"its first message is value, not hello"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := writeFrame(&b, tc.first); err != nil {
				t.Fatal(err)
			}
			err := (&process{}).handshake(&b, host)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %v, want it to say %q", err, w)
				}
			}
		})
	}
}

// Every field of the scripting types a message carries travels: a field
// added to scripting.Hook, Limits or Error must be added to the wire (or
// here, with why it stays behind).
func TestWireCoversScriptingTypes(t *testing.T) {
	for _, tc := range []struct {
		typ, wire reflect.Type
		behind    []string
	}{
		{reflect.TypeFor[scripting.Hook](), reflect.TypeFor[wireHook](), []string{"Func", "Binds"}}, // the host's side of a call
		{reflect.TypeFor[scripting.Limits](), reflect.TypeFor[wireLimits](), nil},
		{reflect.TypeFor[scripting.Error](), reflect.TypeFor[wireError](), []string{"Err"}}, // travels as Cause
	} {
		for i := range tc.typ.NumField() {
			name := tc.typ.Field(i).Name
			if _, ok := tc.wire.FieldByName(name); !ok && !slices.Contains(tc.behind, name) {
				t.Errorf("%s.%s does not travel to or from a worker", tc.typ, name)
			}
		}
	}
	h := scripting.Hook{Event: "e", Name: "n", Line: 1, Priority: 2, Timeout: 3, Enabled: true, ErrorBehavior: "deny",
		TimeoutBehavior: "skip", Params: []string{"p"}}
	if got := hookOf(h).hook(); !reflect.DeepEqual(got, h) {
		t.Errorf("a hook came back as %+v, want %+v", got, h)
	}
}

// A hostile or corrupt frame from a worker is an error, never a panic,
// a huge allocation or a message with zero values standing in for what
// was missing; what decodes encodes back to the same frame.
func FuzzReadMessage(f *testing.F) {
	for _, msg := range []message{&helloMsg{Protocol: protocolVersion, Build: "b"}, &valueMsg{ID: 1, Value: []any{"x", 1.5}},
		&errorMsg{ID: 2, Error: wireError{Msg: "m", Cause: causeInterrupted}},
		&logMsg{Msg: "m", Attrs: []logAttr{{Key: "g", Group: []logAttr{{Key: "k", Value: true}}}}},
		&hooksMsg{ID: 1, Hooks: []wireHook{{Params: []string{"a"}}}}, &exitMsg{Reason: exitPanic}} {
		var b bytes.Buffer
		_ = writeMessage(&b, msg)
		f.Add(b.Bytes())
	}
	f.Add([]byte{0, 0, 0, 6, 'l', 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, frame []byte) {
		msg, err := readMessage(bytes.NewReader(frame), workerMessages)
		if err != nil {
			return
		}
		var again bytes.Buffer
		if err := writeMessage(&again, msg); err != nil {
			t.Fatalf("decoded %#v does not encode: %v", msg, err)
		}
		back, err := readMessage(bytes.NewReader(again.Bytes()), workerMessages)
		if err != nil || !bytes.Equal(frameOf(t, back), again.Bytes()) {
			t.Fatalf("re-encoding changed %#v to %#v (%v)", msg, back, err)
		}
	})
}

// frameOf is msg's frame: maps encode with their keys sorted, so equal
// messages have equal frames.
func frameOf(t *testing.T, msg message) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := writeMessage(&b, msg); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// An answer to a request the host never sent breaks the protocol: the
// worker is stopped with that as the reason, not the answer dropped.
func TestAnswerToNoRequest(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  message
		want string
	}{
		{"unknown id", &valueMsg{ID: 99}, "value answers request 99, which the host never sent"},
		{"zero id", &errorMsg{}, "error answers request 0, which the host never sent"},
		{"a second hello", &helloMsg{Protocol: protocolVersion}, "a second hello"},
		{"an unknown exit reason", &exitMsg{Reason: "cosmic rays", Msg: "m"}, `it reported the reason "cosmic rays": m`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("sleep", "60")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
			p := &process{cmd: cmd, pending: map[int64]chan message{}, nextID: 1}
			p.dispatch(tc.msg)
			if p.why == nil || !strings.Contains(p.why.Error(), tc.want) {
				t.Fatalf("why %v, want %q", p.why, tc.want)
			}
		})
	}
}
