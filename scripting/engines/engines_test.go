package engines

import (
	"slices"
	"testing"
)

func TestEngines(t *testing.T) {
	if got := Extensions(); !slices.Equal(got, []string{".lua", ".star"}) {
		t.Errorf("Extensions() = %v", got)
	}
	for _, tc := range []struct{ name, want string }{
		{"guard.lua", ".lua"}, {"pack/guard.star", ".star"}, {"guard.py", ""}, {"lua", ""},
	} {
		e := For(tc.name)
		got := ""
		if e != nil {
			got = e.Extension()
		}
		if got != tc.want {
			t.Errorf("For(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	by := ByExtension()
	for _, ext := range Extensions() {
		if by[ext] == nil || by[ext].Extension() != ext {
			t.Errorf("ByExtension()[%q] = %v", ext, by[ext])
		}
	}
}
