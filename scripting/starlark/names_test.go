package starlark

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/hookhost/hookhost/scripting"
)

// TestEveryUpstreamNameIsClassified fails on any name go.starlark.net
// gives scripts that the table does not say how it is bounded: a new
// builtin or method after an upgrade must be classified (and metered if
// it allocates) before the suite passes again.
func TestEveryUpstreamNameIsClassified(t *testing.T) {
	for name := range starlark.Universe {
		if _, ok := universeNames[name]; !ok {
			t.Errorf("starlark.Universe has %q, which names.go does not classify", name)
		}
	}
	for name := range universeNames {
		if !starlark.Universe.Has(name) {
			t.Errorf("names.go classifies %q, which is not in starlark.Universe", name)
		}
	}
	seen := map[string]bool{}
	for _, v := range []starlark.Value{
		starlark.String(""), starlark.Bytes(""), starlark.NewList(nil), starlark.NewDict(0), starlark.NewSet(0),
		starlark.Tuple{}, starlark.MakeInt(0), starlark.Float(0), starlark.True, starlark.None,
		starlark.Universe["len"], mustEval(t, "range(1)"),
	} {
		ha, ok := v.(starlark.HasAttrs)
		if !ok {
			continue
		}
		for _, attr := range ha.AttrNames() {
			key := v.Type() + "." + attr
			seen[key] = true
			if _, ok := methodNames[key]; !ok {
				t.Errorf("go.starlark.net's %s has the method %q, which names.go does not classify", v.Type(), attr)
			}
		}
	}
	for key := range methodNames {
		if !seen[key] {
			t.Errorf("names.go classifies %q, which go.starlark.net does not have", key)
		}
	}
	for key, n := range merged() {
		if n.how == bounded && n.why == "" {
			t.Errorf("%s is classified bounded without saying why", key)
		}
		if n.how != bounded && n.why != "" {
			t.Errorf("%s: only bounded names carry a why", key)
		}
	}
}

// TestTableMatchesTheImplementation checks the table against what
// actually bounds each name: predeclared() for the replaced builtins,
// methodCosts for the metered methods.
func TestTableMatchesTheImplementation(t *testing.T) {
	env := predeclared(hookModule(&scripting.Env{}))
	for name, n := range universeNames {
		b, isBuiltin := env[name].(*starlark.Builtin)
		ours := isBuiltin && b != starlark.Universe[name]
		if (n.how == replaced) != ours {
			t.Errorf("%s: classified %v, but predeclared() replacing it is %v", name, n.how, ours)
		}
	}
	meteredNames := map[string]bool{}
	for key, n := range methodNames {
		_, method, _ := strings.Cut(key, ".")
		if n.how == metered {
			meteredNames[method] = true
			if methodCosts[method] == nil {
				t.Errorf("%s is classified metered, but methodCosts has no %q", key, method)
			}
		}
	}
	for method := range methodCosts {
		if !meteredNames[method] {
			t.Errorf("methodCosts meters %q, which no type's method is classified metered for", method)
		}
	}
}

// TestDocsListTheReplacedBuiltins keeps the lists of replaced builtins
// in the docs equal to the table's.
func TestDocsListTheReplacedBuiltins(t *testing.T) {
	want := replacedBuiltins()
	sort.Strings(want)
	for _, doc := range []struct{ file, from, to string }{
		{"../../docs/scripting.md", "Hook files therefore get hookhost's versions", "They return"},
		{"../../docs/benchmarks.md", "Hook files get metered versions of", "and every"},
	} {
		text, err := os.ReadFile(doc.file)
		if err != nil {
			t.Fatal(err)
		}
		_, rest, ok := strings.Cut(string(text), doc.from)
		para, _, ok2 := strings.Cut(rest, doc.to)
		if !ok || !ok2 {
			t.Fatalf("%s: the list of replaced builtins (%q … %q) is gone", doc.file, doc.from, doc.to)
		}
		var got []string
		for _, m := range regexp.MustCompile("`([a-z]+)`").FindAllStringSubmatch(para, -1) {
			got = append(got, m[1])
		}
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s lists the replaced builtins %v; names.go has %v", doc.file, got, want)
		}
	}
}

func merged() map[string]upstreamName {
	all := map[string]upstreamName{}
	for k, v := range universeNames {
		all[k] = v
	}
	for k, v := range methodNames {
		all[k] = v
	}
	return all
}

func mustEval(t *testing.T, expr string) starlark.Value {
	t.Helper()
	v, err := starlark.Eval(&starlark.Thread{}, "expr", expr, starlark.Universe)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestDocsNamesTable keeps the table of names in docs/scripting.md the
// table of names.go, written out. HOOKHOST_UPDATE_DOCS=1 rewrites it.
func TestDocsNamesTable(t *testing.T) {
	const file = "../../docs/scripting.md"
	const begin, end = "<!-- names table: written by TestDocsNamesTable -->\n", "<!-- end of names table -->"
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	head, rest, ok := strings.Cut(string(text), begin)
	old, tail, ok2 := strings.Cut(rest, end)
	if !ok || !ok2 {
		t.Fatalf("%s: the markers of the names table are gone", file)
	}
	want := namesTableMarkdown()
	if old == want {
		return
	}
	if os.Getenv("HOOKHOST_UPDATE_DOCS") == "1" {
		if err := os.WriteFile(file, []byte(head+begin+want+end+tail), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the names table differs from names.go; run HOOKHOST_UPDATE_DOCS=1 go test -run TestDocsNamesTable ./scripting/starlark", file)
}

func namesTableMarkdown() string {
	var b strings.Builder
	b.WriteString("| name | how it is bounded |\n|---|---|\n")
	all := merged()
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		mi, mj := strings.Contains(keys[i], "."), strings.Contains(keys[j], ".")
		if mi != mj {
			return !mi // the builtins first, then the methods
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		n := all[k]
		how := map[bounding]string{replaced: "replaced by hookhost's metered builtin", metered: "metered: its call is rewritten and charged first"}[n.how]
		if n.how == bounded {
			how = "bounded: " + n.why
		}
		b.WriteString("| `" + k + "` | " + how + " |\n")
	}
	return b.String()
}
