package host

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// A loadedFile is one script file as a reload left it: the version
// serving (live) and the error of its latest content, if that failed.
// A loadedFile is never changed once built: a reload that sees new
// content makes a new one, so the set of files a snapshot was built from
// stays as it was while the next reload is being built.
type loadedFile struct {
	path string
	// pack is the hook pack the file belongs to; empty for a top-level
	// file.
	pack string
	live *version // nil until a version compiles and validates
	err  error    // the latest content's error; nil when live is latest
	// lastHash is the hash of the latest content seen, good or bad, so an
	// unchanged bad file is not recompiled on every reload (or the mark of
	// the error that kept it from being read, so an unchanged failure to
	// read is not news either). It is only recorded for a compile that ran
	// to its end.
	lastHash string
	// unit is the worker the latest content was compiled in ("" in
	// process): a change of isolation compiles the file again.
	unit string
}

// A version is one compiled content of a file. Every snapshot that holds
// it counts one reference; the program is closed when the last snapshot
// holding it is retired, so a fire in flight never calls a closed
// program.
type version struct {
	hash string // sha256 hex prefix of the source
	prog scripting.Program
	// unit is the worker prog was compiled in ("" in process).
	unit string
	refs atomic.Int64
}

func (v *version) acquire() { v.refs.Add(1) }

func (v *version) release() {
	if v.refs.Add(-1) == 0 {
		v.prog.Close()
	}
}

// versionLen is how many hex digits of the sha256 name a version.
const versionLen = 12

// A fileSet is the outcome of scanning and compiling: the files of the
// next snapshot, what happened to each, and the versions compiled on the
// way, which belong to no snapshot yet.
type fileSet struct {
	files    map[string]*loadedFile
	packs    map[string]*packState
	outcomes []FileOutcome
	fresh    []*version
	notes    []string
	// dirErr is set when the directory could not be read and the set is
	// the last good one, kept.
	dirErr *DirError
}

// discard closes what the set compiled: it is not going to be published.
func (s *fileSet) discard() {
	for _, v := range s.fresh {
		v.prog.Close()
	}
}

// loadFiles scans the directory and compiles the files whose content
// changed since prev; the others keep their loadedFile. A file that
// fails keeps its previous good version. With retryFailed, files whose
// latest content failed are compiled again even if unchanged (new events
// may make them valid). With settle, a changed file is read until its
// content holds still (readSettled). If ctx ends, everything compiled is closed and
// nothing is recorded: the next reload starts from prev again.
func (h *Host) loadFiles(ctx context.Context, prev map[string]*loadedFile, prevPacks map[string]*packState, events map[string]*EventSpec, cfg *Config, retryFailed, settle bool) (*fileSet, error) {
	sc, err := h.scan()
	if err != nil {
		return nil, err
	}
	packs, packOutcomes := loadPacks(sc, prevPacks, h.env.Programs)
	set := &fileSet{files: make(map[string]*loadedFile, len(sc.files)), packs: packs, notes: sc.notes, outcomes: packOutcomes}
	names := sc.names()
	results := loadAll(ctx, names, func(name string) loadResult {
		f, outcome, err := h.loadFile(ctx, prev[name], sc.files[name], events, cfg, retryFailed, settle)
		return loadResult{f, outcome, err}
	}, func(name string) bool { return cfg.isolationOf(name, sc.files[name].pack) != ProcessIsolation })
	var firstErr error
	for i, name := range names {
		r := results[i]
		if r.outcome.fresh != nil {
			set.fresh = append(set.fresh, r.outcome.fresh)
		}
		if r.err != nil {
			firstErr = cmp.Or(firstErr, r.err)
			continue
		}
		set.files[name] = r.f
		set.outcomes = append(set.outcomes, r.outcome.FileOutcome)
	}
	if firstErr != nil {
		set.discard()
		return nil, firstErr
	}
	for name, f := range prev {
		if set.files[name] == nil {
			set.outcomes = append(set.outcomes, FileOutcome{Path: name, Outcome: FileRemoved, Pack: f.pack})
		}
	}
	sort.Slice(set.outcomes, func(i, j int) bool { return set.outcomes[i].Path < set.outcomes[j].Path })
	return set, nil
}

// A loadResult is what loadFile gave for one file.
type loadResult struct {
	f       *loadedFile
	outcome fileOutcome
	err     error
}

// loadAll runs load for each of names and returns the results in the
// same order. The files that run in process (inProcess) load in
// parallel, up to one per processor: a command an agent starts for each
// tool call must load every pack the event needs before it can answer,
// the packs are independent of one another, and the engines, their
// program cache and the directory are safe for concurrent use. Files
// that run in a worker process load one after another, in order. Once
// ctx is done, the files not started yet fail with its error.
func loadAll(ctx context.Context, names []string, load func(string) loadResult, inProcess func(string) bool) []loadResult {
	results := make([]loadResult, len(names))
	one := func(i int) {
		if err := ctx.Err(); err != nil {
			results[i].err = err
			return
		}
		results[i] = load(names[i])
	}
	var parallel []int
	for i, name := range names {
		if inProcess(name) {
			parallel = append(parallel, i)
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(parallel)) - 1 { // and this goroutine
		wg.Go(func() {
			for j := int(next.Add(1)) - 1; j < len(parallel); j = int(next.Add(1)) - 1 {
				one(parallel[j])
			}
		})
	}
	for j := int(next.Add(1)) - 1; j < len(parallel); j = int(next.Add(1)) - 1 {
		one(parallel[j])
	}
	wg.Wait()
	for i, name := range names {
		if !inProcess(name) {
			one(i)
		}
	}
	return results
}

// A DirError is a reload's error when the hooks directory itself, or a
// subdirectory of it (a hook pack, or what may be one), cannot be read:
// it is missing (moved away, deleted), not a directory, not readable, or
// (a subdirectory) a symlink that leads outside the hooks directory. A host that loaded before keeps its last good hooks serving
// and shows the error among its problems until the directory is back; a
// first load (New) fails with it.
type DirError struct {
	Dir string // the directory as given (Options.Dir), or "." for an fs.FS
	Err error
}

// Error names the directory and why it cannot be read.
func (e *DirError) Error() string {
	return fmt.Sprintf("%s: cannot read the hooks directory: %v", e.Dir, e.Err)
}

// Unwrap gives the file system's error.
func (e *DirError) Unwrap() error { return e.Err }

// dirName names the hooks directory in messages.
func (h *Host) dirName() string {
	if h.dir == "" {
		return "."
	}
	return filepath.ToSlash(h.dir)
}

// A scanned file is a script found by the scan.
type scannedFile struct {
	name string // relative to the directory, slash-separated
	pack string
}

// A scanResult is what one scan of the directory found.
type scanResult struct {
	files map[string]scannedFile
	packs []*packInfo
	notes []string
}

func (s *scanResult) names() []string {
	out := make([]string, 0, len(s.files))
	for n := range s.files {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// scan lists the script files of the directory and of its hook packs.
// Names starting with "." (editor files, a ConfigMap's ..data) and test
// files (*_test.lua, *_test.star) are skipped; symlinks are followed
// within the directory (see DirFS).
func (h *Host) scan() (*scanResult, error) {
	entries, err := fs.ReadDir(h.fsys, ".")
	if err != nil {
		return nil, &DirError{Dir: h.dirName(), Err: err}
	}
	sc := &scanResult{files: map[string]scannedFile{}}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		switch kind, err := h.entryKind(name, e); kind {
		case entryScript:
			sc.files[name] = scannedFile{name: name}
		case entryDir:
			if err := h.scanPack(sc, name); err != nil {
				return nil, err
			}
		default:
			if h.outsideDir(err) {
				// A pack linked in from elsewhere cannot be read, and
				// leaving it out would drop its guards in silence.
				return nil, &DirError{Dir: h.dirName() + "/" + name, Err: err}
			}
			sc.noteOutside(name, err)
		}
	}
	return sc, nil
}

// outsideDir reports whether a top-level entry left out for leading
// outside the hooks directory (err, from DirFS) is a directory there: a
// hook pack, perhaps, that the host must not read.
func (h *Host) outsideDir(err error) bool {
	var oe *OutsideError
	return errors.As(err, &oe) && oe.Dir
}

type entryKind int

const (
	entryOther entryKind = iota
	entryScript
	entryDir
)

// entryKind classifies a directory entry, following symlinks. A symlink
// that cannot be followed (its target is missing, or outside the hooks
// directory) counts as a script when its name is one, so that loading it
// reports why; otherwise err says why it is left out.
func (h *Host) entryKind(name string, e fs.DirEntry) (entryKind, error) {
	mode := e.Type()
	if mode&fs.ModeSymlink != 0 {
		info, err := fs.Stat(h.fsys, name)
		if err != nil {
			if h.isScript(path.Base(name)) {
				return entryScript, nil
			}
			return entryOther, err
		}
		mode = info.Mode()
	}
	switch {
	case mode.IsDir():
		return entryDir, nil
	case mode.IsRegular() && h.isScript(path.Base(name)):
		return entryScript, nil
	}
	return entryOther, nil
}

// noteOutside notes an entry left out because it is a symlink leading
// outside the hooks directory (a script so linked is a load error
// instead).
func (s *scanResult) noteOutside(name string, err error) {
	if errors.Is(err, ErrOutsideDir) {
		s.notes = append(s.notes, fmt.Sprintf("%s: a symlink that leads outside the hooks directory, ignored", name))
	}
}

// isScript reports whether a file name is a hook script of the host's
// engines (see scriptName).
func (h *Host) isScript(base string) bool {
	return scriptName(base, func(ext string) bool { return h.engines[ext] != nil })
}

// A fileOutcome is a FileOutcome and the version compiled for it, if
// any.
type fileOutcome struct {
	FileOutcome
	fresh *version
}

// loadFile compiles a file if its content changed since prev (with
// settle, once the new content stopped changing: see readSettled). The
// error is only for a read or compile cut short by ctx.
func (h *Host) loadFile(ctx context.Context, prev *loadedFile, sf scannedFile, events map[string]*EventSpec, cfg *Config, retryFailed, settle bool) (*loadedFile, fileOutcome, error) {
	name := sf.name
	if prev == nil {
		prev = &loadedFile{path: name, pack: sf.pack}
	}
	out := fileOutcome{FileOutcome: FileOutcome{Path: name, Pack: sf.pack}}
	code, sum, err := h.readSettled(ctx, name, prev.lastHash, settle)
	if err != nil && ctx.Err() != nil {
		return nil, out, fmt.Errorf("reading %s: %w", name, ctx.Err())
	}
	if err != nil {
		unreadable := unreadableMark(err)
		if unreadable == prev.lastHash && prev.pack == sf.pack { // the same failure as last time
			out.Outcome, out.Err, out.Version = FileUnchanged, prev.err, prev.liveHash()
			return prev, out, nil
		}
		f := &loadedFile{path: name, pack: sf.pack, live: prev.live, unit: prev.unit, lastHash: unreadable, err: readError(name, err)}
		return f, out.failed(f), nil
	}
	if sum == nil { // hashed once, here, for the version and the engine's program key
		computed := sha256.Sum256(code)
		sum = &computed
	}
	hash := sumHash(*sum)
	unit, engine := h.engineFor(cfg, name, sf.pack)
	if hash == prev.lastHash && prev.pack == sf.pack && prev.unit == unit && !(retryFailed && prev.err != nil) {
		out.Outcome, out.Err = FileUnchanged, prev.err
		out.Version = prev.liveHash()
		return prev, out, nil
	}
	var prog scripting.Program
	err = nulByte(name, code)
	if err == nil {
		prog, err = engine.Compile(ctx, scripting.Source{Name: name, Code: code, Sum: sum}, h.env)
	}
	if err != nil && ctx.Err() != nil {
		return nil, out, fmt.Errorf("compiling %s: %w", name, ctx.Err())
	}
	if err != nil { // the engine's text, which may quote the file
		err = clipLoadError(name, err)
	}
	if err == nil {
		if err = errors.Join(checkEvents(name, lastByName(prog.Hooks()), events), hookless(name, code, prog)); err != nil {
			prog.Close()
		}
	}
	if err != nil {
		f := &loadedFile{path: name, pack: sf.pack, live: prev.live, err: err, lastHash: hash, unit: unit}
		return f, out.failed(f), nil
	}
	v := &version{hash: hash, prog: prog, unit: unit}
	out.Outcome, out.Version, out.fresh = FileReloaded, hash, v
	if prev.live == nil && prev.lastHash == "" {
		out.Outcome = FileAdded
	}
	return &loadedFile{path: name, pack: sf.pack, live: v, lastHash: hash, unit: unit}, out, nil
}

// readError is the load error of a file that could not be read. A
// symlink leading outside the hooks directory is named as such, and its
// target never: the link's name is the operator's to fix.
func readError(name string, err error) error {
	if errors.Is(err, ErrOutsideDir) {
		return &scripting.Error{File: name, Err: err,
			Msg: "a symlink that leads outside the hooks directory: not loaded (symlinks are followed only to files inside it)"}
	}
	if errors.Is(err, errUnsettled) {
		return &scripting.Error{File: name, Msg: err.Error(), Err: err}
	}
	return &scripting.Error{File: name, Msg: fmt.Sprintf("cannot read: %v", err), Err: err}
}

// engineFor is the engine that compiles a file, and the worker unit it
// runs in ("" in process): a file configured "isolation: process" runs in
// a worker of its own, or in its pack's.
func (h *Host) engineFor(cfg *Config, name, pack string) (unit string, e scripting.Engine) {
	ext := path.Ext(name)
	if cfg.isolationOf(name, pack) != ProcessIsolation {
		return "", h.engines[ext]
	}
	unit = name
	if pack != "" {
		unit = pack + "/"
	}
	return unit, h.workers.Engine(unit, ext)
}

func (o fileOutcome) failed(f *loadedFile) fileOutcome {
	o.Outcome, o.Err, o.Version = FileFailed, f.err, f.liveHash()
	return o
}

func (f *loadedFile) liveHash() string {
	if f.live == nil {
		return ""
	}
	return f.live.hash
}

// nulByte refuses a file holding a NUL byte. go.starlark.net's scanner
// takes one for the end of the file and drops what follows without a
// word, so a file could show a reader a guard that never loads; a hook
// file is text, in both languages.
func nulByte(name string, code []byte) error {
	i := bytes.IndexByte(code, 0)
	if i < 0 {
		return nil
	}
	return &scripting.Error{File: name, Line: 1 + bytes.Count(code[:i], []byte{'\n'}),
		Msg: "the file holds a NUL byte, which a hook file must not: Starlark would stop reading there and ignore the rest"}
}

// hookless refuses a file that registers no hook. A guard emptied
// (": > guard.lua") or caught half written compiles to nothing, and
// publishing that would switch its hooks off without a word; as a load
// error, the file's last good version keeps serving, strict mode counts
// it, and check reports it.
func hookless(name string, code []byte, prog scripting.Program) error {
	if len(prog.Hooks()) > 0 {
		return nil
	}
	msg := "registers no hook (a hook file must call hook.on at least once)"
	if len(bytes.TrimSpace(code)) == 0 {
		msg = "the file is empty: it registers no hook"
	}
	return &scripting.Error{File: name, Msg: msg}
}

// maxLoadErrorText is the longest message a load error keeps.
const maxLoadErrorText = 200

// clipLoadError keeps of each message of a load error its first line, at
// most maxLoadErrorText bytes, with a marker saying how much was left
// out. An engine's message may quote the source near the fault (the
// token, an unterminated string), and a file that is not a script at all
// (a secret copied or linked in, a binary) must not come back through
// problems, status and logs; the offending line, clipped, is enough to
// find the fault. Each error keeps its file, line and cause.
func clipLoadError(file string, err error) error {
	leaves := flattenErrors(err)
	out := make([]error, len(leaves))
	for i, e := range leaves {
		if se, ok := e.(*scripting.Error); ok {
			c := *se
			c.Msg, c.Backtrace = clipLine(se.Msg), clipLine(se.Backtrace)
			out[i] = &c
			continue
		}
		out[i] = &scripting.Error{File: file, Msg: clipLine(e.Error()), Err: e}
	}
	if len(out) == 1 {
		return out[0]
	}
	return errors.Join(out...)
}

// clipLine is s up to its first newline, at most maxLoadErrorText bytes.
func clipLine(s string) string {
	n := maxLoadErrorText
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < n {
		n = i
	}
	return scripting.Clip(s, n)
}

// Settling: a file written in place (truncated, then filled) is empty or
// half written for a moment, and a rescan that reads it then must not
// take that for the new version.
const (
	// settleInterval is how long a changed file's content must stay the
	// same before it is compiled.
	settleInterval = 20 * time.Millisecond
	// settleMax bounds the wait for a file that keeps changing: it then
	// fails to load (errUnsettled), so its last good version serves until
	// a later rescan finds it still.
	settleMax = 2 * time.Second
)

// errUnsettled is the read error of a file that kept changing for
// settleMax.
var errUnsettled = fmt.Errorf("the file kept changing for %v while it was read; it loads once it holds still", settleMax)

// readSettled reads a file. With settle, content other than the one last
// seen (lastHash) is read again after settleInterval until two reads in
// a row agree, and the file's size and modification time did not change
// between them; after settleMax it fails with errUnsettled.
// Without settle, a SumFS gives the content's SHA-256 with it; otherwise
// the sum is nil.
func (h *Host) readSettled(ctx context.Context, name, lastHash string, settle bool) ([]byte, *[sha256.Size]byte, error) {
	if sfs, ok := h.fsys.(SumFS); ok && !settle {
		code, sum, err := sfs.ReadFileSum(name)
		if err != nil {
			return nil, nil, err
		}
		return code, &sum, nil
	}
	code, err := settled(ctx, lastHash, settle, func() (fs.FileInfo, error) { return fs.Stat(h.fsys, name) },
		func() ([]byte, error) { return fs.ReadFile(h.fsys, name) })
	return code, nil, err
}

// settled is readSettled for any file, given how to stat and read it.
func settled(ctx context.Context, lastHash string, settle bool, stat func() (fs.FileInfo, error), read func() ([]byte, error)) ([]byte, error) {
	// A read's stamp is the file's size and time before it: two reads
	// that agree may still have straddled a truncation and a refill.
	stamped := func() (string, []byte, error) {
		info, err := stat()
		if err != nil {
			return "", nil, err
		}
		data, err := read()
		return fmt.Sprint(info.Size(), info.ModTime().UnixNano()), data, err
	}
	if !settle {
		return read()
	}
	stamp, code, err := stamped()
	if err != nil || contentHash(code) == lastHash {
		return code, err
	}
	deadline := time.Now().Add(settleMax)
	timer := time.NewTimer(settleInterval)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
		}
		again, data, err := stamped()
		if err != nil || again == stamp && bytes.Equal(data, code) {
			return data, err
		}
		if time.Now().After(deadline) {
			return nil, errUnsettled
		}
		stamp, code = again, data
		timer.Reset(settleInterval)
	}
}
