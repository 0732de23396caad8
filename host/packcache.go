package host

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/hookhost/hookhost/host/neutralcodec"
	"github.com/hookhost/hookhost/scripting"
)

// packMetaFormat names the encoding of a cached front matter; a change to
// packMeta or to how it is encoded is a new format, whose keys no older
// entry shares.
const packMetaFormat = "hookhost-pack-meta-1"

// packMetaCached is parsePackMeta through a program cache: a one-shot
// agent command reads every pack's HOOK.md each time it starts, and
// parsing YAML is a tenth of what the shipped packs cost it (the YAML
// parser's code is touched for nothing else). The cache keeps the parsed
// front matter under the hash of the pack's directory and front matter,
// in host/neutralcodec's encoding, which gives the config back with the
// kinds YAML gave it (an int64 stays an int64, 2.0 a float). Only front
// matter that parsed is kept, so a bad HOOK.md is parsed, and reported,
// every time. An entry that does not decode is parsed again.
func packMetaCached(cache scripting.ProgramCache, file, dir string, data []byte) (*packMeta, error) {
	if cache == nil {
		return parsePackMeta(file, dir, data)
	}
	front, err := frontMatter(file, data)
	if err != nil {
		return nil, err
	}
	key := packMetaKey(dir, front)
	if payload, ok := scripting.Unseal(cache.Get(key)); ok {
		if meta, ok := decodePackMeta(payload); ok {
			return meta, nil
		}
	}
	meta, err := parseFrontMatter(file, dir, front)
	if err != nil {
		return nil, err
	}
	if enc, err := encodePackMeta(meta); err == nil {
		cache.Put(key, scripting.Seal(enc))
	}
	return meta, nil
}

// packMetaKey is the cache key of a front matter: what parseFrontMatter
// reads, the directory (the default name) and the fields.
func packMetaKey(dir string, front []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d:%s\x00", packMetaFormat, len(dir), dir)
	h.Write(front)
	return "pack-" + hex.EncodeToString(h.Sum(nil))
}

// encodePackMeta is meta as a neutral map, sealed room first (see
// scripting.Seal). A nil config stays nil: it is absent, not empty.
func encodePackMeta(meta *packMeta) ([]byte, error) {
	m := map[string]any{
		"name": meta.name, "description": meta.description, "version": meta.version, "enabled": meta.enabled,
		"error_behavior": string(meta.errorBehavior), "timeout_behavior": string(meta.timeoutBehavior),
	}
	if meta.config != nil {
		m["config"] = meta.config
	}
	return neutralcodec.Append(make([]byte, scripting.SealSize, 256), m)
}

// decodePackMeta is the packMeta encodePackMeta encoded; false for
// anything else, which is then parsed again.
func decodePackMeta(b []byte) (*packMeta, bool) {
	v, err := neutralcodec.Decode(b)
	m, _ := v.(map[string]any)
	if err != nil || m == nil {
		return nil, false
	}
	meta := &packMeta{}
	var eb, tb string
	ok := asType(m["name"], &meta.name) && asType(m["description"], &meta.description) &&
		asType(m["version"], &meta.version) && asType(m["enabled"], &meta.enabled) &&
		asType(m["error_behavior"], &eb) && asType(m["timeout_behavior"], &tb)
	fields := 6
	if c, present := m["config"]; present {
		meta.config, _ = c.(map[string]any)
		ok = ok && meta.config != nil
		fields++
	}
	meta.errorBehavior, meta.timeoutBehavior = Behavior(eb), Behavior(tb)
	if !ok || !meta.errorBehavior.valid() || !meta.timeoutBehavior.valid() || len(m) != fields {
		return nil, false
	}
	return meta, true
}

// asType stores v in *dst when it has dst's type.
func asType[T any](v any, dst *T) bool {
	t, ok := v.(T)
	*dst = t
	return ok
}
