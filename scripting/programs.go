package scripting

import (
	"bytes"
	"crypto/sha256"
)

// A ProgramCache keeps engines' compiled programs across processes: a
// command hook starts for every tool call, and an engine that can
// serialise what it compiled (both do: Starlark its compiled program, Lua
// its function prototypes) then skips parsing, resolving and compiling a
// file it has seen before. Keys are the engine's: they cover
// everything the compiled form depends on within one build of the
// program (the file's name and content, the language options, the
// predeclared names); a cache shared by several builds must add the
// build's identity itself. The host keeps its packs' parsed HOOK.md
// front matter in the same cache, under keys of its own ("pack-…").
//
// The cache is only ever a shortcut. A file whose program is not in the
// cache, or whose cached program the engine cannot decode, is compiled
// from source (and its program put again); a file that does not compile
// is never put, so its errors are reported from source every time.
type ProgramCache interface {
	// Get returns the bytes put under key, or nil when it has none. The
	// engine checks what it gets (bytes damaged or cut short in storage
	// are compiled around, never decoded).
	Get(key string) []byte
	// Put offers data under key; keeping it is best effort. The cache
	// must not keep a reference to data after Put returns.
	Put(key string, data []byte)
}

// SealSize is the room Seal needs at the front of what it seals.
const SealSize = sha256.Size

// Seal fills the first SealSize bytes of b with the SHA-256 of the rest,
// for a program put in a ProgramCache: b is built with that room at its
// front, so sealing copies nothing.
func Seal(b []byte) []byte {
	sum := sha256.Sum256(b[SealSize:])
	copy(b, sum[:])
	return b
}

// Unseal is the payload of data sealed by Seal, or false when the
// checksum does not match (damaged, cut short, or not sealed). It is a
// check against accidents, not an authentication: whoever can write the
// cache can seal.
func Unseal(data []byte) ([]byte, bool) {
	if len(data) < SealSize {
		return nil, false
	}
	payload := data[SealSize:]
	sum := sha256.Sum256(payload)
	return payload, bytes.Equal(sum[:], data[:SealSize])
}
