package path

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib/stdlibtest"
)

var samplePaths = []string{
	"", ".", "..", "/", "//", "a", "a/", "a/b", "a/b/c", "/a", "/a/b", "/a/b/c", "/ab", "/a/bc",
	"../a", "../../a/b", "a/../b", "./a", "/a/./b/../c", "...", "/..", "a/..", "/a/b/../..",
}

// TestRelMatchesFilepath checks relative against path/filepath.Rel, which
// has the same semantics where '/' is the separator.
func TestRelMatchesFilepath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("filepath uses '\\' here")
	}
	for _, base := range samplePaths {
		for _, targ := range samplePaths {
			want, wantErr := filepath.Rel(base, targ)
			got, err := relative(base, targ)
			if (err != nil) != (wantErr != nil) || got != want {
				t.Errorf("relative(%q, %q) = %q, %v; filepath.Rel gives %q, %v", base, targ, got, err, want, wantErr)
			}
		}
	}
}

// TestWithinAgreesWithRel checks is_within against another way to say
// it: the way from root to p does not start by going up.
func TestWithinAgreesWithRel(t *testing.T) {
	m := New()
	for _, root := range []string{"/", "/a", "/a/b", "/ab", "/a/../b"} {
		for _, p := range samplePaths {
			if p == "" {
				continue
			}
			got, err := stdlibtest.Call(t, m, "is_within", root, p)
			if err != nil {
				t.Fatal(err)
			}
			r, err := relative(root, resolve(root, p))
			if err != nil {
				t.Fatal(err)
			}
			want := r != ".." && !strings.HasPrefix(r, "../")
			if got != want {
				t.Errorf("is_within(%q, %q) = %v, but the way there is %q", root, p, got, r)
			}
		}
	}
}
