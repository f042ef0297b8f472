package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
)

// summaryCache keeps a model's document summaries in a JSON file beside
// the -index file, so that a run over unchanged documents asks the model
// for nothing. Keys are contextheader's digests of the model and prompt.
type summaryCache struct {
	path  string
	mu    sync.Mutex
	items map[string]string
	dirty bool
}

// openSummaryCache reads the cache at path; a missing or unreadable file is
// an empty cache, which the next save replaces.
func openSummaryCache(path string) *summaryCache {
	c := &summaryCache{path: path, items: map[string]string{}}
	if b, err := os.ReadFile(path); err == nil {
		if json.Unmarshal(b, &c.items) != nil {
			c.items = map[string]string{}
		}
	}
	return c
}

func (c *summaryCache) Get(_ context.Context, key string) (string, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[key]
	return v, ok, nil
}

func (c *summaryCache) Put(_ context.Context, key, value string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[key] = value
	c.dirty = true
	return nil
}

// save writes the cache if it changed, through a temporary file renamed
// over the old one.
func (c *summaryCache) save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty {
		return nil
	}
	b, err := json.MarshalIndent(c.items, "", "\t") // keys sorted: the same cache, the same file
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.path), ".summaries-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if err = errors.Join(err, tmp.Close()); err == nil {
		err = os.Rename(tmp.Name(), c.path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	c.dirty = false
	return nil
}
