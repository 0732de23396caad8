package testrun

import (
	"context"
	"errors"
	"fmt"
	"github.com/hookhost/hookhost/scripting/engines"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib/state"
)

// Options configure a run.
type Options struct {
	// Dir is the hooks directory under test.
	Dir string
	// Config is the operator's config the host runs with; nil means none.
	Config *host.Config
	// Logger receives the host's and the tests' logs; nil discards them.
	Logger *slog.Logger
	// Match selects the tests to run by name (a script test's function
	// name, a table case's name); nil runs every test.
	Match *regexp.Regexp
	// Timeout bounds each test; zero means DefaultTimeout.
	Timeout time.Duration
	// OnResult, when set, is called with each result as its test ends.
	OnResult func(Result)
}

// DefaultTimeout is how long one test may run.
const DefaultTimeout = 5 * time.Second

// An Outcome is how a test ended.
type Outcome string

const (
	// Pass: every expectation held.
	Pass Outcome = "pass"
	// Fail: an expectation did not hold, a hook failed during a fire, or
	// the test raised an error.
	Fail Outcome = "fail"
	// Error: the test could not do what it meant to: it timed out, or
	// asked hook.fire for an unknown event, a bad payload or an unknown
	// option.
	Error Outcome = "error"
)

// A Result is one test's result.
type Result struct {
	// File is the test file, relative to the hooks directory
	// ("guard_test.lua", "pack/limits_test.yaml").
	File string
	// Name is the test function's name, or the table case's.
	Name string
	// Line is where the test is defined.
	Line int
	// Outcome is how it ended.
	Outcome Outcome
	// Duration is how long it ran.
	Duration time.Duration
	// Failure says why it did not pass, as file:line: message; empty
	// when it passed.
	Failure string
	// Fires are the fires the test made, in order.
	Fires []Fire
}

// A Fire is one hook.fire (or table case) and what it produced.
type Fire struct {
	Event   string
	Payload map[string]any
	Result  host.Result
}

// A Report is what a run found.
type Report struct {
	// Results are the tests that ran, in file order, then definition
	// order.
	Results []Result
	// LoadErrors are the test files that could not be loaded, each as
	// file:line: message.
	LoadErrors []error
	// Problems are the hook files of the directory that could not be
	// loaded (host.Host.Problems).
	Problems []error
	// Hooks are the directory's hooks, for coverage.
	Hooks []host.HookInfo
	// Files are the directory's script files, as the host loaded them.
	Files []host.FileStatus
}

// Passed counts the tests that passed.
func (r *Report) Passed() int {
	n := 0
	for _, res := range r.Results {
		if res.Outcome == Pass {
			n++
		}
	}
	return n
}

// Failed counts the tests that did not pass.
func (r *Report) Failed() int { return len(r.Results) - r.Passed() }

// tableExtensions are the extensions of table-test files.
var tableExtensions = []string{".yaml", ".json"}

// Run loads the directory's hooks once to learn its problems and hooks,
// then runs every test file. It fails only when the hooks cannot be
// loaded at all (no directory, a config that does not fit the events) or
// the test files cannot be listed; problems in single files are in the
// report. When ctx ends, the running test is interrupted, no other test
// starts, and Run returns the report so far with ctx's error.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	r := &runner{opts: opts, report: &Report{}}
	h, err := r.newHost(ctx, "")
	if err != nil {
		return nil, err
	}
	r.report.Problems, r.report.Hooks, r.report.Files = h.Problems(), h.Hooks(), h.Files()
	h.Close()
	files, err := Find(opts.Dir)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return r.report, err
		}
		r.runFile(ctx, f)
	}
	return r.report, ctx.Err()
}

type runner struct {
	opts   Options
	report *Report
}

// newHost makes a host on the directory under test, with a memory state
// store of its own whatever the config names: tests must neither read
// nor change a shared store's keys. The report names
// the hook files that do not load (Problems), so the host is given an
// observer that keeps its reloads out of the log: without one it would
// log each failed file again, once per host the run makes. hooksDir is
// what the hooks see as ctx.hooks_dir; "" means the directory tested.
func (r *runner) newHost(ctx context.Context, hooksDir string) (*host.Host, error) {
	return host.New(ctx, host.Options{Dir: r.opts.Dir, HooksDir: hooksDir, Config: r.opts.Config, Logger: r.opts.Logger,
		Observer: host.NopObserver{}, State: state.Memory(nil)})
}

func (r *runner) selected(name string) bool {
	return r.opts.Match == nil || r.opts.Match.MatchString(name)
}

func (r *runner) add(res Result) {
	r.report.Results = append(r.report.Results, res)
	if r.opts.OnResult != nil {
		r.opts.OnResult(res)
	}
}

func (r *runner) loadError(err error) { r.report.LoadErrors = append(r.report.LoadErrors, err) }

func (r *runner) runFile(ctx context.Context, file string) {
	code, err := os.ReadFile(path.Join(r.opts.Dir, file))
	if err != nil {
		r.loadError(scripting.Errorf(file, 0, "cannot read: %v", err))
		return
	}
	if slices.Contains(tableExtensions, path.Ext(file)) {
		r.runTableFile(ctx, file, code)
		return
	}
	r.runScriptFile(ctx, file, code)
}

// Find lists the test files of dir and of its subdirectories one level
// deep (hook packs), relative to dir with forward slashes, sorted: files
// named *_test.lua, *_test.star, *_test.yaml or *_test.json. Names
// starting with "." are skipped, as the host skips them; symlinks are
// followed.
func Find(dir string) ([]string, error) {
	fsys := os.DirFS(dir)
	top, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("reading the hooks directory: %w", err)
	}
	var out []string
	for _, e := range top {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."):
		case isDir(fsys, e):
			sub, err := fs.ReadDir(fsys, name)
			if err != nil {
				return nil, fmt.Errorf("reading %s: %w", name, err)
			}
			for _, s := range sub {
				if !strings.HasPrefix(s.Name(), ".") && !isDir(fsys, s) && IsTestFile(s.Name()) {
					out = append(out, name+"/"+s.Name())
				}
			}
		case IsTestFile(name):
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// isDir reports whether a directory entry is a directory, following a
// symlink.
func isDir(fsys fs.FS, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	info, err := fs.Stat(fsys, e.Name())
	return err == nil && info.IsDir()
}

// IsTestFile reports whether a file name is a test file's.
func IsTestFile(name string) bool {
	ext := path.Ext(name)
	if !strings.HasSuffix(strings.TrimSuffix(name, ext), "_test") {
		return false
	}
	return slices.Contains(tableExtensions, ext) || engineFor(ext) != nil
}

func engineFor(ext string) scripting.Engine { return engines.ByExtension()[ext] }

// failureText is an error as file:line: message, without the hook id a
// test call's error carries.
func failureText(err error) string {
	var se *scripting.Error
	if !errors.As(err, &se) {
		return err.Error()
	}
	if se.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", se.File, se.Line, se.Msg)
	}
	return fmt.Sprintf("%s: %s", se.File, se.Msg)
}
