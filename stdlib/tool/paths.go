package tool

import (
	"fmt"
	"path"
	"strings"

	"github.com/hookhost/hookhost/stdlib"
)

// pathKeys are the keys agents put the file of a call under: file_path
// (Claude Code, Gemini CLI's write_file and replace, Cursor), path
// (PicoClaw, OpenClaw, Copilot CLI, bub, gptme's kwargs, Claude Code's
// Grep and Glob), absolute_path (Gemini CLI's read_file), filename,
// notebook_path (Claude Code's NotebookEdit), and the names other tools
// and MCP servers use.
var pathKeys = []string{"file_path", "path", "absolute_path", "filename", "notebook_path",
	"target_file", "filePath", "file", "dir_path", "source", "destination", "old_path", "new_path",
	"source_path", "destination_path"}

// listKeys hold lists of paths: Gemini CLI's read_many_files, the MCP
// filesystem server's read_multiple_files.
var listKeys = []string{"paths", "file_paths"}

// patchKeys hold a patch body: Codex's apply_patch sends it as command,
// OpenClaw's and Copilot CLI's as input or patch.
var patchKeys = []string{"input", "patch", "command"}

// shellTextKeys hold a shell call's text: the command keys, and gptme's
// content.
var shellTextKeys = []string{"command", "cmd", "script", "content"}

// MaxPaths bounds how many paths one call gives; a call naming more is
// cut there (a guard that must see them all can count them: the list
// is then MaxPaths long).
const MaxPaths = 4096

func (t table) pathsFunc(c *stdlib.Call) (any, error) {
	name, err := c.OptString(0, "")
	if err != nil {
		return nil, err
	}
	cwd, err := c.OptString(2, "")
	if err != nil {
		return nil, err
	}
	if cwd != "" && !path.IsAbs(cwd) {
		return nil, fmt.Errorf("argument 3 (cwd): want an absolute path, got %q", cwd)
	}
	extra, err := extraKinds(c, 3)
	if err != nil {
		return nil, err
	}
	found := t.paths(name, c.Any(1), extra)
	out := make([]any, 0, len(found))
	seen := map[string]bool{}
	for _, p := range found {
		if cwd != "" && !strings.HasPrefix(p, "~") {
			p = absolute(cwd, p)
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil
}

// absolute returns p made absolute against dir, and cleaned.
func absolute(dir, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(dir, p)
}

// paths returns the files a call names, as written, in the order found.
func (t table) paths(name string, params any, extra map[string]string) []string {
	p := decodeParams(params)
	if p == nil {
		return nil
	}
	kind := t.kind(name, extra)
	var out []string
	add := func(s string) {
		if s != "" && len(out) < MaxPaths {
			out = append(out, s)
		}
	}
	switch kind {
	case Shell:
		// A shell line's files are the shell module's to find; here only
		// the patch an apply_patch in it carries (Codex's shell tool runs
		// ["apply_patch", BODY], and models write apply_patch <<'EOF').
		for _, m := range []map[string]any{p, kwargsOf(p)} {
			for _, k := range shellTextKeys {
				switch c := m[k].(type) {
				case string:
					for _, f := range PatchPaths(c) {
						add(f)
					}
				case []any:
					for _, w := range c {
						if s, ok := w.(string); ok {
							for _, f := range PatchPaths(s) {
								add(f)
							}
						}
					}
				}
			}
		}
		return out
	case Fetch, Search:
		return nil // a URL or a query, not a file
	}
	keyPaths(p, add)
	keyPaths(kwargsOf(p), add)               // gptme's tool-format calls
	if edits, ok := p["edits"].([]any); ok { // MultiEdit, and edit lists naming files
		for _, e := range edits {
			if m, ok := e.(map[string]any); ok {
				keyPaths(m, add)
			}
		}
	}
	for _, k := range patchKeys {
		if body, ok := p[k].(string); ok {
			for _, f := range PatchPaths(body) {
				add(f)
			}
		}
	}
	if args, ok := p["args"].([]any); ok && len(args) > 0 && len(out) == 0 && kind != Other && kind != MCP {
		// gptme's save, append, patch and read take the file as their
		// first argument.
		if s, ok := args[0].(string); ok {
			add(s)
		}
	}
	return out
}

// keyPaths adds the strings under the path keys and path-list keys of m.
func keyPaths(m map[string]any, add func(string)) {
	for _, k := range pathKeys {
		if s, ok := m[k].(string); ok {
			add(s)
		}
	}
	for _, k := range listKeys {
		if l, ok := m[k].([]any); ok {
			for _, v := range l {
				if s, ok := v.(string); ok {
					add(s)
				}
			}
		}
	}
}

// patchMarkers are the header lines of an apply_patch body that name a
// file, as Codex's patch format writes them.
var patchMarkers = []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "}

// isPatchBody reports whether s is an apply_patch body rather than a
// shell line.
func isPatchBody(s string) bool {
	return strings.HasPrefix(strings.TrimSpace(s), "*** Begin Patch")
}

// PatchPaths returns the files an apply_patch body names, in order: the
// file of every "*** Add File:", "*** Update File:" and "*** Delete
// File:" line, and the new name of every "*** Move to:". It reads any
// text, leniently (leading blanks, CRLF line ends, text around the
// envelope such as a heredoc), so that a guard sees every file a patch
// could touch; text without such lines gives none.
func PatchPaths(body string) []string {
	if !strings.Contains(body, "*** ") {
		return nil
	}
	var out []string
	for line := range strings.SplitSeq(body, "\n") {
		line = strings.TrimSpace(line)
		for _, m := range patchMarkers {
			if f, ok := strings.CutPrefix(line, m); ok {
				if f = strings.TrimSpace(f); f != "" && len(out) < MaxPaths {
					out = append(out, f)
				}
				break
			}
		}
	}
	return out
}

// kwargsOf returns gptme's kwargs of p, or nil.
func kwargsOf(p map[string]any) map[string]any {
	kw, _ := p["kwargs"].(map[string]any)
	return kw
}
