package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultCanary is the command the canary tool call runs — as a string in
// the event, never run.
const DefaultCanary = "rm -rf /"

// Options configure Check.
type Options struct {
	// Files are the settings files to read; empty means the agent's own
	// locations for Home and Project (those that exist).
	Files []string
	// Home is the user's home directory; Project the directory the agent
	// runs in (and runs its hooks in).
	Home, Project string
	// Canary is the command the canary calls; empty means DefaultCanary.
	Canary string
	// Env is the environment the agent was started with (os.Environ()).
	Env []string
	// ManagedDir is where the agent's managed settings are: empty means
	// the agent's own place on this system, read only when Files is
	// empty too (as the agent reads them, above the user's settings).
	ManagedDir string
}

// sources are the files Check reads, lowest precedence first, and
// whether a missing one is fine (the agent's own locations).
func sources(a Agent, opts Options) ([]Source, bool) {
	var out []Source
	for _, f := range opts.Files {
		out = append(out, Source{File: f})
	}
	optional := len(opts.Files) == 0
	if optional {
		projectDir := filepath.Clean(opts.Project) + string(filepath.Separator)
		for _, f := range a.Settings(opts.Home, opts.Project) {
			s := Source{File: f}
			if strings.HasPrefix(f, projectDir) {
				s.Project = opts.Project
			}
			out = append(out, s)
		}
	}
	dir := opts.ManagedDir
	if dir == "" && optional && a.ManagedDirs != nil {
		dir = a.ManagedDirs[runtime.GOOS]
	}
	if dir != "" && a.ManagedFiles != nil {
		// Managed settings exist on few machines: missing ones are fine
		// even when the directory was named.
		for _, f := range a.ManagedFiles(dir) {
			out = append(out, Source{File: f, Managed: true})
		}
		if !optional {
			out = expand(out)
			var kept []Source
			for _, s := range out {
				if _, err := os.Stat(s.File); !s.Managed || err == nil {
					kept = append(kept, s)
				}
			}
			out = kept
		}
	}
	return out, optional
}

// A Result is one entry, checked.
type Result struct {
	Entry
	// Hookhost reports whether the entry runs hookhost (its command, or
	// serve's agent endpoint).
	Hookhost bool `json:"hookhost"`
	// Skipped says why the entry was not run (its matcher does not select
	// the shell tool); it then does not count.
	Skipped string `json:"skipped,omitempty"`
	Verdict
	// Warnings are what is worth fixing in an entry that is not
	// hookhost's (a missing onFailure).
	Warnings   []string `json:"warnings,omitempty"`
	DurationMS float64  `json:"duration_ms"`
}

// A Report is the whole check.
type Report struct {
	Agent   string   `json:"agent"`
	Event   string   `json:"event"`
	Canary  string   `json:"canary"`
	Files   []string `json:"files"`
	Entries []Result `json:"entries"`
	// Enforcing is true when some entry stops the canary, every one of
	// hookhost's does, and none is broken.
	Enforcing bool `json:"enforcing"`
	// Problem says why not, when no entry is at fault (none at all).
	Problem string `json:"problem,omitempty"`
}

// Check reads the agent's settings and checks every entry on its guard
// event. Its error is a *SettingsError (a file that cannot be read or
// parsed) or ctx's.
func Check(ctx context.Context, a Agent, opts Options) (Report, error) {
	if opts.Canary == "" {
		opts.Canary = DefaultCanary
	}
	srcs, optional := sources(a, opts)
	st, err := Load(a, srcs, optional)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Agent: a.Name, Event: a.GuardEvent, Canary: opts.Canary, Files: st.Files, Entries: make([]Result, len(st.Entries))}
	if rep.Files == nil {
		rep.Files = []string{}
	}
	var wg sync.WaitGroup
	for i, e := range st.Entries {
		// An entry the agent does not run is reported with why, not run,
		// and does not count.
		switch {
		case st.Off != "":
			rep.Entries[i] = Result{Entry: e, Hookhost: isHookhost(e), Skipped: a.Title + " runs no hooks: " + st.Off}
		case st.UnmanagedOff != "" && !e.Managed:
			rep.Entries[i] = Result{Entry: e, Hookhost: isHookhost(e), Skipped: a.Title + " does not run it: " + st.UnmanagedOff}
		case e.NotRun != "":
			rep.Entries[i] = Result{Entry: e, Hookhost: isHookhost(e), Skipped: a.Title + " does not run it: " + e.NotRun}
		default:
			wg.Go(func() { rep.Entries[i] = checkEntry(ctx, a, opts, e) })
		}
	}
	wg.Wait()
	var looked []string
	for _, s := range srcs {
		looked = append(looked, s.File)
	}
	rep.Enforcing, rep.Problem = judge(a, rep, looked)
	if st.Off != "" {
		rep.Enforcing, rep.Problem = false, st.Off
	}
	return rep, ctx.Err()
}

// counts reports whether an entry that does not enforce makes the whole
// check fail: hookhost's entries always, and any entry that is broken
// (the agent reads its answer as a failed hook). Another program's entry
// that runs and has no opinion on the canary — a logger, a guard of
// something else — is not a guard that failed.
func (r Result) counts() bool { return r.Hookhost || r.Failed }

// judge is the report's verdict.
func judge(a Agent, rep Report, looked []string) (bool, string) {
	some, all := false, true
	for _, r := range rep.Entries {
		if r.Skipped != "" {
			continue
		}
		some = some || r.Enforcing
		all = all && (r.Enforcing || !r.counts())
	}
	switch {
	case len(rep.Files) == 0:
		return false, fmt.Sprintf("no settings file: looked for %s", strings.Join(looked, ", "))
	case len(rep.Entries) == 0:
		return false, fmt.Sprintf("no hook entry on %s, the event before a tool call: nothing guards %s's tool calls", a.GuardEvent, a.Title)
	case !some:
		return false, fmt.Sprintf("no entry on %s blocks the canary", a.GuardEvent)
	}
	return some && all, ""
}

// checkEntry runs one entry with the canary and judges its answer.
func checkEntry(ctx context.Context, a Agent, opts Options, e Entry) Result {
	r := Result{Entry: e, Hookhost: isHookhost(e)}
	switch ok, err := e.Matches(a.ShellTool); {
	case err != nil:
		r.Verdict = failed("", fmt.Sprintf("%v: %s cannot use this entry", err, a.Title))
		return r
	case !ok:
		r.Skipped = fmt.Sprintf("its matcher %q does not select %s's shell tool (%s)", e.Matcher, a.Title, a.ShellTool)
		return r
	}
	timeout := e.Timeout
	if timeout == 0 {
		timeout = a.DefaultTimeout
	}
	event, _ := json.Marshal(a.Canary(opts.Canary, opts.Project))
	start := time.Now()
	switch e.Type {
	case "command":
		r.Verdict = runCommand(ctx, a, opts, e, event, timeout)
	case "http":
		r.Verdict = post(ctx, a, opts, e, event, timeout)
	default:
		r.Verdict = notEnforcing("", fmt.Sprintf("a %q hook: doctor runs only command and http hooks", e.Type))
	}
	r.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	failsOpen(a, &r)
	return r
}

// failsOpen marks an entry that would let calls through when it fails:
// hookhost's own entries then do not enforce; others get a warning.
func failsOpen(a Agent, r *Result) {
	var why []string
	if r.Hookhost && slices.Contains(strings.Fields(r.Command), "--fail-open") {
		why = append(why, "--fail-open lets every call through when hookhost itself fails")
	}
	if a.OnFailure && r.OnFailure != "block" {
		what := "a hook that cannot start or times out"
		if r.Type == "http" {
			what = "a server that is down, late or answers an error"
		}
		why = append(why, fmt.Sprintf("no \"onFailure\": \"block\": %s lets the call through (%s 2.1.295 and later honour the key)", what, a.Title))
	}
	if a.FailClosedKey && r.FailClosed {
		const all = "failClosed: true blocks every call the hooks have no opinion on too (hookhost prints nothing then): remove it"
		if !r.Hookhost {
			r.Warnings = append(r.Warnings, all)
		} else if r.Enforcing {
			r.Enforcing, r.Reason = false, all
		} else {
			r.Reason += "; " + all
		}
	}
	if len(why) == 0 {
		return
	}
	if !r.Hookhost {
		r.Warnings = append(r.Warnings, why...)
		return
	}
	if r.Enforcing {
		r.Enforcing, r.Reason = false, "fails open: "+strings.Join(why, "; ")
	} else {
		r.Reason += "; it also fails open: " + strings.Join(why, "; ")
	}
}

// isHookhost reports whether the entry runs hookhost: a word of its
// command names the hookhost program, or its URL is serve's agent
// endpoint.
func isHookhost(e Entry) bool {
	if e.Type == "http" {
		return strings.Contains(e.URL, "/v1/agents/")
	}
	for _, w := range strings.Fields(e.Command) {
		if b := filepath.Base(strings.Trim(w, `"'`)); b == "hookhost" || strings.HasPrefix(b, "hookhost-") {
			return true
		}
	}
	return false
}

// maxOutput bounds what doctor keeps of a hook's stdout and stderr.
const maxOutput = 1 << 20

// runCommand runs the entry's command as the agent does: sh -c, in the
// project directory, the event on stdin, the agent's environment, killed
// (its whole process group) at the timeout.
func runCommand(ctx context.Context, a Agent, opts Options, e Entry, event []byte, timeout time.Duration) Verdict {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	shell := a.Shell
	if shell == "" {
		shell = "sh"
	}
	cmd := exec.CommandContext(ctx, shell, "-c", e.Command)
	if e.Exec != "" {
		cmd = exec.CommandContext(ctx, e.Exec, e.Args...)
	}
	cmd.Dir = opts.Project
	if e.Cwd != "" {
		cmd.Dir = filepath.Join(opts.Project, e.Cwd)
		if filepath.IsAbs(e.Cwd) {
			cmd.Dir = e.Cwd
		}
	}
	cmd.Env = append(slices.Clone(opts.Env), a.Env(opts.Project)...)
	for k, v := range e.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = bytes.NewReader(event)
	var stdout, stderr limitedBuffer
	stdout.max, stderr.max = maxOutput, maxOutput
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	killGroup(cmd)
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return failed("no answer within "+timeout.String(), fmt.Sprintf("timed out after %s: %s kills the hook and %s",
			timeout, a.Title, a.afterFailure()))
	case errors.As(err, &ee):
		return a.Read(ee.ExitCode(), stdout.Bytes(), stderr.Bytes())
	case err != nil:
		return failed("", fmt.Sprintf("the command could not be run: %v; %s %s", err, a.Title, a.afterFailure()))
	}
	return a.Read(0, stdout.Bytes(), stderr.Bytes())
}

// afterFailure is what the agent does when a hook fails.
func (a Agent) afterFailure() string {
	switch {
	case a.ErrorBlocks:
		return "denies the call (and every other call while the hook fails)"
	case a.OnFailure:
		return "lets the call through (with onFailure \"block\", 2.1.295 and later block)"
	case a.FailClosedKey:
		return "lets the call through (unless the entry has failClosed)"
	}
	return "lets the call through"
}

// post sends the canary to an http entry as the agent does: its headers,
// with the environment variables allowedEnvVars names filled in (the
// others empty), within its timeout.
func post(ctx context.Context, a Agent, opts Options, e Entry, event []byte, timeout time.Duration) Verdict {
	if a.ReadHTTP == nil {
		return notEnforcing("", a.Title+" has no http hooks: it ignores this entry")
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL, bytes.NewReader(event))
	if err != nil {
		return failed("", fmt.Sprintf("the URL %q: %v", e.URL, err))
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range e.Headers {
		req.Header.Set(k, expandAllowed(v, e.AllowedEnvVars, opts.Env))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		reason := fmt.Sprintf("could not reach %s: %v (is hookhost serve running?); %s lets the call through "+
			"(with onFailure \"block\", 2.1.295 and later block every call)", e.URL, err, a.Title)
		if ctx.Err() == context.DeadlineExceeded {
			reason = fmt.Sprintf("no answer within %s: %s lets the call through (with onFailure \"block\", 2.1.295 and later block)", timeout, a.Title)
		}
		return failed("no answer", reason)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxOutput))
	if err != nil {
		return failed("", fmt.Sprintf("reading the answer: %v", err))
	}
	return a.ReadHTTP(resp.StatusCode, body)
}

// envRef is a header's reference to an environment variable.
// Compiled on first use, as notFound.
var envRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)
})

// expandAllowed fills in $VAR and ${VAR} from env for the variables
// allowed lists and with nothing for the others, as Claude Code does.
func expandAllowed(s string, allowed, env []string) string {
	re := envRef()
	return re.ReplaceAllStringFunc(s, func(ref string) string {
		m := re.FindStringSubmatch(ref)
		name := m[1] + m[2]
		if !slices.Contains(allowed, name) {
			return ""
		}
		return lookup(env, name)
	})
}

// lookup is name's value in env, the last one set.
func lookup(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

// A limitedBuffer keeps the first max bytes written and drops the rest,
// so a hook that floods its output cannot grow doctor.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

// Write keeps what fits under max and reports all of p written, so the
// hook writing never sees an error.
func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// Defaults are the options for the running process: its home, its
// working directory as the project, its environment.
func Defaults() (Options, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Options{}, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return Options{}, err
	}
	return Options{Home: home, Project: wd, Env: os.Environ()}, nil
}
