package isolate

import (
	"bytes"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"
)

// A record logged in a worker reads the same in the host's log: level,
// message, attributes in order, groups, and the host's level filter.
func TestLogRecordsTravel(t *testing.T) {
	for _, tc := range []struct {
		name string
		log  func(*slog.Logger)
	}{
		{"print", func(l *slog.Logger) { l.Info("hello\tthere", "source", "print", "file", "a.lua", "hook", "a.lua:h") }},
		{"kinds", func(l *slog.Logger) {
			l.Warn("kinds", "s", "x y", "i", int64(-3), "b", true, "f", 2.5, "nil", nil, "d", time.Second)
		}},
		{"with and groups", func(l *slog.Logger) {
			l.With("hook", "h").WithGroup("g").Error("grouped", "k", 1, slog.Group("inner", "a", "b"))
		}},
		{"filtered", func(l *slog.Logger) { l.Debug("not shown") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var direct, replayed bytes.Buffer
			opts := &slog.HandlerOptions{Level: slog.LevelInfo, ReplaceAttr: dropTime}
			tc.log(slog.New(slog.NewTextHandler(&direct, opts)))
			host := slog.New(slog.NewTextHandler(&replayed, opts))
			var level atomic.Int64
			level.Store(int64(lowestLevel(host)))
			send := func(msg message) {
				var wire bytes.Buffer // through the codec, as on the wire
				if err := writeMessage(&wire, msg); err != nil {
					t.Fatal(err)
				}
				got, err := readMessage(&wire, workerMessages)
				if err != nil {
					t.Fatal(err)
				}
				replayLog(host, got.(*logMsg))
			}
			tc.log(slog.New(newFrameHandler(send, &level)))
			if replayed.String() != direct.String() {
				t.Errorf("through a worker:\n%s\nin process:\n%s", replayed.String(), direct.String())
			}
			if tc.name == "filtered" && direct.Len() != 0 {
				t.Errorf("a debug record was logged at info: %q", direct.String())
			}
		})
	}
	if l := lowestLevel(slog.New(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelWarn}))); l != slog.LevelWarn {
		t.Errorf("lowestLevel of a warn logger = %v", l)
	}
}

func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}
