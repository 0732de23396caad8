package metrics

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// The process's process_* metrics, under the names and meaning
// client_golang's process collector gives them on Linux, read from
// /proc/self at each scrape. A value that cannot be read leaves its
// family out of the scrape.

// userHZ is the kernel's clock tick for /proc's times (USER_HZ, 100 on
// every architecture Linux exposes it for).
const userHZ = 100

// processStats are what one scrape read.
type processStats struct {
	ok                     bool
	cpu, vsize, rss, start float64
	openFDs                float64
	maxFDs, maxAS          float64
	limitsOK, fdsOK        bool
	rx, tx                 float64
	netOK                  bool
}

func (p *processStats) read() {
	*p = processStats{}
	p.ok = p.readStat()
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil {
		p.maxFDs = float64(lim.Cur)
		if syscall.Getrlimit(syscall.RLIMIT_AS, &lim) == nil {
			p.maxAS, p.limitsOK = float64(lim.Cur), true
		}
	}
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		p.openFDs, p.fdsOK = float64(len(fds)), true
	}
	p.rx, p.tx, p.netOK = readNetDev()
}

// readStat reads /proc/self/stat's times and sizes and the boot time.
func (p *processStats) readStat() bool {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return false
	}
	// The command name is in parentheses and may hold spaces: the fields
	// counted here start after its closing one, with field 3 (state).
	end := bytes.LastIndexByte(data, ')')
	if end < 0 {
		return false
	}
	f := strings.Fields(string(data[end+1:]))
	if len(f) < 22 {
		return false
	}
	num := func(i int) float64 { v, _ := strconv.ParseFloat(f[i-3], 64); return v }
	boot, ok := bootTime()
	if !ok {
		return false
	}
	pageSize := float64(os.Getpagesize())
	p.cpu = (num(14) + num(15)) / userHZ
	p.start = boot + num(22)/userHZ
	p.vsize = num(23)
	p.rss = num(24) * pageSize
	return true
}

func bootTime() (float64, bool) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			b, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return b, err == nil
		}
	}
	return 0, false
}

// readNetDev sums the bytes received and sent over every interface of
// the process's network namespace.
func readNetDev() (rx, tx float64, ok bool) {
	data, err := os.ReadFile("/proc/self/net/dev")
	if err != nil {
		return 0, 0, false
	}
	for line := range strings.Lines(string(data)) {
		_, counters, found := strings.Cut(line, ":")
		f := strings.Fields(counters)
		if !found || len(f) < 9 {
			continue // the two header lines
		}
		r, err1 := strconv.ParseFloat(f[0], 64)
		t, err2 := strconv.ParseFloat(f[8], 64)
		if err1 != nil || err2 != nil {
			continue
		}
		rx, tx = rx+r, tx+t
	}
	return rx, tx, true
}

// processFamilies are the process_* families, reading p (filled before
// each scrape).
func processFamilies(p *processStats) []family {
	f := func(name, help, kind string, ok func() bool, v func() float64) family {
		return &optionalFamily{funcFamily{desc: desc{fullName: name, help: help, kind: kind}, read: v}, ok}
	}
	stat := func() bool { return p.ok }
	return []family{
		f("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", "counter", stat, func() float64 { return p.cpu }),
		f("process_max_fds", "Maximum number of open file descriptors.", "gauge", func() bool { return p.limitsOK }, func() float64 { return p.maxFDs }),
		f("process_network_receive_bytes_total", "Number of bytes received by the process over the network.", "counter", func() bool { return p.netOK }, func() float64 { return p.rx }),
		f("process_network_transmit_bytes_total", "Number of bytes sent by the process over the network.", "counter", func() bool { return p.netOK }, func() float64 { return p.tx }),
		f("process_open_fds", "Number of open file descriptors.", "gauge", func() bool { return p.fdsOK }, func() float64 { return p.openFDs }),
		f("process_resident_memory_bytes", "Resident memory size in bytes.", "gauge", stat, func() float64 { return p.rss }),
		f("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", "gauge", stat, func() float64 { return p.start }),
		f("process_virtual_memory_bytes", "Virtual memory size in bytes.", "gauge", stat, func() float64 { return p.vsize }),
		f("process_virtual_memory_max_bytes", "Maximum amount of virtual memory available in bytes.", "gauge", func() bool { return p.limitsOK }, func() float64 { return p.maxAS }),
	}
}
