package shell_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hookhost/hookhost/stdlib/shell"
)

// A guard sees the commands a line runs, however they are wrapped or
// spelled, and checks Dynamic because it cannot see what a variable,
// glob or substitution will become.
func ExampleParse() {
	cmds, err := shell.Parse(context.Background(), `cd / && sudo r\m -fr * ; echo "rm -rf /"`)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	for _, c := range cmds {
		fmt.Printf("%s %q wrapped_by=%q dynamic=%v recursive=%v\n",
			c.Name, c.Argv, c.WrappedBy, c.Dynamic, c.HasFlag("r", "recursive"))
	}
	// Output:
	// cd ["cd" "/"] wrapped_by=[] dynamic=false recursive=false
	// rm ["rm" "-fr" "*"] wrapped_by=["sudo"] dynamic=true recursive=true
	// echo ["echo" "rm -rf /"] wrapped_by=[] dynamic=false recursive=false
}

func ExampleSplit() {
	words, err := shell.Split(`git commit -m "fix the build" --author='A <a@example.com>'`)
	fmt.Printf("%q %v\n", words, err)
	// Output:
	// ["git" "commit" "-m" "fix the build" "--author=A <a@example.com>"] <nil>
}

// BenchmarkParse parses a typical 80-character command.
func BenchmarkParse(b *testing.B) {
	const line = `cd /home/dev/project && git status --short | grep -v '^??' | head -n 20 > st.txt`
	if len(line) != 80 {
		b.Fatalf("the line is %d characters", len(line))
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := shell.Parse(ctx, line); err != nil {
			b.Fatal(err)
		}
	}
}
