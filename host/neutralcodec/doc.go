// Package neutralcodec is the exact binary encoding of neutral values
// (nil, bool, int64, float64, string, []any, map[string]any): a tag byte
// and its content. Unlike JSON it keeps their kinds (an int64 stays an
// int64, 2.0 stays a float), so a value that goes through it comes back
// as the value it was.
//
// Two parts of hookhost need that: the messages between a host and the
// worker processes of isolated files (host/isolate frames them), and the
// parsed HOOK.md front matter a one-shot agent command keeps in its
// program cache, whose config is free YAML that has to come back typed
// as YAML gave it.
//
// Decoding is safe on hostile input: it bounds nesting, checks every
// length against what is left before allocating, and rejects what no
// neutral value encodes to (NaN, infinities, bytes past the value).
package neutralcodec
