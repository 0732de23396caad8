package lua

import (
	"fmt"
	"reflect"
	"sort"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// An interpreter whose libraries were built from the list read once
// (libs.go) has what gopher-lua's Open functions give it: the same
// tables under the same names with the same keys, each function a new
// value of the same Go function in this interpreter's globals, closures
// with the same upvalues, the same numbers and strings.
func TestLibrariesLikeOpenFunctions(t *testing.T) {
	if _, ok := libraryTables(); !ok || stringTableFields == nil {
		t.Fatal("the libraries cannot be read once: every interpreter opens them itself; update libs.go for this gopher-lua")
	}
	fast := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer fast.Close()
	openLibraries(fast)
	open := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer open.Close()
	openGopherLibraries(open)
	got, want := describeLibraries(fast), describeLibraries(open)
	if len(want) < 80 {
		t.Fatalf("gopher-lua's libraries have %d entries, want over 80", len(want))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the libraries differ:\n got %v\nwant %v", got, want)
	}
	other := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer other.Close()
	openLibraries(other)
	if a, b := fast.G.Global.RawGetString("string"), other.G.Global.RawGetString("string"); a == b {
		t.Error("two interpreters share their string table")
	}
	if a, b := fast.G.Global.RawGetString("print"), other.G.Global.RawGetString("print"); a == b {
		t.Error("two interpreters share their print function")
	}
}

// describeLibraries lists every entry of L's globals and of the tables
// in them, sorted, as text.
func describeLibraries(L *lua.LState) []string {
	var out []string
	describe := func(prefix string, t *lua.LTable) {
		t.ForEach(func(k, v lua.LValue) {
			out = append(out, prefix+k.String()+" = "+describeValue(L, t, v))
			if sub, ok := v.(*lua.LTable); ok && sub != t && sub != L.G.Global {
				sub.ForEach(func(k2, v2 lua.LValue) {
					out = append(out, prefix+k.String()+"."+k2.String()+" = "+describeValue(L, sub, v2))
				})
			}
		})
	}
	describe("", L.G.Global)
	sort.Strings(out)
	return out
}

func describeValue(L *lua.LState, owner *lua.LTable, v lua.LValue) string {
	switch v := v.(type) {
	case *lua.LFunction:
		ups := ""
		for _, u := range v.Upvalues {
			f, _ := u.Value().(*lua.LFunction)
			ups += fmt.Sprintf(" up(%x %v)", reflect.ValueOf(f.GFunction).Pointer(), f.Env == L.G.Global)
		}
		return fmt.Sprintf("G=%v %x env=%v%s", v.IsG, reflect.ValueOf(v.GFunction).Pointer(), v.Env == L.G.Global, ups)
	case *lua.LTable:
		if v == owner {
			return "itself"
		}
		if v == L.G.Global {
			return "the globals"
		}
		return "a table"
	default:
		return v.Type().String() + " " + v.String()
	}
}
