//go:build !linux

package metrics

// Elsewhere than Linux, serve exports no process_* metrics.

type processStats struct{}

func (p *processStats) read() {}

func processFamilies(*processStats) []family { return nil }
