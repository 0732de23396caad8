package host

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/hookhost/hookhost/host/yamlnode"
	"github.com/hookhost/hookhost/scripting"
)

// Hook packs. A subdirectory of the hooks directory that holds a HOOK.md
// is one shareable unit: its scripts load with ids "<pack>/<file>:<name>"
// (the pack named by its directory), and the YAML front matter of its
// HOOK.md describes it and gives config defaults. A subdirectory without
// HOOK.md, and anything nested deeper, is left out with a note.

// PackManifest is the name of a pack's description file.
const PackManifest = "HOOK.md"

// packMeta is the front matter of a HOOK.md.
type packMeta struct {
	name, description, version string
	enabled                    bool
	config                     map[string]any
	// errorBehavior and timeoutBehavior apply to all the pack's hooks
	// where the operator's config says nothing (see resolveBehaviors).
	errorBehavior, timeoutBehavior Behavior
}

// packInfo is a pack as a scan found it: its HOOK.md content, unparsed.
type packInfo struct {
	dir  string
	data []byte
	err  error // reading HOOK.md
}

// packState is a pack as a reload left it: the last good front matter
// and the error of the latest content, if that failed. Never changed once
// built, like loadedFile.
type packState struct {
	dir      string
	meta     *packMeta // last good; nil when no version parsed
	liveHash string    // of the HOOK.md content meta came from
	lastHash string    // of the latest content seen
	err      error
}

// A PackStatus describes a hook pack.
type PackStatus struct {
	// Dir is the pack's directory, the prefix of its hook ids.
	Dir string `json:"dir"`
	// Name, Description and Version come from HOOK.md; Name defaults to
	// Dir.
	Name        string `json:"name"`
	Description string `json:"description"`
	Version     string `json:"version"`
	// Enabled is HOOK.md's enabled (the operator's config may override it
	// per pack, file or hook).
	Enabled bool `json:"enabled"`
	// Err is the latest HOOK.md's error; while one version was good, that
	// one still describes the pack.
	Err error `json:"-"`
	// LiveVersion is the sha256 prefix of the HOOK.md serving; empty when
	// none ever parsed (the pack's scripts are then not loaded).
	LiveVersion string `json:"live_version"`
}

// MarshalJSON writes the pack with its error as a string or null.
func (p PackStatus) MarshalJSON() ([]byte, error) {
	type plain PackStatus
	return marshal(struct {
		plain
		Error *string `json:"error"`
	}{plain(p), errorText(p.Err)})
}

// scanPack looks at a subdirectory: a pack's scripts are added to the
// scan, anything else is noted. A subdirectory that cannot be read is a
// *DirError: it may be a pack (chmod -x hooks.d/guards), and leaving it
// out would drop its guards in silence.
func (h *Host) scanPack(sc *scanResult, dir string) error {
	entries, err := fs.ReadDir(h.fsys, dir)
	if err != nil {
		return &DirError{Dir: h.dirName() + "/" + dir, Err: err}
	}
	if !slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == PackManifest }) {
		sc.notes = append(sc.notes, fmt.Sprintf("%s/: not a hook pack (no %s), ignored", dir, PackManifest))
		return nil
	}
	p := &packInfo{dir: dir}
	p.data, p.err = fs.ReadFile(h.fsys, path.Join(dir, PackManifest))
	sc.packs = append(sc.packs, p)
	for _, e := range entries {
		name := path.Join(dir, e.Name())
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		switch kind, err := h.entryKind(name, e); kind {
		case entryScript:
			sc.files[name] = scannedFile{name: name, pack: dir}
		case entryDir:
			sc.notes = append(sc.notes, fmt.Sprintf("%s/: nested too deep (packs are one level down), ignored", name))
		default:
			sc.noteOutside(name, err)
		}
	}
	return nil
}

// loadPacks parses each pack's HOOK.md when it changed since prev; a bad
// one keeps the pack's last good front matter. The scripts of a pack
// with no good HOOK.md are dropped from the scan. It returns the packs'
// states and a FileOutcome per HOOK.md.
// With a program cache, a front matter parsed once is kept there
// (packMetaCached).
func loadPacks(sc *scanResult, prev map[string]*packState, cache scripting.ProgramCache) (map[string]*packState, []FileOutcome) {
	out := make(map[string]*packState, len(sc.packs))
	var outcomes []FileOutcome
	for _, p := range sc.packs {
		st, o := loadPack(p, prev[p.dir], cache)
		out[p.dir] = st
		outcomes = append(outcomes, o)
		if st.meta == nil {
			for name, f := range sc.files {
				if f.pack == p.dir {
					delete(sc.files, name)
				}
			}
		}
	}
	for dir := range prev {
		if out[dir] == nil {
			outcomes = append(outcomes, FileOutcome{Path: path.Join(dir, PackManifest), Pack: dir, Outcome: FileRemoved})
		}
	}
	return out, outcomes
}

func loadPack(p *packInfo, prev *packState, cache scripting.ProgramCache) (*packState, FileOutcome) {
	file := path.Join(p.dir, PackManifest)
	o := FileOutcome{Path: file, Pack: p.dir}
	if prev == nil {
		prev = &packState{dir: p.dir}
	}
	if p.err != nil {
		unreadable := unreadableMark(p.err)
		if unreadable == prev.lastHash { // the same failure as last time
			o.Outcome, o.Err, o.Version = FileUnchanged, prev.err, prev.liveHash
			return prev, o
		}
		st := *prev
		st.lastHash, st.err = unreadable, &scripting.Error{File: file, Msg: fmt.Sprintf("cannot read: %v", p.err), Err: p.err}
		o.Outcome, o.Err, o.Version = FileFailed, st.err, st.liveHash
		return &st, o
	}
	hash := contentHash(p.data)
	if hash == prev.lastHash {
		o.Outcome, o.Err, o.Version = FileUnchanged, prev.err, prev.liveHash
		return prev, o
	}
	meta, err := packMetaCached(cache, file, p.dir, p.data)
	if err != nil {
		st := &packState{dir: p.dir, meta: prev.meta, liveHash: prev.liveHash, lastHash: hash, err: err}
		o.Outcome, o.Err, o.Version = FileFailed, err, prev.liveHash
		return st, o
	}
	o.Outcome, o.Version = FileReloaded, hash
	if prev.lastHash == "" && prev.meta == nil {
		o.Outcome = FileAdded
	}
	return &packState{dir: p.dir, meta: meta, liveHash: hash, lastHash: hash}, o
}

var packKeys = []string{"name", "description", "version", "enabled", "config", "error_behavior", "timeout_behavior"}

// parsePackMeta reads the YAML front matter of a HOOK.md: the lines
// between a first line "---" and the next "---". Errors name the line of
// HOOK.md.
func parsePackMeta(file, dir string, data []byte) (*packMeta, error) {
	front, err := frontMatter(file, data)
	if err != nil {
		return nil, err
	}
	return parseFrontMatter(file, dir, front)
}

// parseFrontMatter parses a HOOK.md's front matter, as frontMatter cut it.
func parseFrontMatter(file, dir string, front []byte) (*packMeta, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		line, msg := yamlnode.SyntaxError(err)
		return nil, &scripting.Error{File: file, Line: line, Msg: msg}
	}
	meta := &packMeta{name: dir, enabled: true}
	p := newConfigParser(file, &Config{})
	if len(doc.Content) > 0 {
		p.Mapping(doc.Content[0], "HOOK.md", packKeys, func(key string, _, v *yaml.Node) {
			switch key {
			case "name":
				meta.name = p.Str(v, key)
			case "description":
				meta.description = p.Str(v, key)
			case "version":
				meta.version = v.Value // 1.2 and 1 are versions too
				if v.Kind != yaml.ScalarNode {
					p.Errorf(v, "version: want a string")
				}
			case "enabled":
				if err := v.Decode(&meta.enabled); err != nil || v.Tag != "!!bool" {
					p.Errorf(v, "enabled: want true or false, got %q", v.Value)
				}
			case "config":
				meta.config = p.FreeMap(v, key)
			case "error_behavior":
				meta.errorBehavior = p.behavior(v, key)
			case "timeout_behavior":
				meta.timeoutBehavior = p.behavior(v, key)
			}
		})
	}
	if len(p.errs) > 0 {
		return nil, asScriptErrors(p.errs)
	}
	return meta, nil
}

// frontMatter returns the front matter with a blank line in place of the
// opening "---", so that YAML's line numbers are the file's. It reads
// line by line up to the closing fence: the Markdown after it, most of a
// HOOK.md, is never split.
func frontMatter(file string, data []byte) ([]byte, error) {
	isFence := func(l []byte) bool { return string(bytes.TrimRight(l, " \t\r\n")) == "---" }
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if !isFence(first) {
		return nil, &scripting.Error{File: file, Line: 1, Msg: "want YAML front matter: a first line ---, the fields, then a line ---"}
	}
	body := rest
	for len(rest) > 0 {
		line, after, _ := bytes.Cut(rest, []byte("\n"))
		if isFence(line) {
			fields := body[:len(body)-len(rest)]
			return append(append(make([]byte, 0, 1+len(fields)), '\n'), fields...), nil
		}
		rest = after
	}
	return nil, &scripting.Error{File: file, Line: 1, Msg: "the front matter opened here is never closed by a line ---"}
}

// asScriptErrors turns config-parser errors into positioned script
// errors, so that a pack's problems read and count like a file's.
func asScriptErrors(errs []error) error {
	out := make([]error, len(errs))
	for i, e := range errs {
		var ce *ConfigError
		if errors.As(e, &ce) {
			e = &scripting.Error{File: ce.File, Line: ce.Line, Msg: ce.Msg}
		}
		out[i] = e
	}
	return errors.Join(out...)
}

// packStatuses describes the packs, sorted by directory.
func packStatuses(packs map[string]*packState) []PackStatus {
	var out []PackStatus
	for _, dir := range slices.Sorted(maps.Keys(packs)) {
		p := packs[dir]
		st := PackStatus{Dir: dir, Name: dir, Err: p.err, LiveVersion: p.liveHash}
		if m := p.meta; m != nil {
			st.Name, st.Description, st.Version, st.Enabled = m.name, m.description, m.version, m.enabled
		}
		out = append(out, st)
	}
	return out
}

// packFailures describes the packs with no good HOOK.md (their scripts
// are not loaded), as neverGood does files.
func (s *snapshot) packFailures() []string {
	var out []string
	for _, p := range s.packs {
		if p.LiveVersion == "" && p.Err != nil {
			out = append(out, failedToLoad(path.Join(p.Dir, PackManifest), p.Err))
		}
	}
	return out
}
