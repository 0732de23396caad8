package isolate

import (
	"crypto/sha256"
	"debug/buildinfo"
	"debug/elf"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
)

// A build identifies the program a process runs, so that a host talks
// only to workers of its own build: a worker started from a binary that
// an upgrade replaced on disk, or one of another version, is refused.
type build struct {
	// ID is the Go linker's build ID of the executable (a hash of its
	// inputs), or where it has none (a non-ELF system, a build with an
	// empty -buildid) "sha256:" and the hash of its bytes.
	ID string
	// Program says what the build is, for people: module, version or
	// commit, Go version.
	Program string
}

// String names the build in errors.
func (b build) String() string {
	if b.Program == "" {
		return "build " + b.ID
	}
	return b.Program + " (build " + b.ID + ")"
}

// selfExecutable is the file of the running program: on Linux the
// kernel's link to it, which stays the binary this process runs even
// after the file at its path is replaced or removed.
func selfExecutable() (string, error) {
	if runtime.GOOS == "linux" {
		return "/proc/self/exe", nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding the running program: %w", err)
	}
	return exe, nil
}

// selfBuild is the running program's build.
func selfBuild() (build, error) {
	exe, err := selfExecutable()
	if err != nil {
		return build{}, err
	}
	id, err := buildID(exe)
	if err != nil {
		return build{}, err
	}
	b := build{ID: id}
	if info, ok := debug.ReadBuildInfo(); ok {
		b.Program = describe(info)
	}
	return b, nil
}

// ExecutableBuild is the build identity of the executable at path, as
// its workers report it in their hello; "" means the running program.
// A host whose workers start from a wrapper (a script that execs the
// real worker) sets it as Options.Build, from the real worker's binary.
func ExecutableBuild(path string) (string, error) {
	b, err := fileBuild(path)
	return b.ID, err
}

// fileBuild is the build of the executable at path ("" for the running
// program).
func fileBuild(path string) (build, error) {
	if path == "" {
		return selfBuild()
	}
	id, err := buildID(path)
	if err != nil {
		return build{}, err
	}
	b := build{ID: id}
	if info, err := buildinfo.ReadFile(path); err == nil {
		b.Program = describe(info)
	}
	return b, nil
}

// describe names a build for people.
func describe(info *debug.BuildInfo) string {
	s := info.Main.Path
	if s == "" {
		s = info.Path
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		s += " " + v
	}
	var rev, modified string
	for _, kv := range info.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				modified = "+modified"
			}
		}
	}
	if rev != "" {
		s += " commit " + rev[:min(len(rev), 12)] + modified
	}
	return s + " " + info.GoVersion
}

// buildID reads the Go build ID of the executable at path, from its ELF
// note; else it hashes the file.
func buildID(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("reading the build of %s: %w", path, err)
	}
	defer f.Close()
	if id := elfBuildID(f); id != "" {
		return id, nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading the build of %s: %w", path, err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// elfBuildID is the Go build ID in an ELF file's .note.go.buildid
// section, "" when there is none.
func elfBuildID(r io.ReaderAt) string {
	f, err := elf.NewFile(r)
	if err != nil {
		return ""
	}
	s := f.Section(".note.go.buildid")
	if s == nil {
		return ""
	}
	data, err := s.Data()
	if err != nil || len(data) < 16 {
		return ""
	}
	// A note: name size, description size, type, then the name "Go\0\0"
	// and the description, the ID.
	order := f.ByteOrder
	nameSize, descSize := order.Uint32(data), order.Uint32(data[4:])
	start := 12 + (uint64(nameSize)+3)&^3
	if nameSize != 4 || string(data[12:15]) != "Go\x00" || start+uint64(descSize) > uint64(len(data)) {
		return ""
	}
	return string(data[start : start+uint64(descSize)])
}

// errBuild is the cause of a worker refused for its version or build.
var errBuild = errors.New("a worker of another build or protocol version was refused")
