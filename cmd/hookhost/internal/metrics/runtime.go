package metrics

import (
	"runtime"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"time"
)

// The Go runtime's go_* metrics, under the names, help and meaning
// client_golang's Go collector gives them (so dashboards made for any
// Go program work), read from runtime/metrics at each scrape.

// goSamples are the runtime/metrics read for one scrape.
type goSamples struct {
	samples []rtmetrics.Sample
	index   map[string]int
	gc      debug.GCStats
}

var goMetricNames = []string{
	"/memory/classes/heap/objects:bytes", "/gc/heap/allocs:bytes", "/memory/classes/profiling/buckets:bytes",
	"/gc/heap/frees:objects", "/gc/heap/tiny/allocs:objects", "/memory/classes/metadata/other:bytes",
	"/memory/classes/heap/released:bytes", "/memory/classes/heap/free:bytes", "/memory/classes/heap/unused:bytes",
	"/gc/heap/objects:objects", "/gc/heap/allocs:objects", "/memory/classes/metadata/mcache/inuse:bytes",
	"/memory/classes/metadata/mcache/free:bytes", "/memory/classes/metadata/mspan/inuse:bytes",
	"/memory/classes/metadata/mspan/free:bytes", "/gc/heap/goal:bytes", "/memory/classes/other:bytes",
	"/memory/classes/heap/stacks:bytes", "/memory/classes/os-stacks:bytes", "/memory/classes/total:bytes",
	"/gc/gogc:percent", "/gc/gomemlimit:bytes", "/sched/gomaxprocs:threads",
}

func newGoSamples() *goSamples {
	g := &goSamples{index: map[string]int{}}
	for i, name := range goMetricNames {
		g.samples = append(g.samples, rtmetrics.Sample{Name: name})
		g.index[name] = i
	}
	return g
}

func (g *goSamples) read() {
	rtmetrics.Read(g.samples)
	g.gc.PauseQuantiles = make([]time.Duration, 5)
	debug.ReadGCStats(&g.gc)
}

// sum adds the named runtime metrics.
func (g *goSamples) sum(names ...string) float64 {
	total := 0.0
	for _, n := range names {
		switch v := g.samples[g.index[n]].Value; v.Kind() {
		case rtmetrics.KindUint64:
			total += float64(v.Uint64())
		case rtmetrics.KindFloat64:
			total += v.Float64()
		}
	}
	return total
}

// goFamilies are the go_* families, reading g (filled before each scrape).
func goFamilies(g *goSamples) []family {
	mem := func(name, help string, kind string, from ...string) family {
		return &funcFamily{desc: desc{fullName: "go_memstats_" + name, help: help, kind: kind},
			read: func() float64 { return g.sum(from...) }}
	}
	const (
		objects  = "/memory/classes/heap/objects:bytes"
		released = "/memory/classes/heap/released:bytes"
		free     = "/memory/classes/heap/free:bytes"
		unused   = "/memory/classes/heap/unused:bytes"
		tiny     = "/gc/heap/tiny/allocs:objects"
		stacks   = "/memory/classes/heap/stacks:bytes"
	)
	info := newGauge("go_info", "Information about the Go environment.", "version")
	info.with(runtime.Version()).store(1)
	return []family{
		&gcPauses{desc: desc{fullName: "go_gc_duration_seconds", kind: "summary",
			help: "A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles."}, g: g},
		&funcFamily{desc: desc{fullName: "go_gc_gogc_percent", kind: "gauge",
			help: "Heap size target percentage configured by the user, otherwise 100. This value is set by the GOGC environment variable, and the runtime/debug.SetGCPercent function. Sourced from /gc/gogc:percent."},
			read: func() float64 { return g.sum("/gc/gogc:percent") }},
		&funcFamily{desc: desc{fullName: "go_gc_gomemlimit_bytes", kind: "gauge",
			help: "Go runtime memory limit configured by the user, otherwise math.MaxInt64. This value is set by the GOMEMLIMIT environment variable, and the runtime/debug.SetMemoryLimit function. Sourced from /gc/gomemlimit:bytes."},
			read: func() float64 { return g.sum("/gc/gomemlimit:bytes") }},
		&funcFamily{desc: desc{fullName: "go_goroutines", help: "Number of goroutines that currently exist.", kind: "gauge"},
			read: func() float64 { return float64(runtime.NumGoroutine()) }},
		info,
		mem("alloc_bytes", "Number of bytes allocated in heap and currently in use. Equals to /memory/classes/heap/objects:bytes.", "gauge", objects),
		mem("alloc_bytes_total", "Total number of bytes allocated in heap until now, even if released already. Equals to /gc/heap/allocs:bytes.", "counter", "/gc/heap/allocs:bytes"),
		mem("buck_hash_sys_bytes", "Number of bytes used by the profiling bucket hash table. Equals to /memory/classes/profiling/buckets:bytes.", "gauge", "/memory/classes/profiling/buckets:bytes"),
		mem("frees_total", "Total number of heap objects frees. Equals to /gc/heap/frees:objects + /gc/heap/tiny/allocs:objects.", "counter", "/gc/heap/frees:objects", tiny),
		mem("gc_sys_bytes", "Number of bytes used for garbage collection system metadata. Equals to /memory/classes/metadata/other:bytes.", "gauge", "/memory/classes/metadata/other:bytes"),
		mem("heap_alloc_bytes", "Number of heap bytes allocated and currently in use, same as go_memstats_alloc_bytes. Equals to /memory/classes/heap/objects:bytes.", "gauge", objects),
		mem("heap_idle_bytes", "Number of heap bytes waiting to be used. Equals to /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes.", "gauge", released, free),
		mem("heap_inuse_bytes", "Number of heap bytes that are in use. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes", "gauge", objects, unused),
		mem("heap_objects", "Number of currently allocated objects. Equals to /gc/heap/objects:objects.", "gauge", "/gc/heap/objects:objects"),
		mem("heap_released_bytes", "Number of heap bytes released to OS. Equals to /memory/classes/heap/released:bytes.", "gauge", released),
		mem("heap_sys_bytes", "Number of heap bytes obtained from system. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes + /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes.", "gauge", objects, unused, released, free),
		&funcFamily{desc: desc{fullName: "go_memstats_last_gc_time_seconds", help: "Number of seconds since 1970 of last garbage collection.", kind: "gauge"},
			read: func() float64 { return unixSeconds(g.gc.LastGC) }},
		mem("mallocs_total", "Total number of heap objects allocated, both live and gc-ed. Semantically a counter version for go_memstats_heap_objects gauge. Equals to /gc/heap/allocs:objects + /gc/heap/tiny/allocs:objects.", "counter", "/gc/heap/allocs:objects", tiny),
		mem("mcache_inuse_bytes", "Number of bytes in use by mcache structures. Equals to /memory/classes/metadata/mcache/inuse:bytes.", "gauge", "/memory/classes/metadata/mcache/inuse:bytes"),
		mem("mcache_sys_bytes", "Number of bytes used for mcache structures obtained from system. Equals to /memory/classes/metadata/mcache/inuse:bytes + /memory/classes/metadata/mcache/free:bytes.", "gauge", "/memory/classes/metadata/mcache/inuse:bytes", "/memory/classes/metadata/mcache/free:bytes"),
		mem("mspan_inuse_bytes", "Number of bytes in use by mspan structures. Equals to /memory/classes/metadata/mspan/inuse:bytes.", "gauge", "/memory/classes/metadata/mspan/inuse:bytes"),
		mem("mspan_sys_bytes", "Number of bytes used for mspan structures obtained from system. Equals to /memory/classes/metadata/mspan/inuse:bytes + /memory/classes/metadata/mspan/free:bytes.", "gauge", "/memory/classes/metadata/mspan/inuse:bytes", "/memory/classes/metadata/mspan/free:bytes"),
		mem("next_gc_bytes", "Number of heap bytes when next garbage collection will take place. Equals to /gc/heap/goal:bytes.", "gauge", "/gc/heap/goal:bytes"),
		mem("other_sys_bytes", "Number of bytes used for other system allocations. Equals to /memory/classes/other:bytes.", "gauge", "/memory/classes/other:bytes"),
		mem("stack_inuse_bytes", "Number of bytes obtained from system for stack allocator in non-CGO environments. Equals to /memory/classes/heap/stacks:bytes.", "gauge", stacks),
		mem("stack_sys_bytes", "Number of bytes obtained from system for stack allocator. Equals to /memory/classes/heap/stacks:bytes + /memory/classes/os-stacks:bytes.", "gauge", stacks, "/memory/classes/os-stacks:bytes"),
		mem("sys_bytes", "Number of bytes obtained from system. Equals to /memory/classes/total:byte.", "gauge", "/memory/classes/total:bytes"),
		&funcFamily{desc: desc{fullName: "go_sched_gomaxprocs_threads", kind: "gauge",
			help: "The current runtime.GOMAXPROCS setting, or the number of operating system threads that can execute user-level Go code simultaneously. Sourced from /sched/gomaxprocs:threads."},
			read: func() float64 { return g.sum("/sched/gomaxprocs:threads") }},
		&funcFamily{desc: desc{fullName: "go_threads", help: "Number of OS threads created.", kind: "gauge"},
			read: func() float64 { n, _ := runtime.ThreadCreateProfile(nil); return float64(n) }},
	}
}

func unixSeconds(t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return float64(t.UnixNano()) / 1e9
}

// gcPauses is go_gc_duration_seconds: a summary of the GC's
// stop-the-world pauses, with quantiles 0, .25, .5, .75 and 1.
type gcPauses struct {
	desc
	g *goSamples
}

func (p *gcPauses) write(w *textWriter) {
	p.header(w)
	q := p.g.gc.PauseQuantiles
	for i, at := range []float64{0, .25, .5, .75, 1} {
		v := 0.0
		if p.g.gc.NumGC > 0 && i < len(q) {
			v = q[i].Seconds()
		}
		writeSample(w, p.fullName, nil, nil, "quantile", at, v)
	}
	writeSample(w, p.fullName+"_sum", nil, nil, "", 0, p.g.gc.PauseTotal.Seconds())
	writeCount(w, p.fullName+"_count", nil, nil, uint64(p.g.gc.NumGC))
}
