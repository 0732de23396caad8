package path

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/hookhost/hookhost/stdlib"
)

// MaxJoin is how many elements join takes.
const MaxJoin = 8

// New returns the path module. It holds no state and is safe for
// concurrent use.
func New() stdlib.Module {
	p := stdlib.P
	return stdlib.Module{
		Name: "path",
		Doc:  "slash-separated paths, handled lexically (no file system access)",
		Funcs: []stdlib.Func{
			{Name: "clean", Params: []stdlib.Param{p("p")}, Impl: unary(path.Clean),
				Doc: "the shortest equivalent of p: no //, no . elements, .. resolved lexically"},
			{Name: "join", Params: joinParams(), Impl: join,
				Doc: "the elements joined with '/' and cleaned (2 to 8 elements)"},
			{Name: "base", Params: []stdlib.Param{p("p")}, Impl: unary(path.Base),
				Doc: "the last element of p"},
			{Name: "dir", Params: []stdlib.Param{p("p")}, Impl: unary(path.Dir),
				Doc: "all but the last element of p, cleaned"},
			{Name: "ext", Params: []stdlib.Param{p("p")}, Impl: unary(path.Ext),
				Doc: `the extension of p's last element, with its dot (".gz"), or ""`},
			{Name: "abs", Params: []stdlib.Param{p("p"), p("cwd")}, Impl: abs,
				Doc: "p made absolute against the absolute directory cwd, cleaned"},
			{Name: "rel", Params: []stdlib.Param{p("base"), p("target")}, Impl: rel,
				Doc: "a relative path that leads from base to target; an error when there is none"},
			{Name: "is_within", Params: []stdlib.Param{p("root"), p("p")}, Impl: isWithin,
				Doc: "whether p, resolved lexically against the absolute root, is root or below it"},
			{Name: "glob", Params: []stdlib.Param{p("pattern"), p("p")}, Impl: glob,
				Doc: "whether the cleaned p matches pattern (*, ?, [a-z], {a,b}, ** across directories)"},
			{Name: "expand_home", Params: []stdlib.Param{p("p"), p("home")}, Impl: expandHome,
				Doc: "p with a leading ~ or ~/ replaced by the absolute directory home"},
			{Name: "windows", Params: []stdlib.Param{p("p")}, Impl: windowsPath,
				Doc: `p as Windows reads it, with slashes: \\?\C:\x and \\localhost\C$\x are C:/x, x::$DATA is x, a name's trailing dots and spaces dropped`},
		},
	}
}

// unary wraps a function of one path.
func unary(f func(string) string) func(*stdlib.Call) (any, error) {
	return func(c *stdlib.Call) (any, error) {
		p, err := c.String(0)
		if err != nil {
			return nil, err
		}
		return f(p), nil
	}
}

func joinParams() []stdlib.Param {
	params := make([]stdlib.Param, MaxJoin)
	for i := range params {
		params[i] = stdlib.Param{Name: fmt.Sprintf("elem%d", i+1), Optional: i >= 2}
	}
	return params
}

// join requires two elements, and refuses a nil followed by an element:
// path.join(ws, params.file) with the field missing must not quietly
// give ws. (A trailing nil cannot be told from an absent argument.)
func join(c *stdlib.Call) (any, error) {
	elems := make([]string, 0, len(c.Args))
	for i := range c.Args {
		if !c.Present(i) && i >= 2 {
			if err := noneAfter(c, i); err != nil {
				return nil, err
			}
			break
		}
		e, err := c.String(i)
		if err != nil {
			return nil, err
		}
		elems = append(elems, e)
	}
	return path.Join(elems...), nil
}

// noneAfter checks that no argument after the absent argument i is given.
func noneAfter(c *stdlib.Call, i int) error {
	for j := i + 1; j < len(c.Args); j++ {
		if c.Present(j) {
			return fmt.Errorf("argument %d (elem%d): want string, got nil (argument %d is given)", i+1, i+1, j+1)
		}
	}
	return nil
}

// absPath reads argument i, named name, which must be an absolute path.
func absPath(c *stdlib.Call, i int, name string) (string, error) {
	p, err := c.String(i)
	if err != nil {
		return "", err
	}
	if !path.IsAbs(p) {
		return "", fmt.Errorf("argument %d (%s): want an absolute path, got %q", i+1, name, p)
	}
	return p, nil
}

func abs(c *stdlib.Call) (any, error) {
	p, err := c.String(0)
	if err != nil {
		return nil, err
	}
	cwd, err := absPath(c, 1, "cwd")
	if err != nil {
		return nil, err
	}
	return resolve(cwd, p), nil
}

// resolve returns p made absolute against the absolute directory dir, and
// cleaned. Unlike join, an absolute p stands on its own.
func resolve(dir, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(dir, p)
}

func isWithin(c *stdlib.Call) (any, error) {
	root, err := absPath(c, 0, "root")
	if err != nil {
		return nil, err
	}
	p, err := c.String(1)
	if err != nil {
		return nil, err
	}
	if p == "" {
		// "" would resolve to root itself; it is far more likely a
		// missing value than a request to check the root.
		return nil, errors.New("argument 2 (p): empty path")
	}
	return within(path.Clean(root), resolve(root, p)), nil
}

// within reports whether the clean absolute path p is root or below it.
func within(root, p string) bool {
	if root == "/" || p == root {
		return true
	}
	return strings.HasPrefix(p, root) && p[len(root)] == '/'
}

func rel(c *stdlib.Call) (any, error) {
	base, err := c.String(0)
	if err != nil {
		return nil, err
	}
	target, err := c.String(1)
	if err != nil {
		return nil, err
	}
	return relative(base, target)
}

func expandHome(c *stdlib.Call) (any, error) {
	p, err := c.String(0)
	if err != nil {
		return nil, err
	}
	home, err := absPath(c, 1, "home")
	if err != nil {
		return nil, err
	}
	switch {
	case p == "~":
		return path.Clean(home), nil
	case strings.HasPrefix(p, "~/"):
		return strings.TrimRight(home, "/") + p[1:], nil
	}
	return p, nil // including ~user: whose home that is, only the system knows
}
