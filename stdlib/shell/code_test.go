package shell

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// codeCases are one-liners' code as agents write it: calls that delete,
// write or run commands, and look-alikes that must find nothing.
var codeCases = []struct {
	lang, code string
	want       []Call // Kind, Func, Args, Recursive and Dynamic are compared
}{
	// Python.
	{"python", `import os; os.system("rm -rf ~")`, []Call{{Kind: "shell", Func: "os.system", Args: []string{"rm -rf ~"}}}},
	{"python", `__import__('os').system('rm -rf /')`, []Call{{Kind: "shell", Func: "system", Args: []string{"rm -rf /"}}}},
	{"python", `import os; os.popen("curl x | sh").read()`, []Call{{Kind: "shell", Func: "os.popen", Args: []string{"curl x | sh"}}}},
	{"python", `import subprocess; subprocess.run("rm -rf /", shell=True)`, []Call{{Kind: "shell", Func: "subprocess.run", Args: []string{"rm -rf /"}}}},
	{"python", `import subprocess as sp; sp.call(["rm", "-rf", "/"])`, []Call{{Kind: "exec", Func: "sp.call", Args: []string{"rm", "-rf", "/"}}}},
	{"python", `subprocess.check_output(('git', 'push', '-f'))`, []Call{{Kind: "exec", Func: "subprocess.check_output", Args: []string{"git", "push", "-f"}}}},
	{"python", `os.execvp("rm", ["rm", "-rf", "/"])`, []Call{{Kind: "exec", Func: "os.execvp", Args: []string{"rm", "-rf", "/"}}}},
	{"python", `os.execl("/bin/rm", "rm", "-rf", "/")`, []Call{{Kind: "exec", Func: "os.execl", Args: []string{"rm", "-rf", "/"}}}},
	{"python", `import shutil; shutil.rmtree("/")`, []Call{{Kind: "delete", Func: "shutil.rmtree", Args: []string{"/"}, Recursive: true}}},
	{"python", `shutil.rmtree(os.path.expanduser('~'))`, []Call{{Kind: "delete", Func: "shutil.rmtree", Args: []string{"~"}, Recursive: true}}},
	{"python", `shutil.rmtree(os.path.expanduser("~/.ssh"))`, []Call{{Kind: "delete", Func: "shutil.rmtree", Args: []string{"~/.ssh"}, Recursive: true}}},
	{"python", `shutil.rmtree(os.environ["HOME"])`, []Call{{Kind: "delete", Func: "shutil.rmtree", Args: []string{"~"}, Recursive: true}}},
	{"python", `shutil.rmtree(Path.home())`, []Call{{Kind: "delete", Func: "shutil.rmtree", Args: []string{"~"}, Recursive: true}}},
	{"python", `import os; os.remove("/etc/passwd")`, []Call{{Kind: "delete", Func: "os.remove", Args: []string{"/etc/passwd"}}}},
	{"python", `from pathlib import Path; Path("/etc/hosts").unlink()`, []Call{{Kind: "delete", Func: "unlink", Args: []string{"/etc/hosts"}}}},
	{"python", `from shutil import rmtree as r; r("/home/u")`, []Call{{Kind: "delete", Func: "r", Args: []string{"/home/u"}, Recursive: true}}},
	{"python", `from os import system as run_it; run_it("rm -rf /")`, []Call{{Kind: "shell", Func: "run_it", Args: []string{"rm -rf /"}}}},
	{"python", `import json as j; j.dumps({})`, nil},
	{"python", `import sys, shutil; shutil.rmtree(sys.argv[1])`, []Call{{Kind: "delete", Func: "shutil.rmtree", Args: []string{"sys.argv[1]"}, Recursive: true, Dynamic: true}}},
	{"python", `os.system(f"rm -rf {d}")`, []Call{{Kind: "shell", Func: "os.system", Args: []string{"rm -rf {d}"}, Dynamic: true}}},
	{"python", `os.system(r'''rm -rf /''')`, []Call{{Kind: "shell", Func: "os.system", Args: []string{"rm -rf /"}}}},
	{"python", `open("/etc/passwd", "w").write("")`, []Call{{Kind: "write", Func: "open", Args: []string{"/etc/passwd"}}}},
	{"python", `open('/etc/sudoers', mode='a').write('x ALL=(ALL) NOPASSWD: ALL')`, []Call{{Kind: "write", Func: "open", Args: []string{"/etc/sudoers"}}}},
	{"python", `import shutil; shutil.copy("evil", "/usr/bin/ls")`, []Call{{Kind: "write", Func: "shutil.copy", Args: []string{"/usr/bin/ls"}}}},
	{"python", `import os; os.rename("x", "/etc/shadow")`, []Call{{Kind: "write", Func: "os.rename", Args: []string{"/etc/shadow"}}}},
	{"python", `from pathlib import Path; Path("/etc/hosts").write_text("")`, []Call{{Kind: "write", Func: "write_text", Args: []string{"/etc/hosts"}}}},
	{"python", `print(open("/etc/passwd").read()); open("x", "r")`, nil},
	{"python", `s = "a b".replace("a", "b"); open(f, m)`, nil},
	{"python", "x = [1, 2]; x.remove(1); print(x)", nil},
	{"python", `print("os.system('rm -rf /')")`, nil},
	{"python", `# os.system("rm -rf /")` + "\nprint(1)", nil},
	{"python", `import json, sys; print(json.load(sys.stdin)["name"])`, nil},
	{"python", `import subprocess; print(subprocess.run)`, nil},
	// Perl.
	{"perl", `system("rm -rf /")`, []Call{{Kind: "shell", Func: "system", Args: []string{"rm -rf /"}}}},
	{"perl", `system "rm", "-rf", "/"`, []Call{{Kind: "exec", Func: "system", Args: []string{"rm", "-rf", "/"}}}},
	{"perl", "`rm -rf /`", []Call{{Kind: "shell", Func: "`", Args: []string{"rm -rf /"}}}},
	{"perl", `print qx{rm -rf ~}`, []Call{{Kind: "shell", Func: "qx", Args: []string{"rm -rf ~"}}}},
	{"perl", `use File::Path; rmtree("/usr")`, []Call{{Kind: "delete", Func: "rmtree", Args: []string{"/usr"}, Recursive: true}}},
	{"perl", `File::Path::remove_tree($ENV{HOME})`, []Call{{Kind: "delete", Func: "File::Path::remove_tree", Args: []string{"~"}, Recursive: true}}},
	{"perl", `unlink glob "*"`, []Call{{Kind: "delete", Func: "unlink", Args: []string{`glob "*"`}, Dynamic: true}}},
	{"perl", `unlink "/etc/passwd" or die`, []Call{{Kind: "delete", Func: "unlink", Args: []string{"/etc/passwd"}}}},
	{"perl", `system(qw(rm -rf /))`, []Call{{Kind: "exec", Func: "system", Args: []string{"rm", "-rf", "/"}}}},
	{"perl", `open(my $fh, '>', '/etc/passwd') or die`, []Call{{Kind: "write", Func: "open", Args: []string{"/etc/passwd"}}}},
	{"perl", `open(FH, ">>/etc/sudoers")`, []Call{{Kind: "write", Func: "open", Args: []string{"/etc/sudoers"}}}},
	{"perl", `open(my $fh, '<', '/etc/passwd'); open(FH, "/etc/group")`, nil},
	{"perl", `print "system('rm -rf /')\n"`, nil},
	{"perl", `while (<>) { s/foo/bar/g; print }`, nil},
	// Ruby.
	{"ruby", `system("rm -rf /")`, []Call{{Kind: "shell", Func: "system", Args: []string{"rm -rf /"}}}},
	{"ruby", `system "rm", "-rf", "/"`, []Call{{Kind: "exec", Func: "system", Args: []string{"rm", "-rf", "/"}}}},
	{"ruby", "puts `rm -rf ~`", []Call{{Kind: "shell", Func: "`", Args: []string{"rm -rf ~"}}}},
	{"ruby", `%x(rm -rf /)`, []Call{{Kind: "shell", Func: "%x", Args: []string{"rm -rf /"}}}},
	{"ruby", `require "fileutils"; FileUtils.rm_rf("/")`, []Call{{Kind: "delete", Func: "FileUtils.rm_rf", Args: []string{"/"}, Recursive: true}}},
	{"ruby", `FileUtils.rm_rf Dir.home`, []Call{{Kind: "delete", Func: "FileUtils.rm_rf", Args: []string{"~"}, Recursive: true}}},
	{"ruby", `File.delete("/etc/hosts")`, []Call{{Kind: "delete", Func: "File.delete", Args: []string{"/etc/hosts"}}}},
	{"ruby", `IO.popen("rm -rf /").read`, []Call{{Kind: "shell", Func: "IO.popen", Args: []string{"rm -rf /"}}}},
	{"ruby", `File.write("/etc/hosts", "")`, []Call{{Kind: "write", Func: "File.write", Args: []string{"/etc/hosts"}}}},
	{"ruby", `File.open("/etc/passwd", "w") { |f| f.puts "" }`, []Call{{Kind: "write", Func: "File.open", Args: []string{"/etc/passwd"}}}},
	{"ruby", `FileUtils.cp("x", "/usr/bin/x")`, []Call{{Kind: "write", Func: "FileUtils.cp", Args: []string{"/usr/bin/x"}}}},
	{"ruby", `puts File.read("/etc/hosts"); File.open("/etc/hosts")`, nil},
	{"ruby", `h = {a: 1}; h.delete(:a); p h`, nil},
	{"ruby", `puts "system('rm -rf /')"`, nil},
	// Node.
	{"node", `require("child_process").execSync("rm -rf /")`, []Call{{Kind: "shell", Func: "execSync", Args: []string{"rm -rf /"}}}},
	{"node", `require("fs").writeFileSync("/etc/passwd", "")`, []Call{{Kind: "write", Func: "writeFileSync", Args: []string{"/etc/passwd"}}}},
	{"node", `fs.copyFileSync("evil", "/usr/bin/node")`, []Call{{Kind: "write", Func: "fs.copyFileSync", Args: []string{"/usr/bin/node"}}}},
	{"node", `fs.openSync("/etc/shadow", "w")`, []Call{{Kind: "write", Func: "fs.openSync", Args: []string{"/etc/shadow"}}}},
	{"node", `console.log(fs.readFileSync("/etc/hosts", "utf8")); fs.openSync("/etc/hosts", "r")`, nil},
	{"node", `const cp = require('child_process'); cp.exec('rm -rf ~')`, []Call{{Kind: "shell", Func: "cp.exec", Args: []string{"rm -rf ~"}}}},
	{"node", "const {spawn} = require('child_process'); spawn('rm', ['-rf', '/'])", []Call{{Kind: "exec", Func: "spawn", Args: []string{"rm", "-rf", "/"}}}},
	{"node", `require("fs").rmSync("/", {recursive: true, force: true})`, []Call{{Kind: "delete", Func: "rmSync", Args: []string{"/"}, Recursive: true}}},
	{"node", `fs.rmSync(require("os").homedir(), {recursive: true})`, []Call{{Kind: "delete", Func: "fs.rmSync", Args: []string{"~"}, Recursive: true}}},
	{"node", `require('fs').unlinkSync('/etc/passwd')`, []Call{{Kind: "delete", Func: "unlinkSync", Args: []string{"/etc/passwd"}}}},
	{"node", "require('child_process').execSync(`rm -rf ${dir}`)", []Call{{Kind: "shell", Func: "execSync", Args: []string{"rm -rf ${dir}"}, Dynamic: true}}},
	{"node", `const m = /a(b)/.exec("ab"); console.log(m[1])`, nil},
	{"node", `console.log("execSync('rm -rf /')") // rmSync("/")`, nil},
	// An options object inside a list is no argument (a fuzzer found it
	// breaking the Args and Paths pairing).
	{"node", `fs.rmSync(["/tmp/x", {recursive: true}])`, []Call{{Kind: "delete", Func: "fs.rmSync", Args: []string{"/tmp/x"}, Recursive: true}}},
	{"node", "Deno.removeSync(\x00\x00(  {recursive! true))", []Call{{Kind: "delete", Func: "Deno.removeSync", Args: []string{"\x00\x00(  {recursive! true))"}, Recursive: true, Dynamic: true}}},
	// PHP and Lua.
	{"php", `system("rm -rf /");`, []Call{{Kind: "shell", Func: "system", Args: []string{"rm -rf /"}}}},
	{"php", `echo shell_exec('rm -rf ~');`, []Call{{Kind: "shell", Func: "shell_exec", Args: []string{"rm -rf ~"}}}},
	{"php", `unlink("/etc/passwd");`, []Call{{Kind: "delete", Func: "unlink", Args: []string{"/etc/passwd"}}}},
	{"lua", `os.execute("rm -rf /")`, []Call{{Kind: "shell", Func: "os.execute", Args: []string{"rm -rf /"}}}},
	{"lua", `os.execute [[rm -rf ~]]`, []Call{{Kind: "shell", Func: "os.execute", Args: []string{"rm -rf ~"}}}},
	{"lua", `os.remove("/etc/passwd")`, []Call{{Kind: "delete", Func: "os.remove", Args: []string{"/etc/passwd"}}}},
	{"lua", `print("os.execute('rm -rf /')") -- os.remove("/x")`, nil},
}

func TestCodeCalls(t *testing.T) {
	for _, tc := range codeCases {
		got, err := CodeCalls(tc.lang, tc.code)
		if err != nil {
			t.Errorf("CodeCalls(%s, %q): %v", tc.lang, tc.code, err)
			continue
		}
		if !sameCalls(got, tc.want) {
			t.Errorf("CodeCalls(%s, %q):\n got %+v\nwant %+v", tc.lang, tc.code, got, tc.want)
		}
	}
}

func sameCalls(got, want []Call) bool {
	if len(got) != len(want) {
		return false
	}
	for i, w := range want {
		g := got[i]
		if g.Kind != w.Kind || g.Func != w.Func || !slices.Equal(g.Args, w.Args) || g.Recursive != w.Recursive || g.Dynamic != w.Dynamic {
			return false
		}
		if (g.Kind == "delete" || g.Kind == "write") != (len(g.Paths) == len(g.Args)) {
			return false
		}
	}
	return true
}

func TestCodeCallsPaths(t *testing.T) {
	calls, err := CodeCalls("python", `shutil.rmtree("/etc/../usr/"); os.remove("~/x/..")`)
	if err != nil || len(calls) != 2 {
		t.Fatalf("CodeCalls = %+v, %v", calls, err)
	}
	if p := calls[0].Paths[0]; p.Path != "/usr" || p.Dynamic {
		t.Errorf("rmtree path = %+v; want /usr", p)
	}
	if p := calls[1].Paths[0]; p.Path != "~" || p.Dynamic {
		t.Errorf("remove path = %+v; want ~", p)
	}
}

func TestCodeCallsErrors(t *testing.T) {
	if _, err := CodeCalls("cobol", "x"); err == nil || !strings.Contains(err.Error(), "unknown language") {
		t.Errorf("CodeCalls(cobol) error = %v", err)
	}
	if _, err := CodeCalls("python", strings.Repeat("x", MaxLineBytes+1)); !errors.Is(err, ErrTooLong) {
		t.Errorf("CodeCalls(long) error = %v; want ErrTooLong", err)
	}
}

// TestCodeCallsUnterminated checks that code cut short anywhere yields
// calls without failing.
func TestCodeCallsUnterminated(t *testing.T) {
	for _, tc := range codeCases {
		for i := range len(tc.code) {
			if _, err := CodeCalls(tc.lang, tc.code[:i]); err != nil {
				t.Fatalf("CodeCalls(%s, %q): %v", tc.lang, tc.code[:i], err)
			}
		}
	}
}
