package shell

import (
	"path"
	"slices"
	"strings"
)

// This file reads the arguments of a call found by the scanner and
// turns them into a Call.

// A codeArg is one argument of a call: its values (several for a list
// literal), which of them are not literals, and whether it is an
// option that names no path or command (shell=True, {recursive: true}).
type codeArg struct {
	vals      []string
	dyn       []bool // as long as vals
	list      bool
	option    bool
	recursive bool   // an option that asks for a recursive delete
	key       string // a keyword argument's name (mode in mode="w")
}

// parenless lists the languages whose calls may omit parentheses:
// system "rm -rf /" in Perl and Ruby, os.execute "x" in Lua.
var parenless = map[string]bool{"perl": true, "ruby": true, "lua": true}

// terminators end the arguments of a call without parentheses.
var terminators = map[string]bool{
	";": true, ")": true, "}": true, "]": true, "if": true, "unless": true, "or": true, "and": true,
	"while": true, "until": true, "for": true, "foreach": true, "do": true, "then": true, "||": true, "&&": true,
}

// arguments reads the arguments of a call whose name ends before token
// j. It reports false when no call follows (the name is only mentioned).
func (s *scanner) arguments(j int) ([]codeArg, bool) {
	if j >= len(s.toks) {
		return nil, false
	}
	t := s.toks[j]
	if t.kind == tPunct && t.text == "(" {
		end := s.closerOf(j)
		return s.split(j+1, end), true
	}
	if !parenless[s.lang] || (t.kind == tPunct && t.text != "[") {
		return nil, false
	}
	end := j
	depth := 0
	for ; end < len(s.toks); end++ {
		u := s.toks[end]
		if depth == 0 && (u.kind == tPunct || u.kind == tIdent) && terminators[u.text] {
			break
		}
		depth += bracketDelta(u)
	}
	return s.split(j, end), true
}

func bracketDelta(t token) int {
	if t.kind != tPunct {
		return 0
	}
	switch t.text {
	case "(", "[", "{":
		return 1
	case ")", "]", "}":
		return -1
	}
	return 0
}

// closerOf returns the index of the bracket closing the one at j, or
// len(toks).
func (s *scanner) closerOf(j int) int {
	depth := 0
	for k := j; k < len(s.toks); k++ {
		if depth += bracketDelta(s.toks[k]); depth == 0 {
			return k
		}
	}
	return len(s.toks)
}

// split reads the comma-separated arguments in toks[from:to].
func (s *scanner) split(from, to int) []codeArg {
	var out []codeArg
	start, depth := from, 0
	for k := from; k <= to; k++ {
		if k < to {
			t := s.toks[k]
			depth += bracketDelta(t)
			if depth > 0 || t.kind != tPunct || t.text != "," {
				continue
			}
		}
		if k > start {
			out = append(out, s.arg(s.toks[start:k]))
		}
		start = k + 1
	}
	return out
}

// arg reads one argument.
func (s *scanner) arg(ts []token) codeArg {
	first := ts[0]
	switch {
	case len(ts) == 1 && first.kind == tString:
		return codeArg{vals: []string{first.text}, dyn: []bool{first.dynamic}}
	case len(ts) == 1 && first.kind == tList:
		return codeArg{vals: first.list, dyn: make([]bool, len(first.list)), list: true}
	case isKeyword(ts):
		kw := codeArg{option: true, key: ts[0].text}
		if len(ts) == 3 && ts[2].kind == tString { // mode="w"
			kw.vals, kw.dyn = []string{ts[2].text}, []bool{ts[2].dynamic}
		}
		return kw
	case first.kind == tPunct && first.text == "{":
		return codeArg{option: true, recursive: recursiveOption(ts)}
	case first.kind == tPunct && (first.text == "[" || first.text == "(") && s.closerOf(first.idx) == ts[len(ts)-1].idx:
		return s.listArg(ts)
	}
	raw := s.code[first.start:ts[len(ts)-1].end]
	if len(raw) > maxHomeExpr {
		return codeArg{vals: []string{raw}, dyn: []bool{true}}
	}
	compact := strings.Join(strings.Fields(raw), "")
	if homeExpr().MatchString(compact) {
		return codeArg{vals: []string{"~"}, dyn: []bool{false}}
	}
	if m := expanduser().FindStringSubmatch(compact); m != nil {
		return codeArg{vals: []string{m[1]}, dyn: []bool{false}}
	}
	return codeArg{vals: []string{raw}, dyn: []bool{true}}
}

// maxHomeExpr is longer than any expression homeExpr matches.
const maxHomeExpr = 80

// isKeyword reports a keyword argument: name=value (Python), name:
// value (Ruby, JavaScript).
func isKeyword(ts []token) bool {
	if len(ts) < 2 || ts[0].kind != tIdent || ts[1].kind != tPunct {
		return false
	}
	return (ts[1].text == "=" && (len(ts) < 3 || ts[2].text != "=")) || ts[1].text == ":"
}

// recursiveOption reports an options object that sets recursive
// (fs.rmSync("/", {recursive: true})).
func recursiveOption(ts []token) bool {
	for i := 0; i+2 < len(ts); i++ {
		if ts[i].kind == tIdent && ts[i].text == "recursive" && ts[i+2].text == "true" {
			return true
		}
	}
	return false
}

// listArg reads a list literal: ["rm", "-rf", "/"], ("a", "b").
func (s *scanner) listArg(ts []token) codeArg {
	a := codeArg{list: true}
	if len(ts) < 3 {
		return a
	}
	inner := s.split(ts[1].idx, ts[len(ts)-1].idx)
	for _, e := range inner {
		a.recursive = a.recursive || e.recursive
		if !e.option {
			a.vals = append(a.vals, e.vals...)
			a.dyn = append(a.dyn, e.dyn...)
		}
	}
	return a
}

// build turns a rule and the arguments of a call into a Call, or
// reports false when the call does not fit the rule.
func (s *scanner) build(r rule, name string, args []codeArg) (Call, bool) {
	var pos []codeArg
	recursive := r.recursive
	for _, a := range args {
		recursive = recursive || a.recursive
		if a.option {
			continue
		}
		pos = append(pos, a)
	}
	if len(pos) == 0 {
		return Call{}, false
	}
	c := Call{Func: name}
	switch kind := r.kind; {
	case kind == kWrite:
		target, ok := writeTarget(r, pos, args)
		if !ok {
			return Call{}, false
		}
		c.Kind = "write"
		c.Args, c.argDyn = target.vals[:1], target.dyn[:1]
		c.Paths = []PathInfo{plainPath(c.Args[0], c.argDyn[0])}
	case kind == kDelete:
		c.Kind, c.Recursive = "delete", recursive
		c.Args, c.argDyn = flatten(pos)
		for i, a := range c.Args {
			c.Paths = append(c.Paths, plainPath(a, c.argDyn[i]))
		}
	case kind == kShell || (kind == kAuto && len(pos) == 1 && !pos[0].list):
		c.Kind = "shell"
		c.Args, c.argDyn = flatten(pos[:1])
	case kind == kExec:
		c.Kind = "exec"
		c.Args, c.argDyn = execArgv(pos)
	default: // kAuto with words or a list, kSpawn
		c.Kind = "exec"
		c.Args, c.argDyn = flatten(pos)
	}
	c.Dynamic = slices.Contains(c.argDyn, true)
	return c, len(c.Args) > 0
}

// flatten joins the values of arguments.
func flatten(args []codeArg) ([]string, []bool) {
	var vals []string
	var dyn []bool
	for _, a := range args {
		vals = append(vals, a.vals...)
		dyn = append(dyn, a.dyn...)
	}
	return vals, dyn
}

// execArgv reads os.execvp("rm", ["rm", "-rf", "/"]) and os.execl(path,
// arg0, …): the list when there is one, else the words after a path
// that arg0 repeats.
func execArgv(args []codeArg) ([]string, []bool) {
	for _, a := range args {
		if a.list {
			return a.vals, a.dyn
		}
	}
	vals, dyn := flatten(args)
	if len(vals) > 1 && path.Base(vals[0]) == path.Base(vals[1]) {
		return vals[1:], dyn[1:]
	}
	return vals, dyn
}

// writeTarget returns the argument that names the file a write call
// writes, or false when the call does not write (open(f) reads).
func writeTarget(r rule, pos, all []codeArg) (codeArg, bool) {
	if r.perlOpen {
		return perlOpenTarget(pos)
	}
	if r.mode >= 0 {
		mode, ok := "", false
		if r.mode < len(pos) && len(pos[r.mode].vals) == 1 && !pos[r.mode].dyn[0] {
			mode, ok = pos[r.mode].vals[0], true
		}
		for _, a := range all {
			if a.key == "mode" && len(a.vals) == 1 && !a.dyn[0] {
				mode, ok = a.vals[0], true
			}
		}
		if !ok || !strings.ContainsAny(mode, "wax+") {
			return codeArg{}, false // reading, or a mode only known at run time
		}
	}
	i := r.path
	switch i {
	case -1, -2:
		i = 0
		if r.path == -1 {
			i = len(pos) - 1
		}
	}
	if i < 0 || i >= len(pos) || len(pos[i].vals) == 0 {
		return codeArg{}, false
	}
	return pos[i], true
}

// perlOpenTarget reads Perl's open(FH, MODE, PATH) and open(FH, "MODE PATH"):
// the file, when MODE writes (>, >>, +<, +>).
func perlOpenTarget(pos []codeArg) (codeArg, bool) {
	writes := func(m string) bool { return strings.HasPrefix(m, ">") || strings.HasPrefix(m, "+") }
	switch {
	case len(pos) >= 3 && len(pos[1].vals) == 1 && !pos[1].dyn[0]:
		if writes(strings.TrimSpace(pos[1].vals[0])) {
			return pos[2], true
		}
	case len(pos) == 2 && len(pos[1].vals) == 1 && !pos[1].dyn[0]:
		m := strings.TrimSpace(pos[1].vals[0])
		if writes(m) {
			p := strings.TrimSpace(strings.TrimLeft(m, "+<>"))
			return codeArg{vals: []string{p}, dyn: []bool{false}}, p != ""
		}
	}
	return codeArg{}, false
}
