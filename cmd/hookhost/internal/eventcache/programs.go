package eventcache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/hookhost/hookhost/scripting"
)

// MaxProgramBytes bounds one stored program: a larger one is not stored,
// and a larger file is not read.
const MaxProgramBytes = 1 << 20

// programs is the cache's store of compiled programs: one file per
// program, in a directory beside the cache file, named by the SHA-256 of
// the engine's key and the cache's salt (the config and the executable,
// as for the events). Programs put during a run are written by Save.
type programs struct {
	dir  string
	salt []byte

	mu      sync.Mutex
	pending map[string][]byte // file name → program, to write
	used    map[string]bool   // file names this run read or put
}

var _ scripting.ProgramCache = (*programs)(nil)

// Programs is the cache's store of compiled programs for the host that
// loads through p, for host.Options.Programs: keyed, besides the
// engine's key, by p's salt (the config and the executable). It is safe
// for concurrent use; what it is given is written by Save.
func (c *Cache) Programs(p Plan) scripting.ProgramCache {
	if c.programs == nil || string(c.programs.salt) != string(p.salt) {
		dir := ""
		if c.path != "" {
			dir = filepath.Join(filepath.Dir(c.path), "programs-"+formatVersion)
			if !private(dir) {
				dir = ""
			}
		}
		c.programs = &programs{dir: dir, salt: slices.Clone(p.salt), pending: map[string][]byte{}, used: map[string]bool{}}
	}
	return c.programs
}

func (p *programs) fileName(key string) string {
	h := sha256.New()
	h.Write([]byte(formatVersion))
	h.Write(p.salt)
	h.Write([]byte{0})
	h.Write([]byte(key))
	return hex.EncodeToString(h.Sum(nil))
}

// Get implements scripting.ProgramCache: the program stored under key,
// nil when there is none or it cannot be read.
func (p *programs) Get(key string) []byte {
	if p.dir == "" {
		return nil
	}
	name := p.fileName(key)
	p.mu.Lock()
	p.used[name] = true
	data := p.pending[name]
	p.mu.Unlock()
	if data != nil {
		return data
	}
	f, err := os.Open(filepath.Join(p.dir, name))
	if err != nil {
		return nil
	}
	defer f.Close()
	return readSized(f, MaxProgramBytes)
}

// readSized reads all of f, up to limit bytes, into one buffer of the
// size its stat gives (io.ReadAll would grow a buffer by doubling, and
// in a one-shot command every byte allocated is a page touched for the
// first time); nil when f cannot be read or holds more than limit bytes.
func readSized(f *os.File, limit int64) []byte {
	info, err := f.Stat()
	if err != nil || info.Size() > limit {
		return nil
	}
	return readExpecting(f, info.Size(), limit)
}

// readExpecting reads all of r, expected to hold size bytes, up to
// limit bytes; nil when r cannot be read or holds more than limit.
func readExpecting(r io.Reader, size, limit int64) []byte {
	// One byte more than expected shows whether the file grew since
	// its stat: a file is read to its end, never cut at its old size.
	data := make([]byte, size+1)
	n, err := io.ReadFull(r, data)
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		return data[:n]
	case err != nil:
		return nil
	}
	rest, err := io.ReadAll(io.LimitReader(r, limit+1-int64(n)))
	if err != nil || int64(n+len(rest)) > limit {
		return nil
	}
	return append(data, rest...)
}

// Put implements scripting.ProgramCache.
func (p *programs) Put(key string, data []byte) {
	if p.dir == "" || len(data) > MaxProgramBytes {
		return
	}
	name := p.fileName(key)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.used[name] = true
	p.pending[name] = slices.Clone(data)
}

// save writes the programs put since the last save, each atomically, in
// a directory only the user can read; past MaxEntries files it removes
// the ones this run did not use.
func (p *programs) save() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.pending) == 0 {
		return nil
	}
	if err := os.MkdirAll(p.dir, 0o700); err != nil {
		return err
	}
	var errs []error
	for name, data := range p.pending {
		errs = append(errs, writeAtomically(filepath.Join(p.dir, name), data))
		delete(p.pending, name)
	}
	entries, err := os.ReadDir(p.dir)
	if err != nil || len(entries) <= MaxEntries {
		return errors.Join(append(errs, err)...)
	}
	for _, e := range entries {
		if !p.used[e.Name()] {
			errs = append(errs, os.Remove(filepath.Join(p.dir, e.Name())))
		}
	}
	return errors.Join(errs...)
}

// writeAtomically writes data to path through a temporary file renamed
// over it, so that a reader sees the old file or the new, whole.
func writeAtomically(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
