package path

import (
	"fmt"
	"path"
	"strings"
)

// relative returns a path that leads from base to target, both cleaned
// first: path/filepath.Rel with '/' as the only separator. There is none
// when one path is absolute and the other relative, or when base climbs
// out through ".." elements that target does not share (from "../a" the
// way to "b" depends on the name of the directory above).
func relative(basePath, targetPath string) (string, error) {
	base, targ := path.Clean(basePath), path.Clean(targetPath)
	if targ == base {
		return ".", nil
	}
	if base == "." {
		base = ""
	}
	if path.IsAbs(base) != path.IsAbs(targ) {
		return "", fmt.Errorf("cannot make %q relative to %q: one is absolute and the other is not", targetPath, basePath)
	}
	// Skip the elements the two share.
	bl, tl := len(base), len(targ)
	var b0, bi, t0, ti int
	for {
		for bi < bl && base[bi] != '/' {
			bi++
		}
		for ti < tl && targ[ti] != '/' {
			ti++
		}
		if targ[t0:ti] != base[b0:bi] {
			break
		}
		if bi < bl {
			bi++
		}
		if ti < tl {
			ti++
		}
		b0, t0 = bi, ti
	}
	if base[b0:bi] == ".." {
		return "", fmt.Errorf("cannot make %q relative to %q: the way up from %q is unknown", targetPath, basePath, basePath)
	}
	if b0 == bl {
		return targ[t0:], nil
	}
	// One ".." for each element of base left, then the rest of target,
	// cleaned: the rest may be "." (from "a" to ".").
	up := strings.Repeat("../", strings.Count(base[b0:], "/")) + ".."
	if t0 == tl {
		return up, nil
	}
	return path.Clean(up + "/" + targ[t0:]), nil
}
