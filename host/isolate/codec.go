package isolate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/hookhost/hookhost/host/neutralcodec"
)

// The wire format between a host and its workers: each message is a
// frame, a 4-byte big-endian length and that many bytes, holding one
// neutral value in host/neutralcodec's encoding, which keeps kinds
// exactly (an int64 stays an int64, 2.0 stays a float) where JSON would
// not. A message is a map of them, so one codec serves every message.

// maxFrame bounds one message, so that a worker cannot make the host
// allocate without bound by announcing a huge frame.
const maxFrame = 256 << 20

// errFrameTooLarge is returned for a message past maxFrame.
var errFrameTooLarge = fmt.Errorf("a message between the host and a worker is larger than %d MiB", maxFrame>>20)

var errCorrupt = errors.New("a corrupt message between the host and a worker")

// writeFrame writes one message.
func writeFrame(w io.Writer, msg map[string]any) error {
	b, err := neutralcodec.Append(make([]byte, 4, 256), msg)
	if err != nil {
		return fmt.Errorf("cannot be sent to a worker: %w", err)
	}
	if len(b)-4 > maxFrame {
		return errFrameTooLarge
	}
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	_, err = w.Write(b)
	return err
}

// readFrame reads one message.
func readFrame(r io.Reader) (map[string]any, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > maxFrame {
		return nil, errFrameTooLarge
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	v, err := neutralcodec.Decode(b)
	if err != nil {
		return nil, errCorrupt
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errCorrupt
	}
	return m, nil
}
