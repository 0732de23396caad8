package scaffold

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/testrun"
)

// scriptTestExample matches the side-by-side script test of
// docs/testing.md, the Lua block then the Starlark one.
var scriptTestExample = regexp.MustCompile("(?s)## Script tests.*?```lua\n(.*?)```.*?```python\n(.*?)```")

// TestTestingDocExample runs the script test example of docs/testing.md,
// in both languages, against the scaffold's guardrail it describes.
func TestTestingDocExample(t *testing.T) {
	doc, err := os.ReadFile("../../../../docs/testing.md")
	if err != nil {
		t.Fatal(err)
	}
	m := scriptTestExample.FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/testing.md: no Lua and Starlark script test example under ## Script tests")
	}
	dir := t.TempDir()
	files := map[string][]byte{"guard_test.lua": m[1], "guard_test.star": m[2], "guard.lua": []byte(readTemplate(t, "files/guard.lua"))}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := testrun.Run(context.Background(), testrun.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rep.Results {
		got = append(got, r.File+":"+r.Name)
		if r.Outcome != testrun.Pass {
			t.Errorf("%s", r.Failure)
		}
	}
	want := "guard_test.lua:test_denies_rm_of_root guard_test.lua:test_data_is_not_a_command " +
		"guard_test.star:test_denies_rm_of_root guard_test.star:test_data_is_not_a_command"
	if strings.Join(got, " ") != want || len(rep.LoadErrors) > 0 {
		t.Errorf("ran %v (load errors %v), want %s", got, rep.LoadErrors, want)
	}
}
