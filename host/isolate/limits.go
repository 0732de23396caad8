package isolate

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// OSLimits are the operating-system limits a worker process runs under.
// Zero fields take the defaults of DefaultOSLimits.
type OSLimits struct {
	// Data bounds the worker's data segment (RLIMIT_DATA): what it can
	// map for its heap, in bytes. A worker that needs more dies with the
	// Go runtime's out-of-memory error and is restarted.
	Data int64
	// AddressSpace bounds the worker's virtual address space (RLIMIT_AS),
	// in bytes. The Go runtime reserves gigabytes of address space it never
	// touches, and how much depends on the binary, so zero means: what the
	// worker has reserved when it starts, plus Data, plus a margin.
	AddressSpace int64
	// CPU bounds the worker's CPU time (RLIMIT_CPU) over its life. It is
	// a backstop: deadlines stop calls long before; a worker that reaches
	// it is killed by the kernel and restarted, with a fresh allowance.
	CPU time.Duration
	// Files bounds the descriptors the worker may have open
	// (RLIMIT_NOFILE). Zero means exactly those it has at start (its
	// three standard streams), so it can open no file and no socket.
	Files int

	// extraFiles are descriptors allowed beyond those open at start when
	// Files is zero: the connections of a shared state store.
	extraFiles int
}

// addressMargin is the address space a worker gets beyond what it had
// reserved at start and its data limit.
const addressMargin = 1 << 30

// DefaultOSLimits are the limits of a worker whose host set none: a data
// segment of 512 MiB, the address space that goes with it, and an hour of
// CPU.
var DefaultOSLimits = OSLimits{Data: 512 << 20, CPU: time.Hour}

// Or returns l with zero fields replaced by the defaults.
func (l OSLimits) Or() OSLimits {
	if l.Data == 0 {
		l.Data = DefaultOSLimits.Data
	}
	if l.CPU == 0 {
		l.CPU = DefaultOSLimits.CPU
	}
	return l
}

// encode writes the limits for the worker's environment.
func (l OSLimits) encode() string {
	return fmt.Sprintf("data=%d,as=%d,cpu=%d,files=%d", l.Data, l.AddressSpace, int64(l.CPU/time.Second), l.Files)
}

func decodeOSLimits(s string) (OSLimits, error) {
	var l OSLimits
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		n, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil || n < 0 {
			return l, fmt.Errorf("bad worker limits %q", s)
		}
		switch k {
		case "data":
			l.Data = n
		case "as":
			l.AddressSpace = n
		case "cpu":
			l.CPU = time.Duration(n) * time.Second
		case "files":
			l.Files = int(n)
		default:
			return l, fmt.Errorf("bad worker limits %q", s)
		}
	}
	return l, nil
}
