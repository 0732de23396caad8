package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookhost/hookhost/scripting"
)

const guardsManifest = `---
name: Guards
description: keeps the agent out of trouble
version: 1.2
config:
  limit: 5
  mode: warn
  label: pack
---
# Guards

For people: what the pack does.
`

// The pack's hooks in both languages reply with their merged ctx.config.
var packFiles = map[string]string{
	"top.lua":           `hook.on("turn.pre", function() end, { name = "top" })`,
	"guards/HOOK.md":    guardsManifest,
	"guards/a.lua":      `hook.on("tool.approve", function(ctx) return hook.deny(ctx.config.mode .. " " .. ctx.config.limit .. " " .. ctx.config.label) end, { name = "a" })`,
	"guards/b.star":     "def b(ctx):\n    return hook.deny(\"%s %d %s\" % (ctx.config[\"mode\"], ctx.config[\"limit\"], ctx.config[\"label\"]))\n\nhook.on(\"tool.approve\", b)\n",
	"guards/a_test.lua": `error("a test file is not a hook")`,
	"guards/deep/x.lua": `error("nested too deep")`,
	"other/c.lua":       `error("not a pack")`,
}

func packFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, code := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(code)}
	}
	return fsys
}

func TestPackLoads(t *testing.T) {
	cfg, err := ParseConfig("hookhost.yaml", []byte(`hooks:
  "guards/": { config: { limit: 7 } }
  "guards/b.star": { config: { mode: deny } }
  "guards/a.lua:a": { priority: 20, config: { label: hook } }
`))
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(context.Background(), Options{FS: packFS(packFiles), Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if p := h.Problems(); len(p) != 0 {
		t.Fatalf("problems: %v", p)
	}
	var ids []string
	for _, hi := range h.Hooks() {
		ids = append(ids, hi.ID)
		if hi.File != "top.lua" && (hi.Pack != "guards" || hi.PackDescription != "keeps the agent out of trouble") {
			t.Errorf("%s: pack %q %q", hi.ID, hi.Pack, hi.PackDescription)
		}
	}
	if got := strings.Join(ids, " "); got != "guards/a.lua:a guards/b.star:b top.lua:top" {
		t.Fatalf("hooks %q", got)
	}
	// Lua (priority 20) decides first: pack mode, operator pack limit, hook label.
	r, _ := h.Fire(context.Background(), "tool.approve", nil)
	if r.Decision.Reason != "warn 7 hook" {
		t.Errorf("lua: %q, want the pack's defaults under the operator's keys", r.Decision.Reason)
	}
	f := false
	cfg.Hooks["guards/a.lua"] = HookConfig{Enabled: &f}
	h2, err := New(context.Background(), Options{FS: packFS(packFiles), Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	if r, _ := h2.Fire(context.Background(), "tool.approve", nil); r.Decision.Reason != "deny 7 pack" {
		t.Errorf("starlark: %q", r.Decision.Reason)
	}

	st := h.Status()
	if len(st.Packs) != 1 || st.Packs[0].Dir != "guards" || st.Packs[0].Name != "Guards" || st.Packs[0].Version != "1.2" ||
		!st.Packs[0].Enabled || st.Packs[0].LiveVersion == "" {
		t.Errorf("packs %+v", st.Packs)
	}
	notes := strings.Join(st.Notes, "\n")
	if !strings.Contains(notes, "guards/deep/: nested too deep") || !strings.Contains(notes, "other/: not a hook pack (no HOOK.md), ignored") {
		t.Errorf("notes %q", notes)
	}
}

// A pack shipped switched off loads its hooks disabled; the operator can
// switch it on by pack, file or hook.
func TestPackDisabled(t *testing.T) {
	files := map[string]string{
		"p/HOOK.md": "---\ndescription: off by default\nenabled: false\n---\n",
		"p/a.lua":   `hook.on("tool.approve", function() return hook.deny("lua on") end, { name = "a", priority = 2 })`,
		"p/b.star":  "hook.on(\"tool.approve\", lambda: hook.deny(\"star on\"), name = \"b\", priority = 1)\n",
	}
	on := true
	for _, c := range []struct {
		key, want string
	}{{"", ""}, {"p/", "lua on"}, {"p/b.star", "star on"}, {"p/b.star:b", "star on"}} {
		cfg := &Config{}
		if c.key != "" {
			cfg.Hooks = map[string]HookConfig{c.key: {Enabled: &on}}
		}
		h, err := New(context.Background(), Options{FS: packFS(files), Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		r, _ := h.Fire(context.Background(), "tool.approve", nil)
		if r.Decision.Reason != c.want || len(h.Hooks()) != 2 {
			t.Errorf("key %q: %q, want %q (%d hooks)", c.key, r.Decision.Reason, c.want, len(h.Hooks()))
		}
		h.Close()
	}
}

// A malformed HOOK.md is a load error of its pack, with its line; the
// pack's scripts do not load; in strict mode its events deny.
func TestPackBadManifest(t *testing.T) {
	for _, c := range []struct{ name, manifest, want string }{
		{"no front matter", "# just markdown\n", "p/HOOK.md:1: want YAML front matter"},
		{"unclosed", "---\nname: x\n", "p/HOOK.md:1: the front matter opened here is never closed"},
		{"bad yaml", "---\nname: x\ndescription: [unclosed\n---\n", "p/HOOK.md:"},
		{"unknown key", "---\nname: x\n\ndescripton: typo\n---\n", `p/HOOK.md:4: HOOK.md: unknown key "descripton"`},
		{"bad enabled", "---\nenabled: maybe\n---\n", "p/HOOK.md:2: enabled: want true or false"},
		{"config not a map", "---\nconfig: [1, 2]\n---\n", "p/HOOK.md:2: config: want a mapping"},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{
				"p/HOOK.md": c.manifest,
				"p/a.lua":   `hook.on("tool.approve", function() return hook.allow("p") end, { name = "a" })`,
				"ok.star":   "hook.on(\"tool.approve\", lambda: hook.allow(\"ok\"), name = \"ok\")\n",
			}
			h, err := New(context.Background(), Options{FS: packFS(files), Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			p := h.Problems()
			st := h.Status()
			if len(st.Problems) != 1 || !strings.HasPrefix(st.Problems[0], c.want) || len(p) != 1 ||
				strings.Contains(st.Problems[0], ": line ") { // the line is named once, as file:line

				t.Fatalf("problems %q, want one starting %q", st.Problems, c.want)
			}
			if len(h.Hooks()) != 1 || h.Hooks()[0].ID != "ok.star:ok" {
				t.Errorf("the broken pack's scripts loaded: %+v", h.Hooks())
			}
			r, _ := h.Fire(context.Background(), "tool.approve", nil)
			if !strings.HasPrefix(r.Decision.Reason, "hookhost: p/HOOK.md:") || len(st.Unhealthy()) != 1 {
				t.Errorf("strict: %+v, unhealthy %q", r.Decision, st.Unhealthy())
			}
		})
	}
}

// A HOOK.md edit that fails keeps the pack's last good front matter;
// the report shows HOOK.md like a file.
func TestPackManifestLastGood(t *testing.T) {
	dir := t.TempDir()
	write := func(name, code string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(code), 0o644)
	}
	write("p/HOOK.md", "---\ndescription: v1\nconfig: { word: one }\n---\n")
	write("p/a.star", "def a(ctx):\n    return hook.deny(ctx.config[\"word\"])\n\nhook.on(\"tool.approve\", a)\n")
	h, err := New(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	write("p/HOOK.md", "---\ndescription: v2\nconfig: { word: two }\n---\n")
	rep := h.Rescan(context.Background(), TriggerAPI)
	if r, _ := h.Fire(context.Background(), "tool.approve", nil); r.Decision.Reason != "two" {
		t.Fatalf("new pack config not applied: %q", r.Decision.Reason)
	}
	if rep.Files[0].Path != "p/HOOK.md" || rep.Files[0].Outcome != FileReloaded || rep.Files[1].Outcome != FileUnchanged {
		t.Errorf("report %+v", rep.Files)
	}
	write("p/HOOK.md", "---\ndescription: v3\nbogus: 1\n---\n")
	rep = h.Rescan(context.Background(), TriggerAPI)
	if rep.Files[0].Outcome != FileFailed || !strings.HasPrefix(rep.Files[0].Err.Error(), "p/HOOK.md:3:") {
		t.Errorf("report %+v", rep.Files[0])
	}
	r, _ := h.Fire(context.Background(), "tool.approve", nil)
	st := h.Status()
	if r.Decision.Reason != "two" || st.Packs[0].Description != "v2" || st.Packs[0].Err == nil || len(r.Problems) != 1 {
		t.Errorf("a bad edit should keep the last good HOOK.md: %q %+v %q", r.Decision.Reason, st.Packs, r.Problems)
	}
	os.RemoveAll(filepath.Join(dir, "p"))
	rep = h.Rescan(context.Background(), TriggerAPI)
	if len(rep.Files) != 2 || rep.Files[0].Outcome != FileRemoved || rep.Files[1].Outcome != FileRemoved || len(h.Status().Packs) != 0 {
		t.Errorf("removed pack: %+v", rep.Files)
	}
}

// The watcher follows pack directories appearing, renamed and removed.
func TestWatchPacks(t *testing.T) {
	w := startWatched(t, map[string]string{"top.lua": `hook.on("turn.pre", function() end, { name = "top" })`}, Options{})
	hasHook := func(id string) func(Result, Status) bool {
		return func(r Result, _ Status) bool { return r.Decision.Hook == id }
	}
	os.Mkdir(w.path("p"), 0o755)
	w.write("p/a.lua", denyLua("from p"))
	w.write("p/HOOK.md", "---\ndescription: appears\n---\n")
	w.waitFor("the new pack", hasHook("p/a.lua:g"))
	w.replace("p/a.lua", denyLua("edited"))
	w.waitReason("edited")
	w.write("p/b.star", denyStar("star in p"))
	w.waitFor("a file added to the pack", func(_ Result, st Status) bool { return len(st.Files) == 3 })
	if err := os.Rename(w.path("p"), w.path("q")); err != nil {
		t.Fatal(err)
	}
	w.waitFor("the renamed pack", func(r Result, st Status) bool {
		return strings.HasPrefix(r.Decision.Hook, "q/") && len(st.Packs) == 1 && st.Packs[0].Dir == "q"
	})
	w.replace("q/a.lua", denyLua("watched after rename"))
	w.waitReason("watched after rename")
	os.RemoveAll(w.path("q"))
	w.waitFor("the pack gone", func(r Result, st Status) bool { return r.Decision.Hook == "" && len(st.Packs) == 0 })
}

// A HOOK.md is the operator's (or a pack author's) input: whatever it
// holds, parsing returns front matter or a positioned error, never a
// panic.
func FuzzPackManifest(f *testing.F) {
	f.Add([]byte(guardsManifest))
	f.Add([]byte("---\nenabled: false\n---\n"))
	f.Add([]byte("---\nconfig: {a: [1, {b: 2}]}\nbogus: 1\n---\n"))
	f.Add([]byte("---\r\nname: x\r\n---\r\n"))
	f.Add([]byte("no front matter"))
	f.Fuzz(func(t *testing.T, data []byte) {
		meta, err := parsePackMeta("p/HOOK.md", "p", data)
		if (meta == nil) == (err == nil) {
			t.Fatalf("meta %v, err %v", meta, err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "p/HOOK.md") {
			t.Fatalf("error without its file: %v", err)
		}
		if meta == nil {
			return
		}
		// What parsed comes back from the pack cache's encoding as it was.
		enc, err := encodePackMeta(meta)
		if err != nil {
			t.Fatalf("%#v does not encode: %v", meta, err)
		}
		back, ok := decodePackMeta(enc[scripting.SealSize:])
		if !ok || !reflect.DeepEqual(back, meta) {
			t.Fatalf("%#v came back as %#v", meta, back)
		}
	})
}

// goodAndBadPacks is a directory of two packs, one whose HOOK.md is
// fine and one whose HOOK.md fails.
var goodAndBadPacks = map[string]string{
	"good/HOOK.md": guardsManifest,
	"good/a.lua":   `hook.on("tool.approve", function() end, { name = "a" })`,
	"bad/HOOK.md":  "---\nenabled: maybe\n---\n",
	"bad/b.star":   "hook.on(\"tool.approve\", lambda: None, name = \"b\")\n",
}

// Status's JSON shows each pack, its error as a string or null, and the
// pack of each file.
func TestPackStatusJSON(t *testing.T) {
	h, err := New(context.Background(), Options{FS: packFS(goodAndBadPacks)})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	js, err := json.Marshal(h.Status())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"files":[{"path":"good/a.lua","pack":"good","hooks":1,"error":null,"live_version":"`,
		`"packs":[{"dir":"bad","name":"bad","description":"","version":"","enabled":false,"live_version":"","error":"bad/HOOK.md:2: enabled: want true or false, got \"maybe\""},` +
			`{"dir":"good","name":"Guards","description":"keeps the agent out of trouble","version":"1.2","enabled":true,"live_version":"`,
		`"problems":["bad/HOOK.md:2: enabled: want true or false, got \"maybe\""]`,
	} {
		if !strings.Contains(string(js), want) {
			t.Errorf("status JSON lacks %s:\n%s", want, js)
		}
	}
}
