package bert_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/bert"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
)

var (
	_ vectorstore.Embedder = (*bert.Model)(nil)
	_ retrieve.Reranker    = (*bert.Model)(nil)
)

// expected is testdata/tiny/expected.json: the outputs of the tiny
// models by testdata/reference.py.
type expected struct {
	Texts  []string `json:"texts"`
	Query  string   `json:"query"`
	Models map[string]struct {
		Vectors [][]float64 `json:"vectors"`
		Scores  []float64   `json:"scores"`
	} `json:"models"`
}

func loadExpected(t *testing.T) expected {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "tiny", "expected.json"))
	require.NoError(t, err)
	var exp expected
	require.NoError(t, json.Unmarshal(b, &exp))
	return exp
}

func tiny(t *testing.T, name string, opts bert.Options) *bert.Model {
	t.Helper()
	m, err := bert.Load(filepath.Join("testdata", "tiny", name), opts)
	require.NoError(t, err)
	return m
}

// tolerance is how far a float32 forward pass may be from the float64
// reference: a few float32 roundings of values of order one, through two
// layers.
const tolerance = 2e-5

// TestEmbedMatchesReference compares Embed with the reference's vectors
// for the tiny embedders: F32 weights with mean pooling and Normalize,
// F16 with [CLS] pooling, BF16 in a model/ folder without
// sentence-transformers files; texts longer than max_seq_length
// truncated.
func TestEmbedMatchesReference(t *testing.T) {
	exp := loadExpected(t)
	tests := []struct {
		name      string
		pooling   bert.Pooling
		normalize bool
		maxTokens int
	}{
		{"embed", bert.PoolingMean, true, 16},
		{"embed-f16", bert.PoolingCLS, false, 24},
		{"embed-bf16", bert.PoolingMean, false, 32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tiny(t, tt.name, bert.Options{})
			assert.Equal(t, tt.pooling, m.Pooling())
			assert.Equal(t, tt.normalize, m.Normalized())
			assert.Equal(t, tt.maxTokens, m.MaxTokens())
			got, err := m.Embed(context.Background(), exp.Texts)
			require.NoError(t, err)
			want := exp.Models[tt.name].Vectors
			require.Len(t, got, len(want))
			for i := range want {
				require.Len(t, got[i], m.Dimensions())
				for k := range want[i] {
					require.InDelta(t, want[i][k], got[i][k], tolerance, "text %d (%q), component %d", i, exp.Texts[i], k)
				}
			}
		})
	}
}

// TestRerankMatchesReference compares Rerank with the reference's scores
// for the tiny cross-encoder, pairs over max_seq_length truncated
// longest first.
func TestRerankMatchesReference(t *testing.T) {
	exp := loadExpected(t)
	m := tiny(t, "rerank", bert.Options{})
	got, err := m.Rerank(context.Background(), exp.Query, exp.Texts)
	require.NoError(t, err)
	want := exp.Models["rerank"].Scores
	require.Len(t, got, len(want))
	for i := range want {
		require.InDelta(t, want[i], got[i], tolerance, "text %d (%q)", i, exp.Texts[i])
	}
}

// TestBatchingDoesNotChangeVectors checks that a text's vector is the
// same, bit for bit, whether it is embedded alone, in a batch of texts of
// other lengths, on one goroutine or several, in small batches or one.
func TestBatchingDoesNotChangeVectors(t *testing.T) {
	exp := loadExpected(t)
	ctx := context.Background()
	base := tiny(t, "embed", bert.Options{Workers: 1})
	var alone [][]float32
	for _, text := range exp.Texts {
		v, err := base.Embed(ctx, []string{text})
		require.NoError(t, err)
		alone = append(alone, v[0])
	}
	for _, opts := range []bert.Options{{Workers: 1}, {Workers: 3}, {Workers: 2, BatchTokens: 7}, {BatchTokens: 1}} {
		m := tiny(t, "embed", opts)
		got, err := m.Embed(ctx, exp.Texts)
		require.NoError(t, err)
		require.Equal(t, alone, got, "options %+v", opts)
	}
}

func TestTruncationError(t *testing.T) {
	exp := loadExpected(t)
	ctx := context.Background()
	m := tiny(t, "embed", bert.Options{Truncation: bert.TruncationError})
	_, err := m.Embed(ctx, exp.Texts)
	require.ErrorIs(t, err, bert.ErrTooLong)
	_, err = m.Embed(ctx, exp.Texts[2:4]) // the short ones
	require.NoError(t, err)
	r := tiny(t, "rerank", bert.Options{Truncation: bert.TruncationError})
	_, err = r.Rerank(ctx, exp.Query, exp.Texts)
	require.ErrorIs(t, err, bert.ErrTooLong)
}

// TestMaxTokensOption checks that Options.MaxTokens truncates: with room
// for one token of text, texts that begin with the same token have the
// same vector.
func TestMaxTokensOption(t *testing.T) {
	m := tiny(t, "embed", bert.Options{MaxTokens: 3})
	got, err := m.Embed(context.Background(), []string{"the cat", "the dog sat", "cat the"})
	require.NoError(t, err)
	assert.Equal(t, got[0], got[1])
	assert.NotEqual(t, got[0], got[2])
}

func TestEmpty(t *testing.T) {
	m := tiny(t, "embed", bert.Options{})
	got, err := m.Embed(context.Background(), nil)
	require.NoError(t, err)
	assert.Empty(t, got)
	r := tiny(t, "rerank", bert.Options{})
	scores, err := r.Rerank(context.Background(), "q", nil)
	require.NoError(t, err)
	assert.Empty(t, scores)
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := tiny(t, "rerank", bert.Options{})
	_, err := m.Embed(ctx, []string{"a"})
	require.ErrorIs(t, err, context.Canceled)
	_, err = m.Rerank(ctx, "q", []string{"a"})
	require.ErrorIs(t, err, context.Canceled)
}

func TestRerankNeedsClassifier(t *testing.T) {
	m := tiny(t, "embed", bert.Options{})
	_, err := m.Rerank(context.Background(), "q", []string{"a"})
	require.ErrorIs(t, err, bert.ErrUnsupported)
}

func TestOptionsRefused(t *testing.T) {
	for _, opts := range []bert.Options{
		{MaxTokens: -1}, {Workers: -1}, {BatchTokens: -1}, {MaxTokens: 33}, {MaxTokens: 2},
		{Truncation: 2}, {Pooling: -1}, {Normalization: 3},
	} {
		_, err := bert.Load(filepath.Join("testdata", "tiny", "embed"), opts)
		require.ErrorIs(t, err, bert.ErrConfig, "%+v", opts)
	}
}

func TestOptionsOverrideFolder(t *testing.T) {
	m := tiny(t, "embed", bert.Options{Pooling: bert.PoolingCLS, Normalization: bert.NoNormalize})
	assert.Equal(t, bert.PoolingCLS, m.Pooling())
	assert.False(t, m.Normalized())
	v, err := m.Embed(context.Background(), []string{"the cat sat"})
	require.NoError(t, err)
	var ss float64
	for _, x := range v[0] {
		ss += float64(x) * float64(x)
	}
	assert.Greater(t, math.Abs(math.Sqrt(ss)-1), 1e-3, "a vector of unit length")
}

// copyTiny copies a tiny model's folder to a temporary one and applies
// edit to it, for the tests of broken folders.
func copyTiny(t *testing.T, name string, edit func(dir string)) string {
	t.Helper()
	src := filepath.Join("testdata", "tiny", name)
	dst := t.TempDir()
	require.NoError(t, os.CopyFS(dst, os.DirFS(src)))
	edit(dst)
	return dst
}

func editJSON(t *testing.T, path string, edit func(map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal(b, &v))
	edit(v)
	b, err = json.Marshal(v)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// TestLoadRefuses checks that folders this package cannot run are refused
// with the sentinel that says why, naming the part.
func TestLoadRefuses(t *testing.T) {
	config := func(k string, v any) func(string) {
		return func(dir string) {
			editJSON(t, filepath.Join(dir, "config.json"), func(m map[string]any) { m[k] = v })
		}
	}
	tests := []struct {
		name string
		edit func(dir string)
		want error
		says string
	}{
		{"roberta", config("architectures", []string{"XLMRobertaModel"}), bert.ErrUnsupported, "XLMRobertaModel"},
		{"nomic", config("architectures", []string{"NomicBertModel"}), bert.ErrUnsupported, "NomicBertModel"},
		{"no architecture", config("architectures", []string{}), bert.ErrUnsupported, "architectures"},
		{"relative positions", config("position_embedding_type", "relative_key"), bert.ErrUnsupported, "relative_key"},
		{"activation", config("hidden_act", "swish"), bert.ErrUnsupported, "swish"},
		{"huge hidden", config("hidden_size", 1<<30), bert.ErrFormat, "hidden_size"},
		{"heads", config("num_attention_heads", 3), bert.ErrFormat, "num_attention_heads"},
		{"shape", config("intermediate_size", 41), bert.ErrFormat, "intermediate.dense.weight"},
		{"no config", func(dir string) { os.Remove(filepath.Join(dir, "config.json")) }, bert.ErrFormat, "config.json"},
		{"no weights", func(dir string) { os.Remove(filepath.Join(dir, "model.safetensors")) }, bert.ErrFormat, ".safetensors"},
		{"bad config", func(dir string) { os.WriteFile(filepath.Join(dir, "config.json"), []byte("{"), 0o644) }, bert.ErrFormat, "config.json"},
		{"truncated weights", func(dir string) {
			p := filepath.Join(dir, "model.safetensors")
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)-4], 0o644)
		}, bert.ErrFormat, "bytes"},
		{"pooling", func(dir string) {
			editJSON(t, filepath.Join(dir, "1_Pooling", "config.json"), func(m map[string]any) { m["pooling_mode_max_tokens"] = true })
		}, bert.ErrUnsupported, "max_tokens"},
		{"pooling path", func(dir string) {
			os.WriteFile(filepath.Join(dir, "modules.json"), []byte(`[{"path":"../x","type":"sentence_transformers.models.Pooling"}]`), 0o644)
		}, bert.ErrFormat, "../x"},
		{"module", func(dir string) {
			os.WriteFile(filepath.Join(dir, "modules.json"), []byte(`[{"path":"2_Dense","type":"sentence_transformers.models.Dense"}]`), 0o644)
		}, bert.ErrUnsupported, "Dense"},
		{"max_seq_length", func(dir string) {
			os.WriteFile(filepath.Join(dir, "sentence_bert_config.json"), []byte(`{"max_seq_length": 999}`), 0o644)
		}, bert.ErrFormat, "max_seq_length"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyTiny(t, "embed", tt.edit)
			_, err := bert.Load(dir, bert.Options{})
			require.ErrorIs(t, err, tt.want)
			require.ErrorContains(t, err, tt.says)
		})
	}
}

// TestVocabularyTooSmall checks that a tokenizer.json with ids past
// config.json's vocab_size gives an error, not an index out of range.
func TestVocabularyTooSmall(t *testing.T) {
	dir := copyTiny(t, "embed", func(dir string) {
		editJSON(t, filepath.Join(dir, "config.json"), func(m map[string]any) { m["vocab_size"] = 10 })
	})
	// The embedding table must then have 10 rows: the weights disagree.
	_, err := bert.Load(dir, bert.Options{})
	require.ErrorIs(t, err, bert.ErrFormat)
}

func TestTokenizer(t *testing.T) {
	m := tiny(t, "embed", bert.Options{})
	assert.Equal(t, 4, m.Tokenizer().Count("the cats!")) // the, cat, ##s, !
}
