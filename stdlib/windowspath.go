package stdlib

import (
	"regexp"
	"strings"
	"sync"
)

// WindowsPath reads p as Windows reads a path and spells it with slashes, so
// that a guard compares what Windows opens rather than how it was
// written:
//
//   - backslashes separate, as slashes do;
//   - the prefixes that reach a drive through the device or NT
//     namespace are dropped: \\?\C:\x, \\.\C:\x and \??\C:\x are C:/x, and
//     \\?\UNC\host\share is //host/share;
//   - the local machine's administrative shares are what they share:
//     \\localhost\C$\x (also \\127.0.0.1, \\::1) is C:/x, ADMIN$ is
//     C:/Windows;
//   - naming a file's default data stream (x::$DATA, x:$DATA, a
//     directory's ::$INDEX_ALLOCATION) names the file;
//   - the dots and spaces that end a name are dropped (settings.json. is
//     settings.json); names of dots alone (., ..) are kept.
//
// Case is kept, and so are short 8.3 names (SETTIN~1.JSO): which long
// name one stands for, only the file system knows. It does not clean
// .. elements: path.clean does.
func WindowsPath(p string) string {
	if !strings.ContainsAny(p, "\\.: $") && !strings.HasPrefix(p, "//") {
		return p
	}
	p = strings.ReplaceAll(p, `\`, "/")
	p = devicePrefix().ReplaceAllString(p, "$1")
	p = uncPrefix().ReplaceAllString(p, "//")
	if m := adminShare().FindStringSubmatch(p); m != nil {
		rest := strings.TrimPrefix(p[len(m[0]):], "/")
		if share := strings.ToUpper(m[1]); share == "ADMIN$" {
			p = strings.TrimSuffix("C:/Windows/"+rest, "/")
		} else {
			p = share[:1] + ":/" + rest
		}
	}
	p = defaultStream().ReplaceAllString(p, "$2")
	return dropNameEnds(p)
}

// The expressions are compiled on first use: most processes never read a
// Windows path, and every process would pay for compiling them at start.
var (
	// devicePrefix: \\?\C:, \\.\C:, \??\C: (slashes by now).
	devicePrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?://[?.]/|/\?\?/)(?:GLOBALROOT/)?([A-Za-z]:)`) })
	// uncPrefix: \\?\UNC\host\share.
	uncPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^//[?.]/(?i:unc)/`) })
	// adminShare: \\localhost\C$, \\127.0.0.1\ADMIN$, \\::1\C$.
	adminShare = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^//(?i:localhost|127\.0\.0\.1|\[?::1\]?)/([A-Za-z]\$|(?i:admin\$))(?:$|/)`)
	})
	// defaultStream: ::$DATA, :$DATA, ::$INDEX_ALLOCATION (and $I30's)
	// ending a name.
	defaultStream = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(:?\$I30)?::?\$(?:DATA|INDEX_ALLOCATION)(/|$)`) })
)

// dropNameEnds drops the dots and spaces that end each name of p.
func dropNameEnds(p string) string {
	names := strings.Split(p, "/")
	changed := false
	for i, n := range names {
		t := strings.TrimRight(n, ". ")
		if t != n && strings.Trim(t, ".") != "" && !strings.HasSuffix(t, ":") { // C:.. is drive C's parent
			names[i], changed = t, true
		}
	}
	if !changed {
		return p
	}
	return strings.Join(names, "/")
}
