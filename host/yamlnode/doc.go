// Package yamlnode reads hookhost's YAML files (hookhost.yaml, HOOK.md
// front matter, table tests) node by node, so that every problem names
// the line it is on: mappings with a fixed set of keys, free mappings,
// strings and lists of strings, and the split of the YAML parser's
// syntax errors into line and message.
//
// A Decoder reports problems to its owner, which decides what an error
// looks like (its file, a prefix) and whether to go on after the first.
// Its Style picks one of the two wordings the formats have always used,
// which tests and users rely on.
package yamlnode
