package scaffold

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed files lua
var templates embed.FS

// LuaDir is where the LuaLS annotations go, relative to the hooks
// directory: a name starting with "." so that the host never loads them
// as hooks. .luarc.json points lua-language-server at it.
const LuaDir = ".luals"

// A File is one file Write creates.
type File struct {
	// Path is where it goes, relative to the hooks directory, with
	// forward slashes.
	Path string
	// Data is its content.
	Data []byte
}

// Files lists what Write creates, in the order it creates them: the
// hooks and their tests, hookhost.yaml, .luarc.json, then the LuaLS
// annotations under LuaDir.
func Files() []File {
	var out []File
	for _, dir := range []string{"files", "lua"} {
		entries, err := templates.ReadDir(dir)
		if err != nil {
			panic(fmt.Sprintf("scaffold: the embedded %s/ is missing: %v", dir, err)) // a build without the templates
		}
		for _, e := range entries {
			data, err := templates.ReadFile(dir + "/" + e.Name())
			if err != nil {
				panic(fmt.Sprintf("scaffold: reading the embedded %s: %v", e.Name(), err))
			}
			out = append(out, File{Path: target(dir, e.Name()), Data: data})
		}
	}
	return out
}

// target is where an embedded template goes.
func target(dir, name string) string {
	switch {
	case dir == "lua":
		return LuaDir + "/" + name
	case name == "luarc.json":
		return ".luarc.json" // embedded without its dot: go:embed skips dot files
	}
	return name
}

// An ExistsError is Write's refusal: the file is already there.
type ExistsError struct {
	// Path is the file, as Write would have written it (dir joined).
	Path string
}

// Error names the file and says that init leaves it as it is.
func (e *ExistsError) Error() string {
	return fmt.Sprintf("%s already exists; init never overwrites a file (move it away or choose another directory)", e.Path)
}

// Write creates the scaffold in dir, making dir if needed, and returns
// the paths it wrote (dir joined). It writes nothing when any of the
// files exists, or dir itself is a file: it returns an *ExistsError
// naming the first.
func Write(dir string) ([]string, error) {
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return nil, &ExistsError{Path: dir} // a file where the directory should be
	}
	files := Files()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if _, err := os.Lstat(p); err == nil {
			return nil, &ExistsError{Path: p}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("checking %s: %w", p, err)
		}
	}
	var written []string
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := create(p, f.Data); err != nil {
			return written, err
		}
		written = append(written, p)
	}
	return written, nil
}

// create writes a new file, refusing one that exists.
func create(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(p), err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return &ExistsError{Path: p}
	}
	if err != nil {
		return fmt.Errorf("creating %s: %w", p, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", p, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", p, err)
	}
	return nil
}
