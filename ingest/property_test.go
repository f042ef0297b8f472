package ingest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// listingStore is a store without ReplaceDocument that can
// still list its documents, to prune through the fallback path.
type listingStore struct {
	vectorstore.VectorStore
	vectorstore.DocumentLister
}

// After any sequence of random edits, re-indexing leaves the store holding
// exactly what a fresh index of the edited corpus holds (IDs, texts,
// offsets, vectors, metadata), and embeds no text that the store held for
// one of the documents indexed, and no text twice.
func TestReindexEqualsFreshIndex(t *testing.T) {
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	headers, err := contextheader.New(contextheader.Config{Tokenizer: tok})
	require.NoError(t, err)
	setups := []struct {
		name  string
		cfg   ingest.Config
		store func(*memory.Store) vectorstore.VectorStore
	}{
		{"memory", ingest.Config{}, nil},
		{"headers", ingest.Config{Headers: headers, BatchSize: 5, Concurrency: 2}, nil},
		{"fallback", ingest.Config{BatchSize: 3, MaxBatchTokens: 300}, func(m *memory.Store) vectorstore.VectorStore {
			return listingStore{m, m}
		}},
		{"cache", ingest.Config{Cache: &ingest.MemoryCache{}, Concurrency: 3}, nil},
		{"version", ingest.Config{Version: "v1", Headers: headers}, nil},
		{"version fallback", ingest.Config{Version: "v1"}, func(m *memory.Store) vectorstore.VectorStore {
			return listingStore{m, m}
		}},
	}
	base := corpus(t, "room_with_a_view.txt", 8, 6)
	spare := corpus(t, "sherlock_1661.txt", 4, 5)
	for _, s := range setups {
		for seed := range uint64(5) {
			t.Run(fmt.Sprintf("%s/seed %d", s.name, seed), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(seed, 20))
				cfg := s.cfg
				cfg.Chunker = newChunker(t, 48)
				cfg.EmbedderName = "fake"
				cfg.Prune = true
				mem := &memory.Store{}
				cfg.Store = mem
				if s.store != nil {
					cfg.Store = s.store(mem)
				}
				emb := &counting{}
				cfg.Embedder = emb
				ix := newIndexer(t, cfg)
				docs := slices.Clone(base)
				for round := range 6 {
					for range 1 + rng.IntN(3) {
						docs = edit(rng, docs, spare)
					}
					had := keys(dump(t, mem), docs)
					before := len(emb.texts())
					_, err := ix.Index(context.Background(), docs...)
					require.NoError(t, err, "round %d", round)
					require.Equal(t, fresh(t, cfg, docs), dump(t, mem), "round %d", round)
					embedded := emb.texts()[before:]
					for _, text := range embedded {
						require.False(t, had[ingest.Key("fake", text)], "round %d: embedded again: %q", round, text)
					}
					require.Len(t, embedded, len(uniq(embedded)), "round %d: a text embedded twice", round)
				}
			})
		}
	}
}

// keys returns the embed keys of the records of docs.
func keys(recs map[string][]vectorstore.Record, docs []document.Document) map[string]bool {
	out := map[string]bool{}
	for _, d := range docs {
		for _, r := range recs[d.ID] {
			out[r.Notes.Embed] = true
		}
	}
	return out
}

func uniq(texts []string) map[string]bool {
	out := map[string]bool{}
	for _, t := range texts {
		out[t] = true
	}
	return out
}

// edit makes one random change to the corpus: a sentence deleted, a word
// inserted, a paragraph copied from another document or repeated, a title
// or metadata changed, a document removed or added.
func edit(rng *rand.Rand, docs, spare []document.Document) []document.Document {
	docs = slices.Clone(docs)
	i := rng.IntN(len(docs))
	d := &docs[i]
	switch rng.IntN(8) {
	case 0: // delete a sentence
		ends := sentenceEnds(d.Text)
		if len(ends) > 2 {
			k := 1 + rng.IntN(len(ends)-2)
			d.Text = d.Text[:ends[k-1]] + d.Text[ends[k]:]
		}
	case 1: // insert a word
		words := strings.Fields(d.Text)
		at := rng.IntN(len(words))
		words = slices.Insert(words, at, "suddenly")
		d.Text = strings.Join(words, " ")
	case 2: // a paragraph of another document
		paras := strings.Split(docs[rng.IntN(len(docs))].Text, "\n\n")
		d.Text += "\n\n" + paras[rng.IntN(len(paras))]
	case 3: // a paragraph repeated
		paras := strings.Split(d.Text, "\n\n")
		d.Text = strings.Join(append(paras, paras[0]), "\n\n")
	case 4:
		d.Title += " (revised)"
	case 5:
		d.Metadata = map[string]string{"source": "edited " + strconv.Itoa(rng.IntN(3))}
	case 6:
		if len(docs) > 2 {
			return slices.Delete(docs, i, i+1)
		}
	case 7:
		n := spare[rng.IntN(len(spare))]
		n.ID = fmt.Sprintf("new-%d", rng.IntN(1000))
		if !slices.ContainsFunc(docs, func(d document.Document) bool { return d.ID == n.ID }) {
			return append(docs, n)
		}
	}
	return docs
}

// sentenceEnds returns the offsets just after each ". " of text.
func sentenceEnds(text string) []int {
	var ends []int
	for i := 0; ; {
		j := strings.Index(text[i:], ". ")
		if j < 0 {
			return ends
		}
		i += j + 2
		ends = append(ends, i)
	}
}

// Headers are embedded with each chunk, while records keep the chunk's own
// text and the header in Notes.Keywords; a new title re-embeds
// the document's chunks under the same IDs.
func TestHeaders(t *testing.T) {
	ctx := context.Background()
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	headers, err := contextheader.New(contextheader.Config{Tokenizer: tok, MaxEmbedTokens: 80})
	require.NoError(t, err)
	max, err := headers.ChunkMaxTokens()
	require.NoError(t, err)
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: max, Format: document.Markdown})
	require.NoError(t, err)
	doc := document.Document{ID: "spec", Title: "CommonMark", Format: document.Markdown,
		Text: strings.Join(strings.Split(corpusText(t, "commonmark_spec.md"), "\n\n")[:30], "\n\n")}
	store := &memory.Store{}
	emb := &counting{}
	ix := newIndexer(t, ingest.Config{Chunker: c, Headers: headers, Embedder: emb, Store: store, MaxBatchTokens: 400})
	first, err := ix.Index(ctx, doc)
	require.NoError(t, err)

	recs := dump(t, store)["spec"]
	texts := emb.texts()
	require.Len(t, texts, len(recs))
	for i, r := range recs {
		require.True(t, strings.HasPrefix(texts[i], "CommonMark\n"), texts[i])
		require.True(t, strings.HasSuffix(texts[i], "\n\n"+r.Text))
		require.Equal(t, fakeVector(texts[i]), r.Vector)
		require.LessOrEqual(t, tok.Count(texts[i]), 80)
	}

	// Keyword search finds chunks by their header's words too: a
	// title word that no chunk's text holds finds the document's chunks.
	const word = "Zanzibarian"
	doc.Title = word + " CommonMark"
	_, err = ix.Index(ctx, doc)
	require.NoError(t, err)
	for _, r := range dump(t, store)["spec"] {
		require.NotContains(t, r.Text, word)
		require.True(t, strings.HasPrefix(r.Notes.Keywords, word), r.Notes)
	}
	hits, err := store.QueryKeywords(ctx, word, 5, vectorstore.Filter{})
	require.NoError(t, err)
	require.Len(t, hits, 5)

	doc.Title = "The CommonMark spec"
	second, err := ix.Index(ctx, doc)
	require.NoError(t, err)
	require.Equal(t, first.TotalChunks, second.Embedded)
	again := dump(t, store)["spec"]
	for i := range recs {
		require.Equal(t, recs[i].ID, again[i].ID)
		require.Equal(t, recs[i].Text, again[i].Text)
		require.NotEqual(t, recs[i].Vector, again[i].Vector)
	}
}

func corpusText(t testing.TB, name string) string {
	return corpus(t, name, 1, 0)[0].Text
}
