package contextheader_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// The context-poor corpus of testdata/contextpoor: documents whose
// sections do not name their subject, and questions that do, each with
// the byte span of its answer.
type corpus struct {
	Documents []struct {
		ID, File, Title, Format string
	}
	Questions []struct {
		Document, Question, Answer string
		Start, End                 int
	}
}

func loadContextPoor(t testing.TB) (corpus, []document.Document) {
	t.Helper()
	dir := filepath.Join("testdata", "contextpoor")
	b, err := os.ReadFile(filepath.Join(dir, "corpus.json"))
	require.NoError(t, err)
	var c corpus
	require.NoError(t, json.Unmarshal(b, &c))
	docs := make([]document.Document, len(c.Documents))
	for i, d := range c.Documents {
		text, err := os.ReadFile(filepath.Join(dir, d.File))
		require.NoError(t, err)
		docs[i] = document.Document{ID: d.ID, Title: d.Title, Text: string(text)}
		if d.Format == "markdown" {
			docs[i].Format = document.Markdown
		}
	}
	byID := map[string]string{}
	for _, d := range docs {
		byID[d.ID] = d.Text
	}
	for _, q := range c.Questions {
		text, ok := byID[q.Document]
		require.True(t, ok, "question %q names an unknown document", q.Question)
		require.Equal(t, q.Answer, text[q.Start:q.End], "the span of the answer to %q", q.Question)
	}
	return c, docs
}

// failureRate indexes every chunk's embed text (by embed) with the default
// embedder in the memory store and returns 1 - hit@5: the share of
// questions whose top five hits hold no chunk overlapping the answer.
func failureRate(t *testing.T, c corpus, chunks map[string][]contextheader.Chunk, embed func(contextheader.Chunk) string) float64 {
	t.Helper()
	ctx := context.Background()
	emb, err := lexical.New(lexical.Config{})
	require.NoError(t, err)
	store, err := memory.New(memory.Config{})
	require.NoError(t, err)
	for docID, cs := range chunks {
		texts := make([]string, len(cs))
		for i, ch := range cs {
			texts[i] = embed(ch)
		}
		vecs, err := emb.Embed(ctx, texts)
		require.NoError(t, err)
		for i, ch := range cs {
			require.NoError(t, store.Upsert(ctx, vectorstore.Record{
				ID: fmt.Sprintf("%s#%d", docID, i), DocID: docID, Index: i, Text: ch.Text, Vector: vecs[i],
				Metadata: map[string]string{"start": fmt.Sprint(ch.Start), "end": fmt.Sprint(ch.End)},
			}))
		}
	}
	misses := 0
	for _, q := range c.Questions {
		v, err := emb.Embed(ctx, []string{q.Question})
		require.NoError(t, err)
		hits, err := store.Query(ctx, v[0], 5, vectorstore.Filter{})
		require.NoError(t, err)
		if !holdsAnswer(chunks[q.Document], hits, q.Document, q.Start, q.End) {
			misses++
		}
	}
	return float64(misses) / float64(len(c.Questions))
}

func holdsAnswer(cs []contextheader.Chunk, hits []vectorstore.Hit, docID string, start, end int) bool {
	for _, h := range hits {
		if h.DocID == docID && cs[h.Index].Start < end && start < cs[h.Index].End {
			return true
		}
	}
	return false
}

// TestRetrievalContextPoor measures what headers do for retrieval on the
// context-poor corpus: the deterministic header (title and section path)
// must cut the failures of plain chunks at least by half.
func TestRetrievalContextPoor(t *testing.T) {
	c, docs := loadContextPoor(t)
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	for _, maxTokens := range []int{64, 128} {
		t.Run(fmt.Sprint(maxTokens), func(t *testing.T) {
			plain, err := contextheader.New(contextheader.Config{Tokenizer: tok})
			require.NoError(t, err)
			summary, err := contextheader.New(contextheader.Config{
				Tokenizer:  tok,
				Parts:      []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}, {Kind: contextheader.Summary}},
				Summarizer: &contextheader.Extractive{},
			})
			require.NoError(t, err)
			headers := decorateAll(t, docs, tok, maxTokens, plain)
			summaries := decorateAll(t, docs, tok, maxTokens, summary)
			base := failureRate(t, c, headers, func(ch contextheader.Chunk) string { return ch.Text })
			det := failureRate(t, c, headers, func(ch contextheader.Chunk) string { return ch.EmbedText })
			ext := failureRate(t, c, summaries, func(ch contextheader.Chunk) string { return ch.EmbedText })
			t.Logf("MaxTokens %d, %d questions: 1 - hit@5: plain chunks %.3f, title+section header %.3f (%.0f%% fewer failures), with extractive summary %.3f (%.0f%% fewer)",
				maxTokens, len(c.Questions), base, det, 100*(1-det/base), ext, 100*(1-ext/base))
			require.Positive(t, base, "the corpus is meant to defeat plain chunks")
			require.LessOrEqual(t, det, base/2)
		})
	}
}

func decorateAll(t *testing.T, docs []document.Document, tok tokencount.Tokenizer, maxTokens int, d *contextheader.Decorator) map[string][]contextheader.Chunk {
	t.Helper()
	out := map[string][]contextheader.Chunk{}
	for _, doc := range docs {
		ck, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: maxTokens, Format: doc.Format})
		require.NoError(t, err)
		chunks, err := ck.Split(doc.Text)
		require.NoError(t, err)
		out[doc.ID], err = d.Decorate(context.Background(), doc, chunks)
		require.NoError(t, err)
	}
	return out
}
