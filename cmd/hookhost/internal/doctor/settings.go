package doctor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// An Entry is one hook in an agent's settings.
type Entry struct {
	// File is the settings file, and Path where in it the entry is
	// ("hooks.PreToolUse[0].hooks[1]").
	File string `json:"file"`
	Path string `json:"path"`
	// Matcher is the entry's tool matcher; empty or "*" matches every
	// tool.
	Matcher string `json:"matcher,omitempty"`
	// Type is "command" or "http" (or a type doctor cannot run).
	Type    string `json:"type"`
	Command string `json:"command,omitempty"`
	URL     string `json:"url,omitempty"`
	// Headers and AllowedEnvVars are an http entry's.
	Headers        map[string]string `json:"-"`
	AllowedEnvVars []string          `json:"-"`
	// Timeout is the entry's, in the agent's unit already; 0 when it
	// gives none.
	Timeout time.Duration `json:"-"`
	// OnFailure is the entry's onFailure ("block"), where the agent has
	// one.
	OnFailure string `json:"on_failure,omitempty"`
	// Exec and Args are an entry run without a shell (Copilot CLI's exec
	// form); Cwd and Env what the entry adds to how it runs.
	Exec string            `json:"exec,omitempty"`
	Args []string          `json:"args,omitempty"`
	Cwd  string            `json:"cwd,omitempty"`
	Env  map[string]string `json:"-"`
	// FailClosed is Cursor's failClosed.
	FailClosed bool `json:"fail_closed,omitempty"`
	// Managed is an entry of the agent's managed settings, which an
	// administrator deploys and which win over the user's and project's.
	Managed bool `json:"managed,omitempty"`
	// NotRun says why the agent does not load the entry's file (a
	// project it does not trust); empty when it does.
	NotRun string `json:"-"`
}

// A Switch is a setting of one file that turns hooks off or on: for every
// entry (Codex's [features] hooks), or for the entries that are not
// managed (Claude Code's allowManagedHooksOnly).
type Switch struct {
	// Key names the setting; of the files that set a key, the last one
	// read wins (files are read in the agent's order of precedence).
	Key string
	// Unmanaged limits the switch to entries outside managed settings.
	Unmanaged bool
	Off       bool
	// Why says, when Off, in plain words what turns hooks off and where.
	Why string
}

// Settings is what Load read.
type Settings struct {
	Entries []Entry
	// Files are the files read.
	Files []string
	// Off and UnmanagedOff say why hooks do not run at all, or the
	// entries outside managed settings do not; empty when they do.
	Off, UnmanagedOff string
}

// A Source is one file or pattern to read, whether it is managed, and,
// for a file of a project's own settings, the project's directory.
type Source struct {
	File    string
	Managed bool
	Project string
}

// A SettingsError is a settings file that cannot be read or parsed.
type SettingsError struct {
	File string
	Err  error
}

// Error reads "file: why".
func (e *SettingsError) Error() string { return e.File + ": " + e.Err.Error() }

// Unwrap gives the read or parse error.
func (e *SettingsError) Unwrap() error { return e.Err }

// Load reads the entries on the agent's guard event from sources, in the
// agent's order of precedence (lowest first). A file that does not exist
// is skipped when optional (the agent's default locations) and an error
// otherwise; one that cannot be read or parsed is a *SettingsError. A
// file is JSON, or TOML when its name ends in .toml (Codex's config.toml).
func Load(a Agent, sources []Source, optional bool) (Settings, error) {
	if optional {
		sources = expand(sources)
	}
	var st Settings
	last := map[string]Switch{}
	var keys []string
	// The user's documents, read before any project's: where an agent
	// keeps whether it trusts a project.
	var userDocs []map[string]any
	untrusted := map[string]string{} // project → why the agent does not load it
	for _, src := range sources {
		f := src.File
		data, err := os.ReadFile(f)
		if optional && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return Settings{}, &SettingsError{File: f, Err: err}
		}
		doc, err := decode(f, data)
		if err != nil {
			return Settings{}, &SettingsError{File: f, Err: err}
		}
		es, err := a.Entries(doc, a.GuardEvent)
		if err != nil {
			return Settings{}, &SettingsError{File: f, Err: err}
		}
		notRun := ""
		switch {
		case src.Project != "" && a.Trust != nil:
			why, ok := untrusted[src.Project]
			if !ok {
				why = a.Trust(userDocs, src.Project)
				untrusted[src.Project] = why
			}
			notRun = why
		case !src.Managed:
			userDocs = append(userDocs, doc)
		}
		for i := range es {
			es[i].File, es[i].Managed, es[i].NotRun = f, src.Managed, notRun
			es[i].Timeout *= a.Unit
		}
		// A file the agent does not load turns nothing off either.
		if a.Switches != nil && notRun == "" {
			sw, err := a.Switches(doc, f, src.Managed)
			if err != nil {
				return Settings{}, &SettingsError{File: f, Err: err}
			}
			for _, s := range sw {
				if _, ok := last[s.Key]; !ok {
					keys = append(keys, s.Key)
				}
				last[s.Key] = s
			}
		}
		st.Entries = append(st.Entries, es...)
		st.Files = append(st.Files, f)
	}
	for _, k := range keys {
		switch s := last[k]; {
		case !s.Off:
		case s.Unmanaged && st.UnmanagedOff == "":
			st.UnmanagedOff = s.Why
		case !s.Unmanaged && st.Off == "":
			st.Off = s.Why
		}
	}
	return st, nil
}

// decode reads a settings document: TOML for a .toml file, else JSON.
// Either way the values are JSON's (numbers float64, tables objects), so
// one reader of entries serves both.
func decode(file string, data []byte) (map[string]any, error) {
	if strings.EqualFold(filepath.Ext(file), ".toml") {
		var doc map[string]any
		if err := toml.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("not TOML: %w", err)
		}
		// TOML's integers and dates become JSON's numbers and strings.
		b, err := json.Marshal(doc)
		if err != nil {
			return nil, fmt.Errorf("a value JSON cannot hold: %w", err)
		}
		data = b
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	return doc, nil
}

// expand replaces the patterns among sources (Copilot CLI's
// .github/hooks/*.json, Claude Code's managed-settings.d/*.json) with the
// files they match, in name order. Hidden files are left out of a managed
// drop-in directory, as Claude Code leaves them out.
func expand(sources []Source) []Source {
	var out []Source
	for _, s := range sources {
		if !strings.ContainsAny(s.File, "*?[") {
			out = append(out, s)
			continue
		}
		matches, _ := filepath.Glob(s.File) // the only error is a bad pattern, and these are ours
		for _, m := range matches {
			if !s.Managed || !strings.HasPrefix(filepath.Base(m), ".") {
				out = append(out, Source{File: m, Managed: s.Managed})
			}
		}
	}
	return out
}

// nestedEntries reads the shape Claude Code, Gemini CLI and Codex CLI
// share: {"hooks": {EVENT: [{"matcher": M, "hooks": [{"type": …}]}]}}.
// Timeouts are left as numbers of the agent's unit.
func nestedEntries(doc map[string]any, event string) ([]Entry, error) {
	hooks, err := field[map[string]any](doc, "hooks", "hooks")
	if err != nil || hooks == nil {
		return nil, err
	}
	path := "hooks." + event
	groups, err := field[[]any](hooks, event, path)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for i, g := range groups {
		gpath := fmt.Sprintf("%s[%d]", path, i)
		group, ok := g.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: want an object", gpath)
		}
		matcher, err := field[string](group, "matcher", gpath+".matcher")
		if err != nil {
			return nil, err
		}
		list, err := field[[]any](group, "hooks", gpath+".hooks")
		if err != nil {
			return nil, err
		}
		for j, h := range list {
			e, err := entry(h, fmt.Sprintf("%s.hooks[%d]", gpath, j))
			if err != nil {
				return nil, err
			}
			e.Matcher = matcher
			out = append(out, e)
		}
	}
	return out, nil
}

// entry reads one hook object.
func entry(v any, path string) (Entry, error) {
	h, ok := v.(map[string]any)
	if !ok {
		return Entry{}, fmt.Errorf("%s: want an object", path)
	}
	e := Entry{Path: path}
	var err error
	for _, f := range []struct {
		key string
		to  *string
	}{{"type", &e.Type}, {"command", &e.Command}, {"url", &e.URL}, {"onFailure", &e.OnFailure}} {
		if *f.to, err = field[string](h, f.key, path+"."+f.key); err != nil {
			return Entry{}, err
		}
	}
	if e.Type == "" {
		e.Type = "command"
	}
	timeout, err := field[float64](h, "timeout", path+".timeout")
	if err != nil {
		return Entry{}, err
	}
	if timeout < 0 {
		return Entry{}, fmt.Errorf("%s.timeout: want a positive number, got %v", path, timeout)
	}
	e.Timeout = time.Duration(timeout)
	if e.Headers, err = stringMap(h, "headers", path+".headers"); err != nil {
		return Entry{}, err
	}
	vars, err := field[[]any](h, "allowedEnvVars", path+".allowedEnvVars")
	for _, v := range vars {
		s, ok := v.(string)
		if !ok {
			return Entry{}, fmt.Errorf("%s.allowedEnvVars: want strings", path)
		}
		e.AllowedEnvVars = append(e.AllowedEnvVars, s)
	}
	return e, err
}

// field is m[key] as a T, or T's zero value when absent; another type is
// an error naming path.
func field[T any](m map[string]any, key, path string) (T, error) {
	var zero T
	v, ok := m[key]
	if !ok || v == nil {
		return zero, nil
	}
	t, ok := v.(T)
	if !ok {
		return zero, fmt.Errorf("%s: want %s, got %s", path, kind(zero), kind(v))
	}
	return t, nil
}

// stringMap reads an object of strings.
func stringMap(m map[string]any, key, path string) (map[string]string, error) {
	obj, err := field[map[string]any](m, key, path)
	if err != nil || obj == nil {
		return nil, err
	}
	out := make(map[string]string, len(obj))
	for k, v := range obj {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%s.%s: want a string", path, k)
		}
		out[k] = s
	}
	return out, nil
}

// kind names a JSON value's type.
func kind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "null"
}

// Matches reports whether the entry's matcher selects tool, as the
// agents read a matcher: empty or "*" for every tool, otherwise a
// regular expression the whole tool name must match.
func (e Entry) Matches(tool string) (bool, error) {
	if e.Matcher == "" || e.Matcher == "*" {
		return true, nil
	}
	re, err := regexp.Compile(`^(?:` + e.Matcher + `)$`)
	if err != nil {
		return false, fmt.Errorf("matcher %q: %w", e.Matcher, err)
	}
	return re.MatchString(tool), nil
}
