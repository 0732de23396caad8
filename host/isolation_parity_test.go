package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The parity suite: each scenario runs against a host in process, then
// against one whose files are all isolated, and writes down what it
// observes (decisions, traces with their error texts, reload outcomes,
// problems, the listing, quarantines); both transcripts must be the same,
// line for line. It covers what the conformance suite does not: hot
// reload (an edit, a broken edit, the fix, a deletion), timeouts and
// their text, quarantine strikes, and state across calls.
func TestIsolationParity(t *testing.T) {
	for _, sc := range parityScenarios {
		for _, ext := range []string{"lua", "star"} {
			t.Run(sc.name+"/"+ext, func(t *testing.T) {
				in := runParity(t, sc, ext, false)
				iso := runParity(t, sc, ext, true)
				if in != iso {
					t.Errorf("isolated differs from in process:\n%s", lineDiff(in, iso))
				}
				if sc.want != "" && !strings.Contains(in, sc.want) {
					t.Errorf("the transcript lacks %q:\n%s", sc.want, in)
				}
			})
		}
	}
}

// A parityScenario drives a host through p; code maps a language to
// the files it starts with. want is a line its transcript must hold,
// so that a scenario cannot pass by observing nothing.
type parityScenario struct {
	name string
	code map[string]map[string]string // ext → file → code
	run  func(p *parityRun)
	want string
}

var parityScenarios = []parityScenario{
	{
		name: "reload",
		code: map[string]map[string]string{
			"lua":  {"a.lua": luaDeny("one")},
			"star": {"a.star": starDeny("one")},
		},
		run: func(p *parityRun) {
			p.fire("tool.approve", nil)
			p.edit("a."+p.ext, map[string]string{"lua": "hook.on(\"tool.approve\", function()\n  return = 1\nend)\n",
				"star": "def h():\n    return hook.deny(\n\nhook.on(\"tool.approve\", h)\n"}[p.ext])
			p.fire("tool.approve", nil) // the last good version serves
			p.edit("a."+p.ext, map[string]string{"lua": luaDeny("two"), "star": starDeny("two")}[p.ext])
			p.fire("tool.approve", nil)
			p.remove("a." + p.ext)
			p.fire("tool.approve", nil)
			p.edit("a."+p.ext, map[string]string{"lua": luaDeny("three"), "star": starDeny("three")}[p.ext])
			p.fire("tool.approve", nil)
		},
		want: "decision deny \"three\"",
	},
	{
		name: "timeouts",
		code: map[string]map[string]string{
			"lua": {"a.lua": `
hook.on("tool.approve", function() while true do end end, { name = "spin", timeout = "100ms" })
hook.on("tool.execute.pre", function() while true do end end, { name = "spin2", timeout = "100ms", priority = 5 })
hook.on("tool.execute.pre", function() return hook.deny("after") end, { name = "after" })`},
			"star": {"a.star": `
def spin():
    for i in range(1 << 62):
        pass

def after():
    return hook.deny("after")

hook.on("tool.approve", spin, timeout = "100ms")
hook.on("tool.execute.pre", spin, name = "spin2", timeout = "100ms", priority = 5)
hook.on("tool.execute.pre", after)`},
		},
		run: func(p *parityRun) {
			p.fire("tool.approve", nil)
			p.fire("tool.execute.pre", nil)
			p.fire("tool.execute.pre", nil)
			p.quarantined()
		},
		want: "timed out after 100ms",
	},
	{
		name: "errors",
		code: map[string]map[string]string{
			"lua": {"a.lua": `
hook.on("tool.approve", function(tool_name)
  error("no " .. tool_name)
end, { name = "h" })
hook.on("tool.execute.pre", function() return 42 end, { name = "bad" })`},
			"star": {"a.star": `
def h(tool_name):
    fail("no " + tool_name)

def bad():
    return 42

hook.on("tool.approve", h)
hook.on("tool.execute.pre", bad)`},
		},
		run: func(p *parityRun) {
			p.fire("tool.approve", map[string]any{"tool_name": "ls"})
			p.fire("tool.execute.pre", nil)
		},
		want: "no ls",
	},
	{
		name: "stuck builtins",
		code: map[string]map[string]string{
			"lua": {"a.lua": `
hook.on("tool.execute.pre", function()
  string.find(string.rep("a", 3000), ".-.-b")
end, { name = "stuck", timeout = "200ms", priority = 5 })
hook.on("tool.execute.pre", function() return hook.deny("after") end, { name = "after" })`},
			"star": {"a.star": `
def stuck():
    return min(range(1 << 62))

def after():
    return hook.deny("after")

hook.on("tool.execute.pre", stuck, timeout = "200ms", priority = 5)
hook.on("tool.execute.pre", after)`},
		},
		run: func(p *parityRun) {
			for range strikeLimit {
				p.fire("tool.execute.pre", nil)
			}
			p.quarantined()
		},
		want: "timed out after 200ms",
	},
	{
		name: "call memory budget",
		code: map[string]map[string]string{
			"lua": {"a.lua": `
hook.on("tool.execute.pre", function()
  local s = string.rep("x", 1024 * 1024)
  local t = {}
  for i = 1, 200 do t[i] = s end
  return hook.message(tostring(#table.concat(t)))
end, { name = "big", priority = 5, timeout = "5s" })`},
			"star": {"a.star": `
def big():
    return hook.message(str(len(sorted(range(1 << 25)))))

hook.on("tool.execute.pre", big, priority = 5, timeout = "5s")`},
		},
		run: func(p *parityRun) {
			p.fire("tool.execute.pre", nil)
		},
		want: "limit",
	},
	{
		name: "state across calls",
		code: map[string]map[string]string{
			"lua": {"a.lua": `
local state = require("state")
hook.on("turn.pre", function(session_id)
  return hook.message(session_id .. " " .. state.incr("n:" .. session_id))
end, { name = "count" })`},
			"star": {"a.star": `
load("state", "state")
def count(session_id):
    return hook.message("%s %d" % (session_id, state.incr("n:" + session_id)))

hook.on("turn.pre", count)`},
		},
		run: func(p *parityRun) {
			for _, s := range []string{"A", "B", "A", "A", "B"} {
				p.fire("turn.pre", map[string]any{"session_id": s})
			}
			p.edit("a."+p.ext, p.code["a."+p.ext]+"\n") // a reload keeps the store
			p.fire("turn.pre", map[string]any{"session_id": "A"})
		},
		want: "message \"A 4\"",
	},
}

func luaDeny(reason string) string {
	return fmt.Sprintf("hook.on(\"tool.approve\", function() return hook.deny(%q) end, { name = \"h\" })\n", reason)
}

func starDeny(reason string) string {
	return fmt.Sprintf("def h():\n    return hook.deny(%q)\n\nhook.on(\"tool.approve\", h)\n", reason)
}

// A parityRun is one scenario against one host, and its transcript.
type parityRun struct {
	t    *testing.T
	h    *Host
	dir  string
	ext  string
	code map[string]string
	out  strings.Builder
}

func runParity(t *testing.T, sc parityScenario, ext string, isolated bool) string {
	t.Helper()
	config := "{}\n"
	if isolated {
		config = "defaults: { isolation: process }\n"
	}
	h, root := isolatedHost(t, sc.code[ext], config)
	p := &parityRun{t: t, h: h, dir: filepath.Join(root, "hooks.d"), ext: ext, code: sc.code[ext]}
	p.listing()
	sc.run(p)
	h.Close()
	return p.out.String()
}

func (p *parityRun) printf(format string, args ...any) { fmt.Fprintf(&p.out, format+"\n", args...) }

func (p *parityRun) fire(event string, payload map[string]any) {
	p.t.Helper()
	r, err := p.h.Fire(context.Background(), event, payload)
	if err != nil {
		p.t.Fatal(err)
	}
	p.printf("fire %s", event)
	for _, e := range r.Trace {
		p.printf("  trace %s %s %s %q", e.Hook, e.Outcome, e.Action, e.Error)
	}
	for _, m := range r.Messages {
		p.printf("  message %q", m.Content)
	}
	p.printf("  decision %s %q by %s", r.Decision.Action, r.Decision.Reason, r.Decision.Hook)
}

func (p *parityRun) edit(name, code string) {
	p.t.Helper()
	writeFiles(p.t, p.dir, map[string]string{name: code})
	p.rescan("edit " + name)
}

func (p *parityRun) remove(name string) {
	p.t.Helper()
	if err := os.Remove(filepath.Join(p.dir, name)); err != nil {
		p.t.Fatal(err)
	}
	p.rescan("remove " + name)
}

func (p *parityRun) rescan(what string) {
	p.t.Helper()
	rep := p.h.Rescan(context.Background(), TriggerAPI)
	if rep.Err != nil {
		p.t.Fatal(rep.Err)
	}
	p.printf("%s", what)
	for _, f := range rep.Files {
		p.printf("  file %s %s %v", f.Path, f.Outcome, f.Err)
	}
	for _, e := range p.h.Problems() {
		p.printf("  problem %v", e)
	}
	p.listing()
}

// listing writes down the hooks as list shows them, but for the mark of
// isolation.
func (p *parityRun) listing() {
	for _, h := range p.h.Hooks() {
		p.printf("  hook %s %s %s:%d prio %d %v (%s) enabled %v params %v", h.ID, h.Event, h.File, h.Line, h.Priority,
			h.Timeout, h.TimeoutFrom, h.Enabled, h.Params)
	}
}

func (p *parityRun) quarantined() {
	p.printf("quarantined %v", p.h.Quarantined())
}

// lineDiff shows two transcripts side by side from their first
// difference.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		mark := "  "
		if x != y {
			mark = "! "
		}
		fmt.Fprintf(&out, "%sin process: %s\n%sisolated:   %s\n", mark, x, mark, y)
	}
	return out.String()
}
