package shell

import (
	"context"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
)

// TestRecordKeys: every value of a command's, a path's, a redirection's
// and a call's record sits under its own key (the records list their
// values in the keys' order by hand), checked on values that differ
// field from field.
func TestRecordKeys(t *testing.T) {
	p := PathInfo{Path: "p", Prefix: "pre", Glob: true, Dynamic: false}
	c := Command{
		Name: "n", Argv: []string{"argv"}, WrappedBy: []string{"wrapped_by"},
		Redirects: []Redirect{{Op: ">", Fd: 2, Target: "target"}}, Pipeline: 3, Position: 4, Dynamic: true,
		Paths: []PathInfo{p}, Roles: []string{"roles"}, Function: "in_function", Background: false,
		CodeFrom: []string{"code_from"}, Lang: "lang", Code: "code", Dir: "dir", AltDirs: []string{"alt_dirs"},
		Calls: []Call{{Kind: "kind", Func: "func", Args: []string{"args"}, Paths: []PathInfo{p}, Recursive: true, Dynamic: false}},
	}
	path := map[string]any{"path": "p", "prefix": "pre", "glob": true, "dynamic": false}
	want := map[string]any{
		"name": "n", "argv": []any{"argv"}, "wrapped_by": []any{"wrapped_by"},
		"redirects": []any{map[string]any{"op": ">", "fd": int64(2), "target": "target"}},
		"pipeline":  int64(3), "position": int64(4), "dynamic": true, "paths": []any{path}, "roles": []any{"roles"},
		"in_function": "in_function", "background": false, "code_from": []any{"code_from"}, "lang": "lang",
		"code": "code", "dir": "dir", "alt_dirs": []any{"alt_dirs"},
		"calls": []any{map[string]any{"kind": "kind", "func": "func", "args": []any{"args"}, "paths": []any{path},
			"recursive": true, "dynamic": false}},
	}
	if got := c.Value(); !stdlib.Equal(got, want) {
		t.Fatalf("Value() =\n%v\nwant\n%v", got, want)
	}
}

// TestRecordsAreValues: what parse gives engines (Records) stands for
// exactly what Values gives, and Values is neutral.
func TestRecordsAreValues(t *testing.T) {
	for _, line := range []string{
		"git status && go test ./... 2>&1 | tail -20",
		`python -c 'import shutil; shutil.rmtree("/tmp/x")' > out.txt; cd /tmp || exit`,
		"find . -name '*.o' -exec rm {} + ; echo $HOME/*",
	} {
		cmds, err := Parse(context.Background(), line)
		if err != nil {
			t.Fatal(err)
		}
		values := Values(cmds)
		if err := stdlib.Check(values); err != nil {
			t.Errorf("%q: Values is not neutral: %v", line, err)
		}
		if got := stdlib.Plain(Records(cmds)); !stdlib.Equal(got, values) {
			t.Errorf("%q: Records stand for\n%v\nnot\n%v", line, got, values)
		}
		if stdlib.Check(Records(cmds)) == nil {
			t.Errorf("%q: Check takes a Record as a neutral value", line)
		}
	}
}
