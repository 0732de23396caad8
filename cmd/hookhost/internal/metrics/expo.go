package metrics

import (
	"bufio"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// The Prometheus text exposition format, version 0.0.4, written by hand:
// client_golang would cost every hookhost command its package inits and
// a binary twice the size (docs/performance.md, "Start-up"). Each
// family below holds its series; a scrape writes them sorted, families
// by name and series by their label values, as client_golang does.

// textWriter is the scrape being written, and the first reason it cannot
// be served.
type textWriter struct {
	*bufio.Writer
	err error
}

// A family is one metric name with its HELP and TYPE lines.
type family interface {
	name() string
	write(w *textWriter)
}

// desc is what every family has.
type desc struct {
	fullName string
	help     string
	kind     string // counter, gauge, histogram, summary, untyped
	labels   []string
}

func (d *desc) name() string { return d.fullName }

func (d *desc) header(w *textWriter) {
	w.WriteString("# HELP ")
	w.WriteString(d.fullName)
	w.WriteByte(' ')
	writeEscaped(w, d.help, false)
	w.WriteString("\n# TYPE ")
	w.WriteString(d.fullName)
	w.WriteByte(' ')
	w.WriteString(d.kind)
	w.WriteByte('\n')
}

// atomicFloat is a float64 updated without a lock.
type atomicFloat struct{ bits atomic.Uint64 }

func (f *atomicFloat) load() float64 { return math.Float64frombits(f.bits.Load()) }

func (f *atomicFloat) store(v float64) { f.bits.Store(math.Float64bits(v)) }

func (f *atomicFloat) add(v float64) {
	for {
		old := f.bits.Load()
		if f.bits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

// series is the set of a family's label combinations, created on first
// use; the values are the same length as the family's label names.
type series[T any] struct {
	mu   sync.RWMutex
	byID map[string]*labelled[T]
}

type labelled[T any] struct {
	values []string
	v      T
}

// get returns the series for values, creating it the first time.
func (s *series[T]) get(values []string) *T {
	id := strings.Join(values, "\xff")
	s.mu.RLock()
	l := s.byID[id]
	s.mu.RUnlock()
	if l != nil {
		return &l.v
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if l = s.byID[id]; l == nil {
		if s.byID == nil {
			s.byID = map[string]*labelled[T]{}
		}
		l = &labelled[T]{values: slices.Clone(values)}
		s.byID[id] = l
	}
	return &l.v
}

// sorted returns the series ordered by their label values.
func (s *series[T]) sorted() []*labelled[T] {
	s.mu.RLock()
	out := make([]*labelled[T], 0, len(s.byID))
	for _, l := range s.byID {
		out = append(out, l)
	}
	s.mu.RUnlock()
	slices.SortFunc(out, func(a, b *labelled[T]) int { return slices.Compare(a.values, b.values) })
	return out
}

// valueVec is a counter or gauge family with labels (or none: one series
// with no label values).
type valueVec struct {
	desc
	series[atomicFloat]
}

func newCounter(name, help string, labels ...string) *valueVec {
	return &valueVec{desc: desc{fullName: name, help: help, kind: "counter", labels: labels}}
}

func newGauge(name, help string, labels ...string) *valueVec {
	return &valueVec{desc: desc{fullName: name, help: help, kind: "gauge", labels: labels}}
}

func (v *valueVec) with(values ...string) *atomicFloat { return v.get(values) }

func (v *valueVec) write(w *textWriter) {
	all := v.sorted()
	if len(all) == 0 {
		return
	}
	v.header(w)
	for _, l := range all {
		writeSample(w, v.fullName, v.labels, l.values, "", 0, l.v.load())
	}
}

// histogram is one series of a histogram family.
type histogram struct {
	mu      sync.Mutex
	counts  []uint64 // per bucket, not cumulative; one more for +Inf
	count   uint64
	sum     float64
	uppers  []float64
	started bool
}

func (h *histogram) observe(uppers []float64, v float64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.started {
		h.counts, h.uppers, h.started = make([]uint64, len(uppers)+1), uppers, true
	}
	i, _ := slices.BinarySearch(uppers, v) // the first bucket whose upper bound is >= v
	h.counts[i]++
	h.count++
	h.sum += v
}

// histogramVec is a histogram family with labels.
type histogramVec struct {
	desc
	series[histogram]
	buckets []float64 // upper bounds, ascending, without +Inf
}

func newHistogram(name, help string, buckets []float64, labels ...string) *histogramVec {
	return &histogramVec{desc: desc{fullName: name, help: help, kind: "histogram", labels: labels}, buckets: buckets}
}

func (h *histogramVec) observe(v float64, values ...string) { h.get(values).observe(h.buckets, v) }

func (h *histogramVec) write(w *textWriter) {
	all := h.sorted()
	if len(all) == 0 {
		return
	}
	h.header(w)
	labels := append(slices.Clone(h.labels), "le")
	for _, l := range all {
		l.v.mu.Lock()
		counts, count, sum := slices.Clone(l.v.counts), l.v.count, l.v.sum
		l.v.mu.Unlock()
		values := append(slices.Clone(l.values), "")
		cumulative := uint64(0)
		for i, upper := range h.buckets {
			if i < len(counts) {
				cumulative += counts[i]
			}
			values[len(values)-1] = formatFloat(upper)
			writeCount(w, h.fullName+"_bucket", labels, values, cumulative)
		}
		values[len(values)-1] = "+Inf"
		writeCount(w, h.fullName+"_bucket", labels, values, count)
		writeSample(w, h.fullName+"_sum", h.labels, l.values, "", 0, sum)
		writeCount(w, h.fullName+"_count", h.labels, l.values, count)
	}
}

// funcFamily is a family of one unlabelled series whose value is read at
// each scrape.
type funcFamily struct {
	desc
	read func() float64
}

func (f *funcFamily) write(w *textWriter) {
	f.header(w)
	writeSample(w, f.fullName, nil, nil, "", 0, f.read())
}

// writeSample writes one line: name{labels} value. With extraName set,
// the label extraName="extraValue" goes last (a summary's quantile).
func writeSample(w *textWriter, name string, labels, values []string, extraName string, extraValue float64, v float64) {
	w.WriteString(name)
	writeLabels(w, name, labels, values, extraName, extraValue)
	w.WriteByte(' ')
	w.WriteString(formatFloat(v))
	w.WriteByte('\n')
}

func writeCount(w *textWriter, name string, labels, values []string, n uint64) {
	w.WriteString(name)
	writeLabels(w, name, labels, values, "", 0)
	w.WriteByte(' ')
	w.WriteString(strconv.FormatUint(n, 10))
	w.WriteByte('\n')
}

func writeLabels(w *textWriter, name string, labels, values []string, extraName string, extraValue float64) {
	if len(labels) == 0 && extraName == "" {
		return
	}
	w.WriteByte('{')
	for i, l := range labels {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString(l)
		w.WriteString(`="`)
		if !utf8.ValidString(values[i]) && w.err == nil {
			// Prometheus's parser refuses such a line, and with it the scrape.
			w.err = fmt.Errorf("%s: label %s=%q is not valid UTF-8", name, l, values[i])
		}
		writeEscaped(w, values[i], true)
		w.WriteByte('"')
	}
	if extraName != "" {
		if len(labels) > 0 {
			w.WriteByte(',')
		}
		w.WriteString(extraName)
		w.WriteString(`="`)
		w.WriteString(formatFloat(extraValue))
		w.WriteByte('"')
	}
	w.WriteByte('}')
}

// writeEscaped escapes a backslash and a newline (HELP text), and a
// double quote too in a label value.
func writeEscaped(w *textWriter, s string, quote bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			w.WriteString(`\\`)
		case c == '\n':
			w.WriteString(`\n`)
		case c == '"' && quote:
			w.WriteString(`\"`)
		default:
			w.WriteByte(c)
		}
	}
}

// formatFloat writes a value as Prometheus's own clients do: the
// shortest representation that reads back exactly, +Inf, -Inf, NaN.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, +1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// optionalFamily is a funcFamily left out of a scrape when ok says its
// value could not be read.
type optionalFamily struct {
	funcFamily
	ok func() bool
}

func (f *optionalFamily) write(w *textWriter) {
	if f.ok() {
		f.funcFamily.write(w)
	}
}
