package decisionlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxLine is the longest line a Reader decodes, in bytes. The Log never
// writes one this long (a payload takes at most DefaultMaxPayload bytes
// of a line); a longer line is not a decision log's, and is skipped
// without being held in memory.
const MaxLine = 1 << 20

// A Reader reads a decision log line by line, decoding each into a Line.
// Blank lines are skipped; a line that is not a Line's JSON, or is over
// MaxLine bytes, is a *LineError, and the next call reads the line after
// it.
type Reader struct {
	br   *bufio.Reader
	n    int    // the number of the last line read, from 1
	long []byte // a line longer than the bufio buffer, put together
	max  int
}

// NewReader reads the log from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), max: MaxLine}
}

// A LineError is a line that could not be read as a Line.
type LineError struct {
	// Line is the line's number, from 1.
	Line int
	Err  error
}

// Error reads "line N: why".
func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap gives why the line could not be read (ErrLineTooLong, a JSON error).
func (e *LineError) Unwrap() error { return e.Err }

// ErrLineTooLong is the error of a line over MaxLine bytes.
var ErrLineTooLong = fmt.Errorf("the line is over %d bytes, longer than any line the decision log writes", MaxLine)

// Next decodes the next line into ln, which it clears first, and returns
// the line's number. The error is a *LineError for a line that was read
// but cannot be decoded (the Reader stays usable), io.EOF at the end of
// the log, or the error of reading the log.
func (r *Reader) Next(ln *Line) (int, error) {
	for {
		raw, err := r.readLine()
		if err != nil {
			return r.n, err
		}
		if raw == nil {
			continue // a blank line
		}
		*ln = Line{}
		if err := json.Unmarshal(raw, ln); err != nil {
			return r.n, &LineError{Line: r.n, Err: notJSON(err)}
		}
		return r.n, nil
	}
}

// readLine reads the next line, without its line ending; nil for a blank
// one. The slice is valid until the next call. A line over the limit is
// read to its end and dropped as it is read, and reported.
func (r *Reader) readLine() ([]byte, error) {
	r.long = r.long[:0]
	tooLong, got := false, false
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(chunk) > 0 {
			got = true
		}
		if !tooLong && len(r.long)+len(chunk) > r.max+2 { // +2: the line ending
			tooLong, r.long = true, r.long[:0]
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			if !tooLong {
				r.long = append(r.long, chunk...)
			}
			continue
		}
		if err != nil && (err != io.EOF || !got) {
			return nil, err
		}
		r.n++
		if tooLong {
			return nil, &LineError{Line: r.n, Err: ErrLineTooLong}
		}
		line := chunk
		if len(r.long) > 0 {
			r.long = append(r.long, chunk...)
			line = r.long
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > r.max {
			return nil, &LineError{Line: r.n, Err: ErrLineTooLong}
		}
		if len(bytes.TrimSpace(line)) == 0 {
			if err == io.EOF {
				return nil, io.EOF
			}
			return nil, nil
		}
		return line, nil
	}
}

// notJSON says why a line is not a Line.
func notJSON(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn) && strings.Contains(syn.Error(), "unexpected end"):
		return errors.New("not a decision log line: the JSON ends early (a line a failed write left torn?)")
	case errors.As(err, &syn):
		return fmt.Errorf("not a decision log line: invalid JSON at byte %d: %v", syn.Offset, err)
	case errors.As(err, &typ):
		return fmt.Errorf("not a decision log line: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	return fmt.Errorf("not a decision log line: %v", err)
}
