package eventcache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hookhost/hookhost/host"
)

// formatVersion names the format of the file keys and of the programs'
// directory; a new format is a new directory.
const formatVersion = "v1"

// MaxEntries bounds the cache: past it, it starts again from what the
// current directory needs.
const MaxEntries = 1024

// A Cache maps file keys to the events their hooks are on.
type Cache struct {
	path     string
	stored   storedEvents        // the file's entries (events.go)
	added    map[string][]string // the entries learnt since, which win
	dirty    bool
	programs *programs // see Programs
}

// events are the events recorded for key.
func (c *Cache) events(key string) ([]string, bool) {
	if evs, ok := c.added[key]; ok {
		return evs, true
	}
	return c.stored.lookup(key)
}

// len is the number of entries (one learnt again counts twice: it is
// only ever learnt when the stored one was not found).
func (c *Cache) len() int { return len(c.stored.lines) + len(c.added) }

// DefaultPath is the per-user cache file, under os.UserCacheDir; empty
// when the user has none.
func DefaultPath() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "hookhost", eventsFileName)
}

// Open reads the cache at path; anything wrong with it is an empty cache.
func Open(path string) *Cache {
	c := &Cache{path: path, added: map[string][]string{}}
	if path == "" {
		return c
	}
	if !private(filepath.Dir(path)) || !private(path) {
		c.path = "" // off for this run: read nothing, write nothing
		return c
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return c
	}
	if stored, ok := parseEvents(data); ok {
		c.stored = stored
	}
	return c
}

// A Plan is the view of a hooks directory that one event needs.
type Plan struct {
	// FS serves the directory without the hidden files. The script files
	// it shows, it serves as Plan read them: the host compiles exactly the
	// content the plan keyed, and reads each file once.
	FS fs.FS
	// Hidden lists the script files left out, sorted.
	Hidden []string
	keys   map[string]string // file path → key, for every script seen
	salt   []byte
}

// Plan looks at every script file of fsys (isScript says which, by base
// name; the top level and one level of subdirectories, where hook packs
// live) and hides the ones whose recorded events do not include event.
// salt is what else the registrations depend on: the config's content and
// the executable's identity.
func (c *Cache) Plan(fsys fs.FS, salt []byte, event string, isScript func(base string) bool) (Plan, error) {
	p := Plan{keys: map[string]string{}, salt: salt}
	view := hiding{FS: fsys, hide: map[string]bool{}, data: map[string][]byte{}, sums: map[string][sha256.Size]byte{},
		dirs: map[string][]fs.DirEntry{}, given: &handedOut{names: map[string]bool{}}}
	err := walk(listing{fsys, view.dirs}, isScript, func(name string, data []byte) {
		sum := sha256.Sum256(data) // the one hash of this file in a command hook's process
		key := fileKey(salt, sum)
		p.keys[name] = key
		if events, ok := c.events(key); ok && !slices.Contains(events, event) {
			view.hide[name] = true
			p.Hidden = append(p.Hidden, name)
		} else {
			view.data[name], view.sums[name] = data, sum
		}
	})
	if err != nil {
		return Plan{}, err
	}
	slices.Sort(p.Hidden)
	p.FS = view
	return p, nil
}

// walk calls fn with the content of each regular script file (symlinks
// followed) of the top level and of its subdirectories, skipping names
// that start with ".".
func walk(fsys fs.FS, isScript func(string) bool, fn func(name string, data []byte)) error {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		switch mode := typeOf(fsys, e.Name(), e); {
		case mode.IsDir():
			walkDir(fsys, e.Name(), isScript, fn)
		case mode.IsRegular() && isScript(e.Name()):
			readInto(fsys, e.Name(), fn)
		}
	}
	return nil
}

func walkDir(fsys fs.FS, dir string, isScript func(string) bool, fn func(string, []byte)) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := path.Join(dir, e.Name())
		if strings.HasPrefix(e.Name(), ".") || !isScript(e.Name()) {
			continue
		}
		if typeOf(fsys, name, e).IsRegular() {
			readInto(fsys, name, fn)
		}
	}
}

// typeOf is the type of an entry, following a symlink (the one case
// that costs a stat).
func typeOf(fsys fs.FS, name string, e fs.DirEntry) fs.FileMode {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.Type()
	}
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return fs.ModeIrregular
	}
	return info.Mode().Type()
}

func readInto(fsys fs.FS, name string, fn func(string, []byte)) {
	if data, err := fs.ReadFile(fsys, name); err == nil {
		fn(name, data)
	}
}

// fileKey is the key of a file whose content's SHA-256 is sum: the host
// is handed the same sum with the content (hiding.ReadFileSum), so that
// the file is hashed once per process.
func fileKey(salt []byte, sum [sha256.Size]byte) string {
	h := sha256.New()
	h.Write([]byte(formatVersion))
	h.Write(salt)
	h.Write([]byte{0})
	h.Write(sum[:])
	return hex.EncodeToString(h.Sum(nil))
}

// Learn records the events of the files a host loaded through p: every
// file that loaded without error, with the events of its hooks (none
// when it registered none). Failed files are never recorded, so they are
// compiled, and reported, every time.
func (c *Cache) Learn(p Plan, files []host.FileStatus, hooks []host.HookInfo) {
	events := map[string][]string{}
	for _, h := range hooks {
		if !slices.Contains(events[h.File], h.Event) {
			events[h.File] = append(events[h.File], h.Event)
		}
	}
	for _, f := range files {
		key, ok := p.keys[f.Path]
		if !ok || f.Err != nil {
			continue
		}
		if _, known := c.events(key); known {
			continue
		}
		evs := events[f.Path]
		if evs == nil {
			continue // a file with no hooks is loaded, and reported, every time
		}
		slices.Sort(evs)
		c.put(p, key, evs)
	}
}

func (c *Cache) put(p Plan, key string, events []string) {
	if c.len() >= MaxEntries {
		keep := map[string][]string{}
		for _, k := range p.keys {
			if evs, ok := c.events(k); ok {
				keep[k] = evs
			}
		}
		c.stored, c.added = storedEvents{}, keep
	}
	c.added[key] = events
	c.dirty = true
}

// Save writes the cache if it learnt anything, atomically (a temporary
// file renamed over the old one), in a directory only the user can read,
// and the compiled programs put since the last save (see Programs).
func (c *Cache) Save() error {
	var perr error
	if c.programs != nil {
		perr = c.programs.save()
	}
	if !c.dirty || c.path == "" {
		return perr
	}
	all := make(map[string][]string, c.len())
	c.stored.each(func(key string, events []string) { all[key] = events })
	maps.Copy(all, c.added)
	data := formatEvents(all)
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return errors.Join(perr, err)
	}
	if err := writeAtomically(c.path, data); err != nil {
		return errors.Join(perr, err)
	}
	c.dirty = false
	return perr
}

// listing is an fs.FS that keeps each directory listing it reads in
// dirs, for the view to serve again.
type listing struct {
	fs.FS
	dirs map[string][]fs.DirEntry
}

// ReadDir implements fs.ReadDirFS, keeping what it read.
func (l listing) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(l.FS, name)
	if err == nil {
		l.dirs[name] = entries
	}
	return entries, err
}

// hiding is an fs.FS without some of its files, serving others from
// memory.
type hiding struct {
	fs.FS
	hide  map[string]bool
	data  map[string][]byte            // content read by Plan, served by ReadFile
	sums  map[string][sha256.Size]byte // its SHA-256, as Plan computed it
	given *handedOut                   // files whose content ReadFile handed out
	dirs  map[string][]fs.DirEntry     // listings read by Plan, served by ReadDir
}

// Open implements fs.FS: a hidden file does not exist.
func (h hiding) Open(name string) (fs.File, error) {
	if h.hide[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return h.FS.Open(name)
}

// ReadDir implements fs.ReadDirFS: the directory's entries without the
// hidden ones; a directory Plan listed already, as Plan listed it (a
// copy), so that the host sees the directory Plan keyed.
func (h hiding) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, ok := slices.Clone(h.dirs[name]), h.dirs[name] != nil
	if !ok {
		var err error
		if entries, err = fs.ReadDir(h.FS, name); err != nil {
			return nil, err
		}
	}
	return slices.DeleteFunc(entries, func(e fs.DirEntry) bool {
		return h.hide[path.Join(name, e.Name())]
	}), nil
}

// Stat implements fs.StatFS: a hidden file does not exist.
func (h hiding) Stat(name string) (fs.FileInfo, error) {
	if h.hide[name] {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return fs.Stat(h.FS, name)
}

// ReadFile implements fs.ReadFileFS: a hidden file does not exist, and a
// file Plan read already is served from memory rather than read twice.
// The first read of a file is handed the very bytes Plan read (nothing
// else holds them, and in a one-shot command a copy would cost a page
// touched for every 4 KiB of script); a later one gets a copy, as
// fs.ReadFileFS asks.
func (h hiding) ReadFile(name string) ([]byte, error) {
	data, _, err := h.read(name, false)
	return data, err
}

// ReadFileSum implements host.SumFS: ReadFile, with the SHA-256 of what
// it returns (the one Plan computed, for a file Plan read).
func (h hiding) ReadFileSum(name string) ([]byte, [sha256.Size]byte, error) {
	return h.read(name, true)
}

func (h hiding) read(name string, wantSum bool) ([]byte, [sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	if h.hide[name] {
		return nil, sum, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if data, ok := h.data[name]; ok {
		if h.given.first(name) {
			return data, h.sums[name], nil
		}
		if sha256.Sum256(data) != h.sums[name] {
			// Whoever was handed the bytes changed them (the host never
			// does): serve nothing rather than what the plan did not key.
			return nil, sum, &fs.PathError{Op: "read", Path: name, Err: errChangedInMemory}
		}
		return slices.Clone(data), h.sums[name], nil
	}
	data, err := fs.ReadFile(h.FS, name)
	if err == nil && wantSum {
		sum = sha256.Sum256(data)
	}
	return data, sum, err
}

// errChangedInMemory is a later read of a file whose content, handed out
// by the first, was changed since.
var errChangedInMemory = errors.New("changed in memory since the plan read it")

// handedOut is the set of names whose content hiding.ReadFile handed out
// uncopied; the host reads its files from several goroutines at once.
type handedOut struct {
	mu    sync.Mutex
	names map[string]bool
}

// first reports whether this is the first call for name.
func (h *handedOut) first(name string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.names[name] {
		return false
	}
	h.names[name] = true
	return true
}
