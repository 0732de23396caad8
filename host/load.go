package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/hookhost/hookhost/scripting"
)

// A loadedFile is one script file: the version serving (live) and the
// error of its latest version, if that failed.
type loadedFile struct {
	path string
	live *version // nil until a version compiles
	err  error    // the latest version's error; nil when live is latest
	// lastHash is the hash of the latest content seen, good or bad, so an
	// unchanged bad file is not recompiled on every reload.
	lastHash string
}

// A version is one compiled content of a file.
type version struct {
	hash string // sha256 hex prefix of the source
	prog scripting.Program
}

func (f *loadedFile) close() {
	if f.live != nil {
		f.live.prog.Close()
	}
}

// versionLen is how many hex digits of the sha256 name a version.
const versionLen = 12

// loadLocked scans the directory and compiles what changed.
func (h *Host) loadLocked(ctx context.Context) error {
	names, err := h.scan()
	if err != nil {
		return err
	}
	seen := make(map[string]bool, len(names))
	for _, name := range names {
		seen[name] = true
		if err := ctx.Err(); err != nil {
			return err
		}
		h.loadFile(ctx, name)
	}
	for name, f := range h.files {
		if !seen[name] {
			f.close()
			delete(h.files, name)
		}
	}
	return nil
}

// scan lists the script files of the directory, sorted. Names starting
// with "." (editor files, a ConfigMap's ..data) and test files
// (*_test.lua, *_test.star) are skipped; symlinks are followed.
func (h *Host) scan() ([]string, error) {
	entries, err := fs.ReadDir(h.fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("reading the hooks directory: %w", err)
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		ext := path.Ext(name)
		if strings.HasPrefix(name, ".") || h.engines[ext] == nil || strings.HasSuffix(name, "_test"+ext) {
			continue
		}
		if !e.Type().IsRegular() {
			info, err := fs.Stat(h.fsys, name) // follows symlinks
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}

// loadFile compiles name if its content changed since it was last seen.
func (h *Host) loadFile(ctx context.Context, name string) {
	f := h.files[name]
	if f == nil {
		f = &loadedFile{path: name}
		h.files[name] = f
	}
	code, err := fs.ReadFile(h.fsys, name)
	if err != nil {
		f.err = &scripting.Error{File: name, Msg: fmt.Sprintf("cannot read: %v", err), Err: err}
		return
	}
	sum := sha256.Sum256(code)
	hash := hex.EncodeToString(sum[:])[:versionLen]
	if hash == f.lastHash {
		return
	}
	f.lastHash = hash
	prog, err := h.engines[path.Ext(name)].Compile(ctx, scripting.Source{Name: name, Code: code}, h.env)
	if err != nil {
		f.err = err
		return
	}
	if f.live != nil {
		f.live.prog.Close()
	}
	f.live, f.err = &version{hash: hash, prog: prog}, nil
}
