package scripting

import (
	"encoding/binary"
	"hash/crc32"
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
const SealSize = 4

// Seal fills the first SealSize bytes of b with the CRC-32 (IEEE) of the
// rest: the processor computes it (carry-less multiplication on amd64 and
// arm64) several times faster than a SHA-256 of a program that a command
// hook decodes on every call. (CRC-32C's tables take longer to build, at
// the first use in every process, than the checksum they save.)
// for a program put in a ProgramCache: b is built with that room at its
// front, so sealing copies nothing.
func Seal(b []byte) []byte {
	binary.LittleEndian.PutUint32(b, crc32.ChecksumIEEE(b[SealSize:]))
	return b
}

// Unseal is the payload of data sealed by Seal, or false when the
// checksum does not match (damaged, cut short, or not sealed). It is a
// check against accidents, not an authentication: whoever can write the
// cache can seal, and the cache lives where only its owner can write.
// What decodes is checked again by the decoder, which accepts only an
// exact encoding.
func Unseal(data []byte) ([]byte, bool) {
	if len(data) < SealSize {
		return nil, false
	}
	payload := data[SealSize:]
	return payload, binary.LittleEndian.Uint32(data) == crc32.ChecksumIEEE(payload)
}
