//go:build !unix

package eventcache

import "io/fs"

// ownedByUser cannot tell owners apart here: the permission bits decide.
func ownedByUser(fs.FileInfo) bool { return true }
