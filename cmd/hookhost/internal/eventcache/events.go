package eventcache

import (
	"bytes"
	"slices"
	"sort"
	"strings"
)

// The events file is text, one line per file key, sorted by key:
//
//	hookhost events v2
//	<key> <event> <event>…
//
// A command hook reads it at every start and looks up a few keys, while
// the file holds up to MaxEntries of them (every directory and every
// hookhost binary used adds its own): decoding it all as JSON cost a
// one-shot command about 1 ms for 250 entries, and grew with them. So a
// lookup is a binary search in the text as read, over an index of where
// its lines start, and only the entries looked up become strings and
// slices. A file that is not exactly this format (a line out of order, a
// key that is not 64 hex digits, an event with a byte outside eventByte)
// is an empty cache.

// eventsHeader is the events file's first line; a new format is a new
// header and a new file name.
const eventsHeader = "hookhost events v2\n"

// eventsFileName is the events file's name in the cache directory.
const eventsFileName = "events-v2.txt"

// keyLen is the length of a key: a SHA-256 in hex (fileKey).
const keyLen = 64

// storedEvents are the entries of an events file as read.
type storedEvents struct {
	text  []byte  // the lines after the header, each ending in "\n"
	lines []int32 // where each line of text starts
}

// parseEvents reads an events file; ok is false when it is not one.
// data is kept, not copied: the caller does not change it after.
func parseEvents(data []byte) (_ storedEvents, ok bool) {
	text, found := bytes.CutPrefix(data, []byte(eventsHeader))
	if !found || len(text) > 1<<30 {
		return storedEvents{}, false
	}
	s := storedEvents{text: text, lines: make([]int32, 0, bytes.Count(text, []byte("\n")))}
	var prev []byte
	for start := 0; start < len(text); {
		end := bytes.IndexByte(text[start:], '\n')
		if end < 0 {
			return storedEvents{}, false // a last line cut short
		}
		line := text[start : start+end]
		key, events, _ := bytes.Cut(line, []byte(" "))
		if !validKey(string(key)) || bytes.Compare(key, prev) <= 0 || !validEvents(string(events)) {
			return storedEvents{}, false
		}
		s.lines = append(s.lines, int32(start))
		prev = key
		start += end + 1
	}
	return s, true
}

// line is the i-th line of s, without its newline.
func (s storedEvents) line(i int) []byte {
	start := int(s.lines[i])
	return s.text[start : start+bytes.IndexByte(s.text[start:], '\n')]
}

// lookup is the events stored for key.
func (s storedEvents) lookup(key string) ([]string, bool) {
	i := sort.Search(len(s.lines), func(i int) bool { return string(s.line(i)[:keyLen]) >= key })
	if i == len(s.lines) || string(s.line(i)[:keyLen]) != key {
		return nil, false
	}
	return strings.Split(string(s.line(i)[keyLen+1:]), " "), true
}

// each calls fn with every stored entry.
func (s storedEvents) each(fn func(key string, events []string)) {
	for i := range s.lines {
		line := string(s.line(i))
		fn(line[:keyLen], strings.Split(line[keyLen+1:], " "))
	}
}

// formatEvents is the events file holding entries; an entry whose events
// the format cannot hold is left out (its file is then compiled every
// time, as a file not in the cache is).
func formatEvents(entries map[string][]string) []byte {
	keys := make([]string, 0, len(entries))
	for k, evs := range entries {
		if validKey(k) && len(evs) > 0 && !slices.ContainsFunc(evs, func(e string) bool { return !validEvents(e) || strings.Contains(e, " ") }) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString(eventsHeader)
	for _, k := range keys {
		b.WriteString(k)
		for _, e := range entries[k] {
			b.WriteByte(' ')
			b.WriteString(e)
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func validKey(k string) bool {
	if len(k) != keyLen {
		return false
	}
	for i := range len(k) {
		if c := k[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// validEvents reports whether s is one or more event names, each of
// eventBytes, separated by single spaces.
func validEvents(s string) bool {
	if s == "" {
		return false
	}
	for name := range strings.SplitSeq(s, " ") {
		if name == "" {
			return false
		}
		for i := range len(name) {
			if !eventByte(name[i]) {
				return false
			}
		}
	}
	return true
}

// eventByte reports whether c may appear in an event name the file
// holds: the host's event names are dotted lower-case words, and an
// agent's own (claude.PreToolUse) keep their case.
func eventByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-' || c == ':' || c == '/'
}
