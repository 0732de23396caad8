package shell

import (
	"context"
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
