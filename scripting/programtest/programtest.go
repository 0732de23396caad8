package programtest

import (
	"maps"
	"slices"
	"sync"

	"github.com/hookhost/hookhost/scripting"
)

// MemPrograms is a scripting.ProgramCache in memory that counts its use,
// for the engines' tests of their program caches.
type MemPrograms struct {
	mu         sync.Mutex
	data       map[string][]byte
	gets, puts int
}

var _ scripting.ProgramCache = (*MemPrograms)(nil)

// Get implements scripting.ProgramCache, and counts the get.
func (m *MemPrograms) Get(key string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gets++
	return m.data[key]
}

// Put implements scripting.ProgramCache: it keeps a copy of data, and
// counts the put.
func (m *MemPrograms) Put(key string, data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.puts++
	if m.data == nil {
		m.data = map[string][]byte{}
	}
	m.data[key] = slices.Clone(data)
}

// Counts is how many Gets and Puts the cache has had.
func (m *MemPrograms) Counts() (gets, puts int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.gets, m.puts
}

// Keys lists the keys the cache holds, sorted.
func (m *MemPrograms) Keys() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.data))
}

// Data is what the cache holds under key.
func (m *MemPrograms) Data(key string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.data[key]
}

// Set replaces what the cache holds under key (a test damaging it),
// without counting a Put.
func (m *MemPrograms) Set(key string, data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.data == nil {
		m.data = map[string][]byte{}
	}
	m.data[key] = data
}
