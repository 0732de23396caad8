package peerauth

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
)

// Body checks a request body against the SHA-256 its proof declared, as
// it is read: the read that completes the body — that reaches length
// bytes (when known, as with Content-Length), or the end — returns
// ErrBody instead of its bytes when the digest differs, so a reader that
// takes the body whole never gets a body that was not proven. A handler
// must read the body to its end before acting on it.
func Body(body io.ReadCloser, req Request, length int64) io.ReadCloser {
	return &checkedBody{ReadCloser: body, want: req.ContentSHA256, left: length, sum: sha256.New()}
}

type checkedBody struct {
	io.ReadCloser
	want string
	left int64 // bytes until the declared length; negative when unknown
	sum  hash.Hash
	err  error // ErrBody, once found
}

// Read reads the body through the hash; at its end (EOF or the declared
// length) a sum that is not the signed one is ErrBody, from this read on.
func (b *checkedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.ReadCloser.Read(p)
	b.sum.Write(p[:n])
	if b.left >= 0 {
		b.left -= int64(n)
	}
	if (b.left == 0 || err == io.EOF) && hex.EncodeToString(b.sum.Sum(nil)) != b.want {
		b.err = ErrBody
		return 0, b.err
	}
	return n, err
}
