package shell

import (
	"context"
	"slices"
	"testing"
)

func TestDirs(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string // the Dir of each command, in order
	}{
		{"rm -rf *", []string{""}},
		{"cd /tmp/x && rm -rf *", []string{"", "/tmp/x"}},
		{"cd /tmp/x; rm -rf *", []string{"", "/tmp/x"}},
		{"cd build && cd out && ls", []string{"", "build", "build/out"}},
		{"cd build; cd ..; ls", []string{"", "build", "."}},
		{"cd; ls", []string{"", "~"}},
		{"cd ~/src && cd ../.. && ls", []string{"", "~/src", "?"}},
		{`cd "$HOME/x" && ls`, []string{"", "~/x"}},
		{`cd "$X" && rm -rf *`, []string{"", "?"}},
		{"cd - && ls", []string{"", "?"}},
		{"cd /a* && ls", []string{"", "?"}},
		{"cd -P /tmp && ls", []string{"", "/tmp"}},
		{"pushd /tmp && popd && ls", []string{"", "/tmp", "?"}},
		{"pushd +1 && ls", []string{"", "?"}},
		{"command cd /tmp && ls", []string{"", "/tmp"}},
		{"sudo cd /tmp; ls", []string{"", ""}},
		// CDPATH named in the line: a cd to a bare name may go anywhere it lists
		{"CDPATH=/ cd etc && rm -rf *", []string{"", "?"}},
		{"export CDPATH=/; cd etc; rm -rf *", []string{"", "", "?"}},
		{"CDPATH=/ cd ./etc && ls", []string{"", "etc"}},
		{"CDPATH=/ cd /tmp && ls", []string{"", "/tmp"}},
		// a cd in a process of its own leaves the line where it was
		{"(cd /tmp && true); rm -rf *", []string{"", "/tmp", ""}},
		{"cd /tmp | true; rm -rf *", []string{"", "", ""}},
		{"cd /tmp & rm -rf *", []string{"", ""}},
		{"echo $(cd /tmp; pwd); rm -rf *", []string{"", "", "/tmp", ""}},
		{"bash -c 'cd /tmp; rm x'; rm -rf *", []string{"", "/tmp", ""}},
		{"eval 'cd /tmp'; rm -rf *", []string{"", "/tmp"}},
		// a cd that may not have run
		{"true || cd /tmp; rm -rf *", []string{"", "", "?"}},
		{"cd /tmp || rm -rf *", []string{"", ""}},
		{"cd /tmp || exit 1; rm -rf *", []string{"", "", "/tmp"}},
		{"cd /tmp || { echo no; exit 1; }; rm -rf *", []string{"", "", "", "/tmp"}},
		{"cd a && cd b || exit; ls", []string{"", "a", "?", "a/b"}},
		{"cd a || cd b || exit; ls", []string{"", "", "?", "?"}},
		{"cd /tmp || echo no; rm -rf *", []string{"", "", "?"}},
		{"{ cd /tmp; false; } || rm -rf *", []string{"", "/tmp", "?"}},
		{"cd /tmp && make || rm -rf *", []string{"", "/tmp", "?"}},
		{"if true; then cd /tmp; fi; rm -rf *", []string{"", "", "?"}},
		{"if true; then cd /tmp; else rm -rf *; fi", []string{"", "", "?"}},
		{"case x in a) cd /tmp;; b) rm -rf *;; esac", []string{"", "?"}},
		{"for d in a b; do rm -rf *; cd $d; done; ls", []string{"?", "?", "?"}},
		{"for d in a b; do rm -rf *; done; ls", []string{"", ""}},
		// functions: the body runs when called
		{"f() { cd /tmp; }; f; rm -rf *", []string{"", "", "?"}},
		{"f() { cd /tmp; }; rm -rf *", []string{"", ""}},
		// the words of a cd are expanded before it runs
		{"cd /tmp $(rm -rf *)", []string{"", ""}},
	} {
		cmds, err := Parse(context.Background(), tc.line)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.line, err)
			continue
		}
		var got []string
		for _, c := range cmds {
			got = append(got, c.Dir)
		}
		if len(got) != len(tc.want) {
			t.Errorf("Parse(%q): dirs %q of %v, want %q", tc.line, got, cmds, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("Parse(%q): dirs %q, want %q", tc.line, got, tc.want)
				break
			}
		}
	}
}

func TestAltDirs(t *testing.T) {
	for _, tc := range []struct {
		line string
		dir  string   // of the last command
		alts []string // of the last command
	}{
		{"cd /tmp/x && rm -rf *", "/tmp/x", nil},
		{"cd /tmp/gone; rm -rf *", "/tmp/gone", []string{""}},
		{"cd /tmp/x && make; rm -rf *", "/tmp/x", []string{""}},
		{"cd /tmp/x || exit 1; rm -rf *", "/tmp/x", nil},
		{"set -e; cd /tmp/x; rm -rf *", "/tmp/x", nil},
		{"set -euo pipefail; cd /tmp/x; rm -rf *", "/tmp/x", nil},
		{"set -e; set +e; cd /tmp/x; rm -rf *", "/tmp/x", []string{""}},
		{"cd ..; rm -rf *", "..", nil},
		{"cd /; ls", "/", nil},
		{"cd a; cd b; ls", "a/b", []string{"b", "a", ""}},
		{"cd /a; cd /b; ls", "/b", []string{"/a", ""}},
		{"cd a; cd b; cd c; cd d; ls", "a/b/c/d", []string{"?"}},
		{"cd /tmp/x; (rm -rf *)", "/tmp/x", []string{""}},
		{"(cd /tmp/x; rm -rf *); ls", "", nil},
		{"cd /tmp/x; cd /tmp/y && ls", "/tmp/y", nil},
		{`cd /tmp/x; cd "$Y"; ls`, "?", nil},
		{"cd /tmp/x; if true; then ls; fi", "/tmp/x", []string{""}},
		{"f() { cd /tmp/x; ls; }", "/tmp/x", []string{""}},
		{`eval "cd /tmp/x" && rm -rf *`, "/tmp/x", nil},
		{`eval "cd /tmp/x; true" && rm -rf *`, "/tmp/x", []string{""}},
		{"{ cd /tmp/x; } && ls", "/tmp/x", nil},
		{"{ cd /tmp/x; }; ls", "/tmp/x", []string{""}},
	} {
		cmds, err := Parse(context.Background(), tc.line)
		if err != nil || len(cmds) == 0 {
			t.Errorf("Parse(%q): %v, %v", tc.line, cmds, err)
			continue
		}
		last := cmds[len(cmds)-1]
		want := tc.alts
		if want == nil {
			want = []string{}
		}
		if last.Dir != tc.dir || !slices.Equal(last.AltDirs, want) {
			t.Errorf("Parse(%q): last command %v in %q, else %q; want %q, else %q", tc.line, last.Argv, last.Dir, last.AltDirs, tc.dir, want)
		}
	}
}
