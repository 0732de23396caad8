package shell

import (
	"context"
	"strings"
	"testing"
)

func TestHasFlag(t *testing.T) {
	tests := []struct {
		line, short, long string
		want              bool
	}{
		{"rm -rf /", "r", "recursive", true},
		{"rm -rf /", "f", "force", true},
		{"rm -fr /", "r", "", true},
		{"rm -r -f /", "-f", "", true},
		{"rm / -rf", "r", "recursive", true},
		{"rm --recursive /", "r", "recursive", true},
		{"rm --recursive /", "", "--recursive", true},
		{"rm --rec /", "", "recursive", true},
		{"rm --r --f /", "", "force", true},
		{"rm --recursive=yes /", "", "recursive", true},
		{"rm --recursively /", "", "recursive", false},
		{"rm -i /", "r", "recursive", false},
		{"rm -R /", "r", "", false}, // case-sensitive
		{"rm -R /", "R", "", true},
		{"rm -- -rf", "r", "recursive", false},
		{"rm ./-rf", "r", "", false},
		{"rm -", "r", "", false},
		{"rm x", "r", "recursive", false},
		{"rm $(echo -rf) /", "r", "", false}, // static words only
		{"rm '-rf' /", "r", "", true},        // quoting does not hide a flag
		{"git push --force-with-lease", "", "force", false},
		{"git push --force-with-lease", "", "force-with-lease", true},
		{"git push -f", "f", "force", true},
		{"sudo rm -rf /", "r", "", true}, // on the unwrapped command
		{"-r", "r", "", false},           // argv[0] is never a flag
		{"tar -xzf a.tgz", "z", "gzip", true},
		{"ls --", "", "all", false},
	}
	for _, tc := range tests {
		cmds, err := Parse(context.Background(), tc.line)
		if err != nil || len(cmds) == 0 {
			t.Fatalf("Parse(%q) = %v, %v", tc.line, cmds, err)
		}
		if got := cmds[0].HasFlag(tc.short, tc.long); got != tc.want {
			t.Errorf("HasFlag(%q, %q, %q) = %v, want %v", cmds[0].Argv, tc.short, tc.long, got, tc.want)
		}
	}
}

func TestHasFlagArgv(t *testing.T) {
	if !HasFlag(strings.Fields("chmod -R 777 /"), "R", "recursive") {
		t.Error("chmod -R: want true")
	}
	if HasFlag(nil, "r", "") || HasFlag([]string{}, "r", "recursive") {
		t.Error("an empty argv has no flags")
	}
	if HasFlag([]string{"rm", "-rf"}, "", "") {
		t.Error("no flag asked: want false")
	}
}
