package host

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportDirection guards the one-way flow of imports (STYLE 1):
// stdlib ← scripting ← scripting/lua, scripting/starlark ← scripting/engines
// ← host ← cmd.
// A stdlib module imports only stdlib, and a package inside a module
// (a state backend: stdlib/state/redisstate) also the modules it sits
// in; no engine imports the host; the host never imports the CLI.
func TestImportDirection(t *testing.T) {
	const mod = "github.com/hookhost/hookhost/"
	allowed := func(pkg, imp string) bool {
		switch {
		case strings.HasPrefix(pkg, "cmd/"):
			return true
		case pkg == "stdlib/std":
			return strings.HasPrefix(imp, "stdlib")
		case strings.HasPrefix(pkg, "stdlib/") && strings.Count(pkg, "/") >= 2:
			return imp == "stdlib" || strings.HasPrefix(pkg, imp+"/")
		case strings.HasPrefix(pkg, "stdlib"):
			return imp == "stdlib"
		case pkg == "scripting":
			return imp == "stdlib"
		case pkg == "scripting/scripttest", pkg == "scripting/engines": // the list of engines, and the harness over them
			return strings.HasPrefix(imp, "scripting") || imp == "stdlib"
		case strings.HasPrefix(pkg, "scripting/"):
			return imp == "scripting" || imp == "stdlib"
		case strings.HasPrefix(pkg, "host"):
			return !strings.HasPrefix(imp, "cmd")
		}
		return !strings.HasPrefix(imp, "cmd")
	}
	root := ".."
	files := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, root+string(filepath.Separator))))
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if strings.HasPrefix(p, mod) && !allowed(pkg, strings.TrimPrefix(p, mod)) {
				t.Errorf("%s imports %s", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 30 {
		t.Fatalf("checked only %d files", files)
	}
}
