package doctor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// A guard that denies every call, as Claude Code and Codex read it.
const denyAll = `printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}'`

// TestLoadSettings reads settings as the agents do: TOML tables and JSON
// files alike, and the settings that keep hooks from running, the last
// file that sets one winning.
func TestLoadSettings(t *testing.T) {
	const codexTOML = `model = "gpt-5"
[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "hookhost codex --dir /p/hooks.d"
timeout = 30
[hooks.state]
"some-hook" = { enabled = true }
`
	type file struct {
		name, text string
		managed    bool
	}
	for _, tc := range []struct {
		name          string
		agent         string
		files         []file
		entries       int
		off, unmanOff string // in Settings.Off, UnmanagedOff; "" for none
		err           string
	}{
		{"codex TOML hooks", "codex", []file{{"config.toml", codexTOML, false}}, 1, "", "", ""},
		{"codex TOML and JSON layers", "codex", []file{{"hooks.json", `{"hooks":{"PreToolUse":[{"hooks":[{"command":"x"}]}]}}`, false},
			{"config.toml", codexTOML, false}}, 2, "", "", ""},
		{"codex hooks off", "codex", []file{{"config.toml", codexTOML + "[features]\nhooks = false\n", false}}, 1,
			"hooks are disabled in config.toml ([features] hooks = false in ", "", ""},
		{"codex older key off", "codex", []file{{"config.toml", "[features]\ncodex_hooks = false\n", false}}, 0,
			"[features] codex_hooks = false", "", ""},
		{"codex hooks key wins over the older one", "codex", []file{{"config.toml", "[features]\nhooks = true\ncodex_hooks = false\n", false}}, 0, "", "", ""},
		{"codex project turns hooks back on", "codex", []file{{"user.toml", "[features]\nhooks = false\n", false},
			{"project.toml", "[features]\nhooks = true\n", false}}, 0, "", "", ""},
		{"codex project turns hooks off", "codex", []file{{"user.toml", "[features]\nhooks = true\n", false},
			{"project.toml", "features.hooks = false\n", false}}, 0, "project.toml", "", ""},
		{"codex feature not a boolean", "codex", []file{{"config.toml", "[features]\nhooks = \"no\"\n", false}}, 0, "", "",
			"features.hooks: want a boolean, got a string"},
		{"not TOML", "codex", []file{{"config.toml", "[[hooks.PreToolUse]\n", false}}, 0, "", "", "not TOML"},
		{"TOML of the wrong shape", "codex", []file{{"config.toml", "[hooks]\nPreToolUse = 3\n", false}}, 0, "", "",
			"hooks.PreToolUse: want an array, got a number"},
		{"claude managed entries", "claude", []file{{"settings.json", `{"hooks":{"PreToolUse":[{"hooks":[{"command":"x"}]}]}}`, false},
			{"managed-settings.json", `{"hooks":{"PreToolUse":[{"hooks":[{"command":"y"}]}]}}`, true}}, 2, "", "", ""},
		{"claude managed hooks only", "claude", []file{{"settings.json", `{}`, false},
			{"managed-settings.json", `{"allowManagedHooksOnly":true}`, true}}, 0, "", "only managed hooks run: allowManagedHooksOnly is true in ", ""},
		{"allowManagedHooksOnly outside managed settings is ignored", "claude", []file{{"settings.json", `{"allowManagedHooksOnly":true}`, false}}, 0, "", "", ""},
		{"a later drop-in turns it back off", "claude", []file{{"managed-settings.json", `{"allowManagedHooksOnly":true}`, true},
			{"20-team.json", `{"allowManagedHooksOnly":false}`, true}}, 0, "", "", ""},
		{"claude user disables hooks", "claude", []file{{"settings.json", `{"disableAllHooks":true}`, false}}, 0, "", "disableAllHooks is true", ""},
		{"managed settings cannot turn the user's disableAllHooks back on", "claude", []file{{"settings.json", `{"disableAllHooks":true}`, false},
			{"managed-settings.json", `{"disableAllHooks":false}`, true}}, 0, "", "disableAllHooks is true in ", ""},
		{"a local file turns it back on", "claude", []file{{"settings.json", `{"disableAllHooks":true}`, false},
			{"settings.local.json", `{"disableAllHooks":false}`, false}}, 0, "", "", ""},
		{"claude managed disables hooks", "claude", []file{{"managed-settings.json", `{"disableAllHooks":true}`, true}}, 0, "disableAllHooks is true", "", ""},
		{"claude flag not a boolean", "claude", []file{{"managed-settings.json", `{"allowManagedHooksOnly":"yes"}`, true}}, 0, "", "",
			"allowManagedHooksOnly: want a boolean, got a string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var srcs []Source
			for _, f := range tc.files {
				p := filepath.Join(dir, f.name)
				if err := os.WriteFile(p, []byte(f.text), 0o600); err != nil {
					t.Fatal(err)
				}
				srcs = append(srcs, Source{File: p, Managed: f.managed})
			}
			st, err := Load(Agents[tc.agent], srcs, false)
			if tc.err != "" {
				var se *SettingsError
				if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want a SettingsError with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Entries) != tc.entries {
				t.Errorf("%d entries %+v, want %d", len(st.Entries), st.Entries, tc.entries)
			}
			for _, c := range []struct{ got, want, what string }{{st.Off, tc.off, "Off"}, {st.UnmanagedOff, tc.unmanOff, "UnmanagedOff"}} {
				if (c.want == "") != (c.got == "") || !strings.Contains(c.got, c.want) {
					t.Errorf("%s = %q, want %q", c.what, c.got, c.want)
				}
			}
		})
	}
}

// TestTOMLEntry reads one TOML hook as its JSON twin: timeout in the
// agent's unit, matcher, command.
func TestTOMLEntry(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.toml")
	text := "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"hookhost codex\"\ntimeout = 30\n"
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := Load(Agents["codex"], []Source{{File: p}}, false)
	if err != nil || len(st.Entries) != 1 {
		t.Fatalf("%+v, %v", st, err)
	}
	e := st.Entries[0]
	if e.Path != "hooks.PreToolUse[0].hooks[0]" || e.Matcher != "Bash" || e.Command != "hookhost codex" || e.Timeout.Seconds() != 30 || e.File != p {
		t.Errorf("entry %+v", e)
	}
}

// TestCheckSwitches: entries the agent would not run are skipped, not
// run, and the report says why.
func TestCheckSwitches(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ran := filepath.Join(dir, "ran")
	userGuard := `{"hooks":{"PreToolUse":[{"hooks":[{"command":"touch ` + ran + `; ` + strings.ReplaceAll(denyAll, `"`, `\"`) + `","onFailure":"block"}]}]}}`
	user := write("settings.json", userGuard)
	managed := filepath.Join(dir, "managed")
	write("managed/managed-settings.json", `{"allowManagedHooksOnly":true}`)
	write("managed/managed-settings.d/.hidden.json", `{"allowManagedHooksOnly":false}`)

	rep, err := Check(context.Background(), Agents["claude"], Options{Files: []string{user}, ManagedDir: managed, Project: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Enforcing || len(rep.Entries) != 1 || !strings.Contains(rep.Entries[0].Skipped, "Claude Code does not run it: only managed hooks run") {
		t.Errorf("%+v; want the user's entry skipped", rep)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("a skipped entry ran")
	}

	// The administrator's own guard runs and enforces.
	write("managed/managed-settings.d/10-guard.json", `{"hooks":{"PreToolUse":[{"hooks":[{"command":"`+strings.ReplaceAll(denyAll, `"`, `\"`)+`","onFailure":"block"}]}]}}`)
	rep, err = Check(context.Background(), Agents["claude"], Options{Files: []string{user}, ManagedDir: managed, Project: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Enforcing || len(rep.Entries) != 2 || !rep.Entries[1].Managed || !rep.Entries[1].Enforcing || len(rep.Files) != 3 {
		t.Errorf("%+v; want the managed entry enforcing", rep)
	}

	// Codex with its hooks feature off: nothing runs.
	cfg := write("codex/config.toml", "[features]\nhooks = false\n[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ncommand = \"touch "+ran+"\"\n")
	rep, err = Check(context.Background(), Agents["codex"], Options{Files: []string{cfg}, Project: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Enforcing || !strings.HasPrefix(rep.Problem, "hooks are disabled in config.toml") || !strings.Contains(rep.Entries[0].Skipped, "Codex CLI runs no hooks") {
		t.Errorf("%+v; want hooks disabled", rep)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("an entry ran with hooks disabled")
	}
}

// FuzzDecode: a settings file is untrusted input; whatever it holds,
// decoding it and reading its entries and switches returns or errs,
// never panics.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ncommand = \"x\"\ntimeout = 30\n",
		"[features]\nhooks = false\n",
		"features = { codex_hooks = 1979-05-27T07:32:00Z }\n",
		"hooks.PreToolUse = [{ hooks = [{ timeout = -1 }] }]\n",
		"a = inf\nb = nan\n",
		`{"hooks":{"PreToolUse":[{"hooks":[{"command":"x"}]}]}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, name := range []string{"config.toml", "settings.json"} {
			doc, err := decode(name, []byte(text))
			if err != nil {
				continue
			}
			for _, a := range []Agent{Agents["codex"], Agents["claude"]} {
				_, _ = a.Entries(doc, a.GuardEvent)
				_, _ = a.Switches(doc, name, true)
			}
			_ = codexTrust([]map[string]any{doc}, "/p")
		}
	})
}

// TestSources: managed settings are read after the user's and project's
// (they win), from the agent's own directory only when no --settings is
// given, from --managed-dir always.
func TestSources(t *testing.T) {
	claude := Agents["claude"]
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "managed-settings.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	files := func(srcs []Source) (out []string) {
		for _, s := range srcs {
			f := s.File
			if s.Managed {
				f = "managed:" + f
			}
			out = append(out, f)
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		opts     Options
		want     []string
		optional bool
	}{
		{"defaults", Options{Home: "/h", Project: "/p"}, append(claude.Settings("/h", "/p"),
			"managed:"+filepath.Join(claude.ManagedDirs[runtime.GOOS], "managed-settings.json"),
			"managed:"+filepath.Join(claude.ManagedDirs[runtime.GOOS], "managed-settings.d", "*.json")), true},
		{"--settings alone", Options{Files: []string{"a.json"}}, []string{"a.json"}, false},
		{"--settings and --managed-dir: what exists", Options{Files: []string{"a.json"}, ManagedDir: dir},
			[]string{"a.json", "managed:" + filepath.Join(dir, "managed-settings.json")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := claude.ManagedDirs[runtime.GOOS]; !ok && tc.optional {
				tc.want = claude.Settings("/h", "/p")
			}
			srcs, optional := sources(claude, tc.opts)
			if got := files(srcs); !slices.Equal(got, tc.want) || optional != tc.optional {
				t.Errorf("sources = %q, %v; want %q, %v", got, optional, tc.want, tc.optional)
			}
		})
	}
	if srcs, _ := sources(Agents["gemini"], Options{Home: "/h", Project: "/p", ManagedDir: dir}); len(srcs) != 2 {
		t.Errorf("gemini, which has no managed settings: %v", srcs)
	}
}

// TestCodexTrust: Codex loads a project's .codex/ only when the user's
// config.toml trusts the project or its git root.
func TestCodexTrust(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	doc := func(text string) map[string]any {
		d, err := decode("config.toml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, tc := range []struct {
		name    string
		docs    []map[string]any
		project string
		want    string // "" trusted
	}{
		{"trusted", []map[string]any{doc("[projects.\"" + sub + "\"]\ntrust_level = \"trusted\"\n")}, sub, ""},
		{"the git root trusted", []map[string]any{doc("[projects.\"" + root + "/\"]\ntrust_level = \"trusted\"\n")}, sub, ""},
		{"no entry", []map[string]any{doc("model = \"m\"\n")}, sub, `no config.toml of yours has [projects."` + root + `"]`},
		{"no user settings", nil, sub, "only once you trust the project"},
		{"untrusted", []map[string]any{doc("[projects.\"" + sub + "\"]\ntrust_level = \"untrusted\"\n")}, sub, `its trust_level is "untrusted"`},
		{"another project trusted", []map[string]any{doc("[projects.\"/elsewhere\"]\ntrust_level = \"trusted\"\n")}, sub, "only once you trust"},
		{"a malformed entry is no trust", []map[string]any{doc("projects = 3\n")}, sub, "only once you trust"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := codexTrust(tc.docs, tc.project)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("codexTrust = %q, want %q", got, tc.want)
			}
		})
	}
}
