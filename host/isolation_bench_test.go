package host

import (
	"context"
	"fmt"
	"testing"
	"testing/fstest"
)

// BenchmarkIsolation is the hook benchmark's fire, in process and with
// the file isolated in a worker process: the cost per call of a round
// trip through the worker's pipes (docs/performance.md).
func BenchmarkIsolation(b *testing.B) {
	for _, lang := range []struct{ ext, src string }{{"lua", benchLua}, {"star", benchStar}} {
		for _, iso := range []Isolation{InProcess, ProcessIsolation} {
			b.Run(lang.ext+"/"+string(iso), func(b *testing.B) {
				fsys := fstest.MapFS{"g." + lang.ext: {Data: []byte(fmt.Sprintf(lang.src, "guard"))}}
				h, err := New(context.Background(), Options{FS: fsys, Config: &Config{Defaults: Defaults{Isolation: iso}}, WorkerExecutable: testWorker})
				if err != nil || len(h.Problems()) > 0 {
					b.Fatal(err, h.Problems())
				}
				b.Cleanup(func() { h.Close() })
				benchFire(b, h)
			})
		}
	}
}
