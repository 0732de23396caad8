package shell

import (
	"slices"
	"strings"
)

// This file gives each word of a command its role: what the program
// does with it. A guard that reads every word as a path mistakes
// `grep .env README.md` for a read of .env; grep reads README.md and
// searches it for the pattern .env. The roles say which words can be
// paths at all.

// The roles a word of a command can have (Command.Roles).
const (
	// RoleName is argv[0], the program.
	RoleName = "name"
	// RoleOption is an option (-r, --force, --color=never) or a find
	// operator (-delete, -print, !, "(").
	RoleOption = "option"
	// RoleValue is the value of an option that takes one, given as a
	// word of its own (rg --threads 2, git -C DIR, grep --label X).
	RoleValue = "value"
	// RolePattern is a pattern the program matches text or names
	// against: grep's, rg's, ag's and ack's pattern, find -name and
	// -regex, rg -g, git grep's.
	RolePattern = "pattern"
	// RoleCode is a program in another language given on the command
	// line: a jq or yq filter, a sed script, an awk program.
	RoleCode = "code"
	// RoleData is text the program prints or stores, never opens or
	// runs: echo's and printf's words, git commit -m's message, the
	// words of true, false and :, everything after git --version.
	RoleData = "data"
	// RoleSubcommand is the subcommand of git (git push, git rm).
	RoleSubcommand = "subcommand"
	// RoleCommand is a word of a command the program runs that is
	// reported as a command of its own (find -exec rm {} ;).
	RoleCommand = "command"
	// RoleOperand is any other word: a file, a directory, a name, a
	// word the guard must judge. Every word of a program the module
	// knows nothing about is an option or an operand.
	RoleOperand = "operand"
)

// A roleSpec describes how a program uses its words: which options
// take a value as the next word, what that value is, and what its
// first operand is.
type roleSpec struct {
	short string            // short options that take a value (-e PAT, -A 3, -ePAT)
	long  []string          // long options that take a value (--regexp PAT, --regexp=PAT)
	as    map[string]string // the role of an option's value, by short letter or long name; default RoleValue
	// first is the role of the first operand (grep's pattern, sed's
	// script) unless one of firstBy was given (grep -e, sed -f).
	first   string
	firstBy []string
	// all gives every word after the name this role (echo's data).
	all string
}

var grepSpec = roleSpec{
	short: "efmABCdD",
	long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "label",
		"directories", "devices", "include", "exclude", "exclude-from", "exclude-dir", "binary-files",
		"group-separator"},
	as: map[string]string{"e": RolePattern, "regexp": RolePattern, "f": RoleOperand, "file": RoleOperand,
		"include": RolePattern, "exclude": RolePattern, "exclude-dir": RolePattern, "exclude-from": RoleOperand},
	first: RolePattern, firstBy: []string{"e", "regexp", "f", "file"},
}

var rgSpec = roleSpec{
	short: "efgmABCtTMjrEd",
	long: []string{"regexp", "file", "glob", "iglob", "max-count", "after-context", "before-context", "context",
		"type", "type-not", "type-add", "type-clear", "max-columns", "threads", "replace", "encoding",
		"max-depth", "maxdepth", "max-filesize", "colors", "color", "sort", "sortr", "path-separator", "pre",
		"pre-glob", "engine", "context-separator", "field-match-separator", "field-context-separator",
		"ignore-file", "dfa-size-limit", "regex-size-limit", "hyperlink-format", "generate"},
	as: map[string]string{"e": RolePattern, "regexp": RolePattern, "f": RoleOperand, "file": RoleOperand,
		"g": RolePattern, "glob": RolePattern, "iglob": RolePattern, "pre-glob": RolePattern,
		"r": RoleData, "replace": RoleData, "ignore-file": RoleOperand, "pre": RoleOperand},
	first: RolePattern, firstBy: []string{"e", "regexp", "f", "file", "files", "type-list"},
}

var agSpec = roleSpec{
	short: "ABCGgmp",
	long:  []string{"after", "before", "context", "file-search-regex", "ignore", "ignore-dir", "max-count", "depth", "path-to-ignore", "pager"},
	as: map[string]string{"G": RolePattern, "file-search-regex": RolePattern, "g": RolePattern,
		"ignore": RolePattern, "ignore-dir": RolePattern, "p": RoleOperand, "path-to-ignore": RoleOperand},
	first: RolePattern, firstBy: []string{"g"},
}

var ackSpec = roleSpec{
	short: "ABCgm",
	long:  []string{"after-context", "before-context", "context", "max-count", "output", "ignore-dir", "ignore-file", "type", "match", "pager", "ackrc"},
	as: map[string]string{"g": RolePattern, "match": RolePattern, "output": RoleData, "ignore-dir": RolePattern,
		"ignore-file": RolePattern, "ackrc": RoleOperand},
	first: RolePattern, firstBy: []string{"g", "match", "f"},
}

var sedSpec = roleSpec{
	short: "eflS",
	long:  []string{"expression", "file", "line-length"},
	as:    map[string]string{"e": RoleCode, "expression": RoleCode, "f": RoleOperand, "file": RoleOperand},
	first: RoleCode, firstBy: []string{"e", "expression", "f", "file"},
}

var awkSpec = roleSpec{
	short: "fvFeilE",
	long:  []string{"file", "assign", "field-separator", "source", "include", "load", "exec"},
	as: map[string]string{"f": RoleOperand, "file": RoleOperand, "E": RoleOperand, "exec": RoleOperand,
		"e": RoleCode, "source": RoleCode, "v": RoleData, "assign": RoleData, "F": RoleData, "field-separator": RoleData},
	first: RoleCode, firstBy: []string{"f", "file", "e", "source", "E", "exec"},
}

var jqSpec = roleSpec{
	short: "Lf",
	long:  []string{"indent", "from-file"},
	as:    map[string]string{"f": RoleOperand, "from-file": RoleOperand, "L": RoleOperand},
	first: RoleCode, firstBy: []string{"f", "from-file"},
}

var yqSpec = roleSpec{
	short: "opIs",
	long:  []string{"output-format", "input-format", "indent", "split-exp", "expression", "front-matter", "from-file", "properties-separator", "csv-separator", "xml-attribute-prefix"},
	as:    map[string]string{"expression": RoleCode, "from-file": RoleOperand, "s": RoleCode, "split-exp": RoleCode},
	first: RoleCode, firstBy: []string{"expression", "from-file"},
}

var dataSpec = roleSpec{all: RoleData}

// roleSpecs are the programs whose words the module knows. git and
// find have their own readers.
var roleSpecs = map[string]*roleSpec{
	"grep": &grepSpec, "egrep": &grepSpec, "fgrep": &grepSpec, "zgrep": &grepSpec, "zegrep": &grepSpec,
	"zfgrep": &grepSpec, "bzgrep": &grepSpec, "xzgrep": &grepSpec,
	"rg": &rgSpec, "ag": &agSpec, "ack": &ackSpec, "ack-grep": &ackSpec,
	"sed": &sedSpec, "gsed": &sedSpec,
	"awk": &awkSpec, "gawk": &awkSpec, "mawk": &awkSpec, "nawk": &awkSpec,
	"jq": &jqSpec, "gojq": &jqSpec, "jaq": &jqSpec, "yq": &yqSpec,
	"echo": &dataSpec, "printf": &dataSpec, "print": &dataSpec, "true": &dataSpec, "false": &dataSpec,
	":": &dataSpec,
}

// Roles returns the role of each word of a command's argv (see the
// Role constants): argv[0] is RoleName; for grep, rg, ag, ack, sed,
// awk, jq, yq, find, git, echo, printf, true, false and : the words are
// read as those programs read them; for any other program a word
// starting with - is an option and the rest are operands. Options are
// read the GNU way, anywhere before --, clustered (-iA 3) and with
// attached values (-A3, --regexp=X).
func Roles(argv []string) []string {
	roles := make([]string, len(argv))
	if len(argv) == 0 {
		return roles
	}
	roles[0] = RoleName
	name := argv[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 && i < len(name)-1 {
		name = name[i+1:]
	}
	switch name {
	case "git":
		gitRoles(argv, roles)
	case "find", "gfind", "bfs":
		findRoles(argv, roles)
	default:
		spec := roleSpecs[name]
		if spec == nil {
			spec = &roleSpec{}
		}
		spec.read(argv, roles, 1)
	}
	return roles
}

// read gives roles to argv[from:] as spec says.
func (spec *roleSpec) read(argv, roles []string, from int) {
	if spec.all != "" {
		for i := from; i < len(argv); i++ {
			roles[i] = spec.all
		}
		return
	}
	var given []string
	var operands []int
	ended := false
	for i := from; i < len(argv); i++ {
		t := argv[i]
		switch {
		case ended || t == "-" || !strings.HasPrefix(t, "-"):
			roles[i] = RoleOperand
			operands = append(operands, i)
		case t == "--":
			roles[i] = RoleOption
			ended = true
		case strings.HasPrefix(t, "--"):
			roles[i] = RoleOption
			long, _, attached := strings.Cut(t[2:], "=")
			given = append(given, long)
			if !attached && slices.Contains(spec.long, long) && i+1 < len(argv) {
				i++
				roles[i] = spec.roleOf(long)
			}
		default:
			roles[i] = RoleOption
			for j := 1; j < len(t); j++ {
				c := t[j : j+1]
				given = append(given, c)
				if strings.Contains(spec.short, c) {
					if j == len(t)-1 && i+1 < len(argv) {
						i++
						roles[i] = spec.roleOf(c)
					}
					break // the rest of the cluster is the value
				}
			}
		}
	}
	if spec.first != "" && len(operands) > 0 && !slices.ContainsFunc(spec.firstBy, func(o string) bool { return slices.Contains(given, o) }) {
		roles[operands[0]] = spec.first
	}
}

func (spec *roleSpec) roleOf(option string) string {
	if r, ok := spec.as[option]; ok {
		return r
	}
	return RoleValue
}

// findPatterns are find's tests whose argument is a pattern; findValues
// those whose argument is some other value, and findFiles those whose
// argument is a file it reads or writes.
var (
	findPatterns = []string{"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex",
		"-iregex", "-lname", "-ilname"}
	findValues = []string{"-type", "-xtype", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-size",
		"-user", "-group", "-uid", "-gid", "-perm", "-maxdepth", "-mindepth", "-links", "-inum", "-printf",
		"-fstype", "-regextype", "-used", "-context", "-D"}
	findFiles = []string{"-newer", "-anewer", "-cnewer", "-samefile", "-fprint", "-fprint0", "-fls",
		"-files0-from"}
)

// findRoles reads find's words: its starting points are operands, the
// arguments of -name and its kin are patterns, and the words of -exec,
// -execdir, -ok and -okdir, which are reported as commands of their
// own, are RoleCommand.
func findRoles(argv, roles []string) {
	i := 1
	for ; i < len(argv); i++ { // -H, -L, -P, -D debugopts, -O3
		t := argv[i]
		if t == "-D" && i+1 < len(argv) {
			roles[i], roles[i+1] = RoleOption, RoleValue
			i++
			continue
		}
		if t != "-H" && t != "-L" && t != "-P" && !strings.HasPrefix(t, "-O") {
			break
		}
		roles[i] = RoleOption
	}
	for ; i < len(argv) && !findOperator(argv[i]); i++ {
		roles[i] = RoleOperand
	}
	for ; i < len(argv); i++ {
		t := argv[i]
		roles[i] = RoleOption
		next := func(role string) {
			if i+1 < len(argv) {
				i++
				roles[i] = role
			}
		}
		switch {
		case slices.Contains(findPatterns, t):
			next(RolePattern)
		case slices.Contains(findValues, t):
			next(RoleValue)
		case slices.Contains(findFiles, t), strings.HasPrefix(t, "-newer") && len(t) == 8:
			next(RoleOperand)
		case t == "-fprintf":
			next(RoleOperand)
			next(RoleValue)
		case t == "-exec" || t == "-execdir" || t == "-ok" || t == "-okdir":
			for i+1 < len(argv) {
				i++
				if argv[i] == ";" || (argv[i] == "+" && argv[i-1] == "{}") {
					roles[i] = RoleOption
					break
				}
				roles[i] = RoleCommand
			}
		}
	}
}

// findOperator reports whether t begins find's expression.
func findOperator(t string) bool {
	return (strings.HasPrefix(t, "-") && t != "-") || t == "(" || t == "!" || t == ")" || t == ","
}

// gitGlobalValues are git's options before the subcommand that take a
// value as the next word; gitPrints those after which git prints and
// exits, running no subcommand.
var (
	gitGlobalValues = []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env",
		"--super-prefix", "--list-cmds", "--attr-source"}
	gitPrints = []string{"-h", "--help", "-v", "--version", "--html-path", "--man-path", "--info-path"}
)

// gitSubSpecs say how some of git's subcommands use their words: a
// message is data, a pickaxe or grep pattern is a pattern.
var (
	gitMessage = roleSpec{short: "mFcCt", long: []string{"message", "file", "reuse-message", "reedit-message", "template", "author", "date", "fixup", "squash", "cleanup", "trailer"},
		as: map[string]string{"m": RoleData, "message": RoleData, "F": RoleOperand, "file": RoleOperand,
			"t": RoleOperand, "template": RoleOperand, "author": RoleData, "trailer": RoleData}}
	gitTag = roleSpec{short: "mFu", long: []string{"message", "file", "local-user", "sort", "format", "contains", "points-at", "merged", "no-merged", "cleanup"},
		as: map[string]string{"m": RoleData, "message": RoleData, "F": RoleOperand, "file": RoleOperand}}
	gitStash = roleSpec{short: "m", long: []string{"message", "pathspec-from-file"},
		as: map[string]string{"m": RoleData, "message": RoleData}}
	gitLog = roleSpec{short: "SGnL", long: []string{"grep", "author", "committer", "max-count", "since", "until", "after", "before", "format", "pretty", "skip"},
		as: map[string]string{"S": RolePattern, "G": RolePattern, "grep": RolePattern, "author": RolePattern, "committer": RolePattern}}
	gitGrep = roleSpec{short: "efABCm", long: []string{"regexp", "file", "after-context", "before-context", "context", "max-count", "max-depth", "threads"},
		as:    map[string]string{"e": RolePattern, "regexp": RolePattern, "f": RoleOperand, "file": RoleOperand},
		first: RolePattern, firstBy: []string{"e", "regexp", "f", "file"}}
	gitBranchy = roleSpec{short: "bBU", long: []string{"orphan", "conflict", "pathspec-from-file", "source", "create", "force-create", "track"},
		as: map[string]string{"pathspec-from-file": RoleOperand}}
	// check-ignore and check-attr match path names against .gitignore
	// and .gitattributes and print them; they never open those paths.
	gitNamesOnly = roleSpec{all: RoleData}
	gitSubSpecs  = map[string]*roleSpec{
		"check-ignore": &gitNamesOnly, "check-attr": &gitNamesOnly,
		"commit": &gitMessage, "merge": &gitMessage, "revert": &gitMessage, "notes": &gitMessage,
		"tag": &gitTag, "stash": &gitStash, "log": &gitLog, "shortlog": &gitLog, "whatchanged": &gitLog,
		"grep": &gitGrep, "checkout": &gitBranchy, "switch": &gitBranchy, "restore": &gitBranchy,
	}
)

// gitRoles reads git's words: its global options (git -C DIR, -c
// k=v), the subcommand, and the subcommand's words. After -h, --help,
// --version and their kin git prints and exits, so the words after
// them are data: `git --version checkout -f` runs no checkout.
func gitRoles(argv, roles []string) {
	i := 1
	for ; i < len(argv); i++ {
		t := argv[i]
		if !strings.HasPrefix(t, "-") {
			break
		}
		roles[i] = RoleOption
		if slices.Contains(gitPrints, t) {
			for j := i + 1; j < len(argv); j++ {
				roles[j] = RoleData
			}
			return
		}
		if slices.Contains(gitGlobalValues, t) && i+1 < len(argv) {
			i++
			roles[i] = RoleValue
		}
	}
	if i >= len(argv) {
		return
	}
	roles[i] = RoleSubcommand
	spec := gitSubSpecs[argv[i]]
	if spec == nil {
		spec = &roleSpec{}
	}
	spec.read(argv, roles, i+1)
}
