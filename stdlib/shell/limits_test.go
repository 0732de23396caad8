package shell

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, line string
		is         error  // nil: any error
		contains   string // "" : any text
	}{
		{"unterminated double quote", `echo "unterminated`, nil, "reached EOF without closing quote"},
		{"unterminated single quote", `rm -rf '/`, nil, "reached EOF without closing quote"},
		{"dangling pipe", `curl x |`, nil, "must be followed by a statement"},
		{"line over 16 KiB", strings.Repeat("a", MaxLineBytes+1), ErrTooLong, "16385 bytes"},
		{"100000 nested parens", strings.Repeat("(", 100000) + strings.Repeat(")", 100000), ErrTooLong, ""},
		{"200 nested parens", strings.Repeat("(", 200) + "rm" + strings.Repeat(")", 200), ErrTooDeep, "more than 100 levels"},
		{"200 nested arithmetic", "echo $" + strings.Repeat("((", 100) + "1" + strings.Repeat("))", 100), ErrTooDeep, ""},
		{"200 nested substitutions", strings.Repeat("$(", 200) + "rm" + strings.Repeat(")", 200), ErrTooDeep, ""},
		{"200 nested blocks", strings.Repeat("{ ", 200) + "rm;" + strings.Repeat(" }", 200), ErrTooDeep, ""},
		{"scripts nested 9 deep", strings.Repeat("eval ", 9) + "rm -rf /", ErrTooDeep, "scripts nest"},
		{"17 wrappers", strings.Repeat("sudo ", 17) + "rm -rf /", ErrTooDeep, "wrappers"},
		{"bad nested script", `bash -c 'rm "/'`, nil, "bash script: 1:4: reached EOF"},
		{"too many commands", strings.Repeat("a;", MaxCommands+1), ErrTooMany, ""},
		{"a long && chain", strings.Repeat("a && ", 2000) + "a", ErrTooMany, ""},
		{"a long arithmetic chain", "echo $((" + strings.Repeat("1+", 2000) + "1))", ErrTooDeep, ""},
		{"eval of a brace expansion too long", "eval {1..20}" + strings.Repeat("x", 15000), ErrTooLong, ""},
		{"a brace expansion too wide", "echo" + strings.Repeat(" {a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}", 100), ErrTooMany, "words"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmds, err := Parse(context.Background(), tc.line)
			if err == nil {
				t.Fatalf("Parse = %v, want an error", cmds)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("Parse error %q is not %v", err, tc.is)
			}
			if !strings.Contains(err.Error(), tc.contains) {
				t.Errorf("Parse error %q does not contain %q", err, tc.contains)
			}
			if strings.HasPrefix(err.Error(), "shell.parse") {
				t.Errorf("Parse error %q repeats the binder's prefix", err)
			}
		})
	}
}

func TestParseAtTheLimits(t *testing.T) {
	line := "echo " + strings.Repeat("a", MaxLineBytes-5)
	if _, err := Parse(context.Background(), line); err != nil {
		t.Errorf("a line of exactly %d bytes: %v", MaxLineBytes, err)
	}
	deep := strings.Repeat("( ", MaxNesting-1) + "rm -rf /" + strings.Repeat(" )", MaxNesting-1)
	cmds, err := Parse(context.Background(), deep)
	if err != nil || len(cmds) != 1 || cmds[0].Name != "rm" {
		t.Errorf("%d nested subshells: %v, %v", MaxNesting-1, cmds, err)
	}
	evals := strings.Repeat("eval ", MaxScriptDepth) + "rm -rf /"
	cmds, err = Parse(context.Background(), evals)
	if err != nil || len(cmds) != 1 || len(cmds[0].WrappedBy) != MaxScriptDepth {
		t.Errorf("%d nested evals: %v, %v", MaxScriptDepth, cmds, err)
	}
}

// TestParseHostile feeds inputs built to be slow or deep and checks that
// each fails or succeeds without crashing and within a bound on the
// memory it allocates. What it guards against is a blow-up, quadratic or
// exponential in the input (a brace expansion, a chain of wrappers, a
// nested script parsed again at every level); such a blow-up allocates as
// it goes, and what Parse allocates does not change with the machine's
// load, unlike the time it takes (a second on a loaded machine under
// -race for a line the same parse does in a tenth of that alone).
func TestParseHostile(t *testing.T) {
	// The bounds are generous: the worst line below (3000 "time"s, cut
	// at maxDepth) allocates about 14 MiB and 13,000 times; one wrapper
	// list copied per level past maxDepth, or {a,b} twenty times expanded
	// whole, passes both.
	const maxBytes, maxMallocs = 32 << 20, 100_000
	lines := []string{
		strings.Repeat("time ", 3000) + "rm",
		strings.Repeat("! ", 3000) + "rm",
		strings.Repeat("a|", 5000) + "a",
		strings.Repeat("{a,b}", 20),
		"echo " + strings.Repeat("{a,b}", 8) + " " + strings.Repeat("{1..9}", 3),
		strings.Repeat("${a:-", 90) + strings.Repeat("}", 90),
		strings.Repeat(`"$(`, 60) + strings.Repeat(`)"`, 60),
		strings.Repeat("x=$(", 50) + strings.Repeat(")", 50),
		strings.Repeat("sudo ", 3000) + "rm",
		strings.Repeat("bash -c ", 100) + "rm",
		strings.Repeat("<<EOF ", 1000),
		"echo {0..9223372036854775807} {-9223372036854775808..9223372036854775807..-9223372036854775808}",
		strings.Repeat("[[ ", 60) + strings.Repeat("]] ", 60),
		strings.Repeat("`", 5000),
		strings.Repeat(`"'`, 5000),
		strings.Repeat("f(){ ", 99) + strings.Repeat("}", 99),
	}
	for _, line := range lines {
		var cmds []Command
		var err error
		bytes, mallocs := allocated(func() { cmds, err = Parse(context.Background(), line) })
		if bytes > maxBytes || mallocs > maxMallocs {
			t.Errorf("Parse(%.40q…) allocated %d KiB in %d allocations, want at most %d KiB and %d", line, bytes>>10, mallocs, maxBytes>>10, maxMallocs)
		}
		if err == nil {
			checkInvariants(t, line, cmds)
		}
	}
}

// allocated returns the bytes and the number of allocations the process
// made while f ran. The tests of this package do not run in parallel, so
// they are f's.
func allocated(f func()) (bytes, mallocs uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
}

func TestParseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Parse(ctx, "ls; ls"); !errors.Is(err, context.Canceled) {
		t.Errorf("Parse with a cancelled context: %v, want context.Canceled", err)
	}
}

func TestNesting(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"ls -la", 0},
		{"(a)", 1},
		{"echo '(((((('", 0},
		{`echo "((((("`, 1},
		{`echo "$(a "$(b)")"`, 4},
		{`echo $'\'((('`, 0},
		{"echo a # (((((", 0},
		{"echo a#(", 1},
		{`echo \(\(\(`, 0},
		{"a `b `", 1},
		{"x[a[b[1]]]", 3},
	}
	for _, tc := range tests {
		if got := nesting(tc.s, MaxNesting); got != tc.want {
			t.Errorf("nesting(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}
