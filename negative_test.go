package ragkit_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/loader"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

// TestNegativeSettingsRefused holds the convention of CONTRIBUTING.md: a
// negative number in a configuration is never a way to say "none"; it is
// refused with the package's ErrConfig, naming the field. Every numeric
// field of each Config is tried, found by reflection, so a field added
// later is held to it too. Enumerations are numbers as well: a negative
// one is refused the same way.
func TestNegativeSettingsRefused(t *testing.T) {
	tok := tokentest.Words{}
	client, err := openai.New(openai.Config{BaseURL: "http://localhost:1/v1", APIKey: "test"})
	require.NoError(t, err)
	store := &memory.Store{}
	emb, err := lexical.New(lexical.Config{})
	require.NoError(t, err)
	ch, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 100})
	require.NoError(t, err)
	root := t.TempDir()

	negatives(t, chunker.Config{Tokenizer: tok, MaxTokens: 100}, chunker.ErrConfig,
		func(c chunker.Config) error { _, err := chunker.New(c); return err })
	negatives(t, budget.Config{Tokenizer: tok, Limit: 1000}, budget.ErrConfig,
		func(c budget.Config) error { _, err := budget.New(c); return err })
	negatives(t, contextheader.Config{Tokenizer: tok}, contextheader.ErrConfig,
		func(c contextheader.Config) error { _, err := contextheader.New(c); return err })
	negatives(t, contextheader.ExtractiveConfig{}, contextheader.ErrConfig,
		func(c contextheader.ExtractiveConfig) error { _, err := contextheader.NewExtractive(c); return err })
	negatives(t, ingest.Config{Chunker: ch, Store: store, Embedder: emb}, ingest.ErrConfig,
		func(c ingest.Config) error { _, err := ingest.New(c); return err })
	negatives(t, segment.Config{}, segment.ErrConfig,
		func(c segment.Config) error { _, err := segment.New(c); return err })
	negatives(t, window.ExpanderConfig{Source: store, Tokenizer: tok}, window.ErrConfig,
		func(c window.ExpanderConfig) error { _, err := window.NewExpander(c); return err })
	negatives(t, window.ExtractorConfig{Source: store, Tokenizer: tok}, window.ErrConfig,
		func(c window.ExtractorConfig) error { _, err := window.NewExtractor(c); return err })
	negatives(t, loader.Config{}, loader.ErrConfig,
		func(c loader.Config) error { _, err := loader.Dir(context.Background(), root, c); return err })
	negatives(t, openai.Config{BaseURL: "http://localhost:1/v1", APIKey: "test"}, openai.ErrConfig,
		func(c openai.Config) error { _, err := openai.New(c); return err })
	negatives(t, openai.EmbedderConfig{Client: client, Model: "m"}, openai.ErrConfig,
		func(c openai.EmbedderConfig) error { _, err := openai.NewEmbedder(c); return err })
	negatives(t, openai.SummarizerConfig{Client: client, Model: "m"}, openai.ErrConfig,
		func(c openai.SummarizerConfig) error { _, err := openai.NewSummarizer(c); return err })
	negatives(t, openai.RerankerConfig{Client: client}, openai.ErrConfig,
		func(c openai.RerankerConfig) error { _, err := openai.NewReranker(c); return err })
}

// negatives checks that make accepts base and refuses base with any one
// numeric field set to -1, with an error wrapping sentinel that names the
// field.
func negatives[C any](t *testing.T, base C, sentinel error, make func(C) error) {
	t.Helper()
	typ := reflect.TypeFor[C]()
	require.NoError(t, make(base), "%v as given", typ)
	tried := 0
	for i := range typ.NumField() {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		cfg := base
		v := reflect.ValueOf(&cfg).Elem().Field(i)
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(-1)
		case reflect.Float32, reflect.Float64:
			v.SetFloat(-1)
		default:
			continue
		}
		tried++
		err := make(cfg)
		if assert.Truef(t, errors.Is(err, sentinel), "%v.%s = -1: got %v, want an error wrapping %v", typ, f.Name, err, sentinel) {
			assert.Contains(t, err.Error(), f.Name, "%v.%s: the error names the field", typ, f.Name)
		}
	}
	assert.Positive(t, tried, "%v has numeric fields", typ)
}
