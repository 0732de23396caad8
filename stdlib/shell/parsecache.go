package shell

import (
	"context"
	"sync"
)

// parseCacheLines is how many lines a parseCache keeps, and
// parseCacheLineBytes the longest line it keeps: a fire parses one
// command line, several times (every pack that guards the shell looks at
// it), and a server fires for a few agents at once.
const (
	parseCacheLines     = 8
	parseCacheLineBytes = 4 << 10
)

// A parseCache keeps the commands of the last lines the module's parse
// and salvage read whole, so that the packs of one fire parse a line
// once (the shipped packs parse each shell call four times). Parse
// depends on nothing but the line, and a Command is never changed once
// Parse has returned it, so the commands are shared between calls; a
// parse that failed (a syntax error, or one stopped at its deadline) is
// not kept. The cost is at most parseCacheLines lines of
// parseCacheLineBytes and their commands per module, that is per host.
type parseCache struct {
	mu    sync.Mutex
	lines [parseCacheLines]string
	cmds  [parseCacheLines][]Command
	next  int // the slot put overwrites next
}

// parse is Parse through the cache.
func (p *parseCache) parse(ctx context.Context, line string) ([]Command, error) {
	if cmds, ok := p.get(line); ok {
		return cmds, nil
	}
	cmds, err := Parse(ctx, line)
	if err != nil {
		return nil, err
	}
	p.put(line, cmds)
	return cmds, nil
}

// get returns the commands of line, if it is kept.
func (p *parseCache) get(line string) ([]Command, bool) {
	if len(line) > parseCacheLineBytes {
		return nil, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.lines {
		if p.cmds[i] != nil && p.lines[i] == line {
			return p.cmds[i], true
		}
	}
	return nil, false
}

// put keeps the commands of line in place of the oldest line kept.
func (p *parseCache) put(line string, cmds []Command) {
	if len(line) > parseCacheLineBytes || cmds == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lines[p.next], p.cmds[p.next] = line, cmds
	p.next = (p.next + 1) % parseCacheLines
}
