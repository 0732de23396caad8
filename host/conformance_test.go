package host

import (
	"context"
	"encoding/json"
	"fmt"

	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/hookhost/hookhost/stdlib"
)

// The conformance suite: each testdata/conformance/*.txtar holds hook
// scripts written in both languages (a.lua and a.star doing the same
// thing), an optional hookhost.yaml, and a "test" section of fires and
// expectations. The harness loads the Lua files alone, then the Starlark
// files alone, and checks that both give the expected results — so every
// script-visible behaviour is tested the same way in both languages.
//
// The test section is a list of commands, one per line:
//
//	fire EVENT [PAYLOAD-JSON]       fire; later lines check this result
//	decision JSON                   the decision, as fire --json prints it
//	decision.action ACTION          the decision's action
//	decision.reason REGEXP          the decision's reason matches
//	payload JSON                    the folded payload
//	messages JSON                   the messages
//	trace ID=OUTCOME[:ACTION][@ENFORCE] ...
//	                                the trace, in order (@dryrun, @warn:
//	                                a hook in shadow mode)
//	error ID REGEXP                 the trace error of hook ID matches
//	fire-error REGEXP               Fire itself returned a matching error
//	problem REGEXP                  some load problem matches
//	problems N                      exactly N load problems
//	hooks N                         N hooks are loaded (Hooks())
//	timeout ID DURATION FROM...     hook ID's resolved timeout and its source
//	only lua|star                   (first line) the case is for one language
//
// In expectations and in hookhost.yaml, "EXT" stands for the file extension of the language
// under test, so hook ids read a.EXT:name.
func TestConformance(t *testing.T) { runConformance(t, false) }

// TestConformanceIsolated runs the suite again with every file isolated
// (defaults: isolation: process): each file's hooks run in a worker
// process, and every result must be the same.
func TestConformanceIsolated(t *testing.T) { runConformance(t, true) }

func runConformance(t *testing.T, isolated bool) {
	files, err := filepath.Glob("testdata/conformance/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance cases: %v", err)
	}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		for _, ext := range languages(t, file, ar) {
			t.Run(name+"/"+ext, func(t *testing.T) { runCase(t, ar, ext, isolated) })
		}
	}
}

func languages(t *testing.T, file string, ar *txtar.Archive) []string {
	script := string(section(ar, "test"))
	if m := regexp.MustCompile(`(?m)^only (lua|star)$`).FindStringSubmatch(script); m != nil {
		return []string{m[1]}
	}
	have := map[string]bool{}
	for _, f := range ar.Files {
		have[strings.TrimPrefix(filepath.Ext(f.Name), ".")] = true
	}
	if !have["lua"] || !have["star"] {
		t.Errorf("%s: a case needs scripts in both languages, or an 'only' line", file)
	}
	return []string{"lua", "star"}
}

func section(ar *txtar.Archive, name string) []byte {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

// runCase loads the scripts of one language and runs the test section.
func runCase(t *testing.T, ar *txtar.Archive, ext string, isolated bool) {
	fsys := fstest.MapFS{}
	other := map[string]string{"lua": ".star", "star": ".lua"}[ext]
	for _, f := range ar.Files {
		if f.Name != "test" && f.Name != "hookhost.yaml" && !strings.HasSuffix(f.Name, other) {
			fsys[f.Name] = &fstest.MapFile{Data: f.Data}
		}
	}
	opts := Options{FS: fsys, HooksDir: "/srv/hooks.d", Now: func() time.Time { return time.Unix(1700000000, 0) }}
	if cfg := section(ar, "hookhost.yaml"); cfg != nil {
		c, err := ParseConfig("hookhost.yaml", []byte(strings.ReplaceAll(string(cfg), "EXT", ext)))
		if err != nil {
			t.Fatalf("config: %v", err)
		}
		opts.Config = c
	}
	if isolated {
		if opts.Config == nil {
			opts.Config = &Config{}
		}
		opts.Config.Defaults.Isolation = ProcessIsolation
		opts.WorkerExecutable = testWorker
	}
	h, err := New(context.Background(), opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	defer h.Close()
	r := &caseRun{t: t, h: h, ext: ext}
	for i, line := range strings.Split(string(section(ar, "test")), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r.line = i + 1
		r.do(strings.ReplaceAll(line, "EXT", ext))
	}
}

type caseRun struct {
	t       *testing.T
	h       *Host
	ext     string
	line    int
	res     Result
	fireErr error
}

func (r *caseRun) errorf(format string, args ...any) {
	r.t.Helper()
	r.t.Errorf("test line %d: %s", r.line, fmt.Sprintf(format, args...))
}

func (r *caseRun) do(line string) {
	r.t.Helper()
	cmd, arg, _ := strings.Cut(line, " ")
	switch cmd {
	case "only":
	case "fire":
		r.fire(arg)
	case "decision":
		r.jsonEq("decision", r.res.Decision, arg)
	case "decision.action":
		r.match("decision.action", string(r.res.Decision.Action), "^"+arg+"$")
	case "decision.reason":
		r.match("decision.reason", r.res.Decision.Reason, arg)
	case "payload":
		r.jsonEq("payload", r.res.Payload, arg)
	case "messages":
		r.jsonEq("messages", orEmpty(r.res.Messages), arg)
	case "trace":
		r.trace(arg)
	case "error":
		r.traceError(arg)
	case "fire-error":
		r.match("fire error", fmt.Sprint(r.fireErr), arg)
	case "problem":
		r.problem(arg)
	case "problems":
		if got := fmt.Sprint(len(r.h.Problems())); got != arg {
			r.errorf("problems: got %s (%v), want %s", got, r.h.Problems(), arg)
		}
	case "timeout":
		r.timeout(arg)
	case "hooks":
		if got := fmt.Sprint(len(r.h.Hooks())); got != arg {
			r.errorf("hooks: got %s, want %s", got, arg)
		}
	default:
		r.errorf("unknown command %q", cmd)
	}
}

func (r *caseRun) fire(arg string) {
	event, payloadText, _ := strings.Cut(arg, " ")
	var payload map[string]any
	if payloadText != "" {
		dec := json.NewDecoder(strings.NewReader(payloadText))
		dec.UseNumber()
		var raw any
		if err := dec.Decode(&raw); err != nil {
			r.t.Fatalf("test line %d: payload: %v", r.line, err)
		}
		n, err := stdlib.Normalize(raw)
		if err != nil {
			r.t.Fatalf("test line %d: payload: %v", r.line, err)
		}
		payload = n.(map[string]any)
	}
	r.res, r.fireErr = r.h.Fire(context.Background(), event, payload)
	if r.fireErr == nil {
		for _, e := range r.res.Trace {
			if e.Error != "" {
				r.t.Logf("trace %s: %s", e.Hook, e.Error)
			}
		}
	}
}

func orEmpty(m []Message) []Message {
	if m == nil {
		return []Message{}
	}
	return m
}

// jsonEq compares got, marshalled, with the expected JSON text.
func (r *caseRun) jsonEq(what string, got any, want string) {
	r.t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		r.t.Fatal(err)
	}
	var gv, wv any
	_ = json.Unmarshal(g, &gv)
	if err := json.Unmarshal([]byte(want), &wv); err != nil {
		r.t.Fatalf("test line %d: bad expected JSON: %v", r.line, err)
	}
	gs, _ := json.Marshal(gv)
	ws, _ := json.Marshal(wv)
	if string(gs) != string(ws) {
		r.errorf("%s:\n got  %s\n want %s", what, gs, ws)
	}
}

func (r *caseRun) trace(arg string) {
	r.t.Helper()
	var got []string
	for _, e := range r.res.Trace {
		s := e.Hook + "=" + string(e.Outcome)
		if e.Action != "" {
			s += ":" + string(e.Action)
		}
		if e.Enforce != "" {
			s += "@" + string(e.Enforce)
		}
		got = append(got, s)
	}
	if g, w := strings.Join(got, " "), strings.Join(strings.Fields(arg), " "); g != w {
		r.errorf("trace:\n got  %s\n want %s", g, w)
	}
}

func (r *caseRun) traceError(arg string) {
	r.t.Helper()
	id, re, _ := strings.Cut(arg, " ")
	for _, e := range r.res.Trace {
		if e.Hook == id {
			r.match("error of "+id, e.Error, re)
			return
		}
	}
	r.errorf("no trace entry for %s", id)
}

func (r *caseRun) problem(re string) {
	r.t.Helper()
	var all []string
	for _, p := range r.h.Problems() {
		all = append(all, p.Error())
	}
	r.match("problems", strings.Join(all, "\n"), re)
}

func (r *caseRun) match(what, got, re string) {
	r.t.Helper()
	ok, err := regexp.MatchString(re, got)
	if err != nil {
		r.t.Fatalf("test line %d: bad regexp: %v", r.line, err)
	}
	if !ok {
		r.errorf("%s: %q does not match %q", what, got, re)
	}
}

func (r *caseRun) timeout(arg string) {
	r.t.Helper()
	f := strings.SplitN(arg, " ", 3)
	if len(f) != 3 {
		r.t.Fatalf("test line %d: timeout ID DURATION FROM", r.line)
	}
	for _, hi := range r.h.Hooks() {
		if hi.ID == f[0] {
			if got := hi.Timeout.String() + " " + hi.TimeoutFrom; got != f[1]+" "+f[2] {
				r.errorf("timeout of %s: got %s, want %s %s", f[0], got, f[1], f[2])
			}
			return
		}
	}
	r.errorf("no hook %s", f[0])
}
