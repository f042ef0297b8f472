// Package syncmap is a map of string keys safe for concurrent use, the
// body of the packages' in-memory caches.
package syncmap

import "sync"

// A Map is a map of string keys safe for concurrent use. Its zero value is
// empty and ready to use.
type Map[V any] struct {
	mu sync.RWMutex
	m  map[string]V
}

// Get returns the value stored under key.
func (m *Map[V]) Get(key string) (V, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	v, ok := m.m[key]
	return v, ok
}

// Put stores v under key.
func (m *Map[V]) Put(key string, v V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = make(map[string]V)
	}
	m.m[key] = v
}

// Len returns the number of entries; 0 for a nil Map.
func (m *Map[V]) Len() int {
	if m == nil {
		return 0
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.m)
}
