package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// An index is the documents, their chunks and the store that holds them.
type index struct {
	docs  []source
	byID  map[string]int // document ID to position in docs
	store *memory.Store

	mu     sync.Mutex        // guards chunks while the indexer splits
	chunks [][]chunker.Chunk // per document, as the indexer cut them
}

// buildIndex indexes the documents with package ingest: chunks, contextual
// headers, embeddings, the memory store. With -index it starts from the
// store saved there, so that only chunks whose text or header changed are
// embedded again, and saves the result.
func buildIndex(ctx context.Context, o options, m *models, docs []source, stderr io.Writer) (*index, error) {
	ix := &index{docs: docs, byID: make(map[string]int, len(docs)), chunks: make([][]chunker.Chunk, len(docs))}
	for i, d := range docs {
		ix.byID[d.id] = i
	}
	store, loaded := openStore(ctx, o.index, stderr)
	stats, err := ix.index(ctx, o, m, store, stderr)
	if errors.Is(err, vectorstore.ErrDimensionMismatch) && loaded {
		// The saved index was made by an embedder with vectors of another
		// length: none of it can be reused.
		fmt.Fprintf(stderr, "index: rebuilding %s (made with another embedder)\n", o.index)
		store.Close()
		store, loaded = &memory.Store{}, false
		stats, err = ix.index(ctx, o, m, store, stderr)
	}
	if err != nil {
		store.Close()
		return nil, err
	}
	ix.store = store
	if o.index == "" {
		return ix, nil
	}
	if loaded && stats.Embedded == 0 && stats.Pruned == 0 {
		fmt.Fprintf(stderr, "index: reusing %s (inputs unchanged)\n", o.index)
		return ix, nil
	}
	if loaded {
		fmt.Fprintf(stderr, "index: updating %s (%d chunks embedded, %d reused, %d documents removed)\n",
			o.index, stats.Embedded, stats.Reused, stats.Pruned)
	}
	return ix, store.SaveFile(ctx, o.index)
}

// openStore loads the store saved in file, or returns an empty one (and
// false) when there is none or it cannot be read.
func openStore(ctx context.Context, file string, stderr io.Writer) (*memory.Store, bool) {
	if file == "" {
		return &memory.Store{}, false
	}
	store, err := memory.LoadFile(ctx, file, memory.Config{})
	switch {
	case err == nil:
		return store, true
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(stderr, "index: building %s\n", file)
	default:
		fmt.Fprintf(stderr, "index: rebuilding %s (%v)\n", file, err)
	}
	return &memory.Store{}, false
}

// index runs the indexer over every document into store.
func (ix *index) index(ctx context.Context, o options, m *models, store *memory.Store, stderr io.Writer) (ingest.Stats, error) {
	// The records keep a model's summaries, so the next run over the same
	// documents asks the model for none.
	dec, err := contextheader.New(contextheader.Config{
		Tokenizer:       m.tokenizer,
		Parts:           []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}, {Kind: contextheader.Summary}},
		Summarizer:      m.summarizer,
		SummarizerModel: m.summaryName,
		MaxHeaderTokens: headerTokens,
		MaxEmbedTokens:  m.embedTokens,
	})
	if err != nil {
		return ingest.Stats{}, err
	}
	split, err := ix.splitter(o, m)
	if err != nil {
		return ingest.Stats{}, err
	}
	var progress func(ingest.Stats)
	if o.dir != "" || !m.offline() {
		// A folder of any size, or a model: work worth watching.
		// One write a line, starting with \r: the writer of stderr
		// (see progressWriter) ends the line before anything else.
		progress = func(s ingest.Stats) {
			var b strings.Builder
			b.WriteString("\r")
			if m.chat != nil {
				fmt.Fprintf(&b, "summarised %d of %d documents with %s, ", s.Summarized, s.TotalDocuments, m.chatModel)
			}
			fmt.Fprintf(&b, "indexed %d of %d documents, %d chunks embedded", s.Documents, s.TotalDocuments, s.Embedded)
			if s.Failed > 0 {
				fmt.Fprintf(&b, ", %d failed", s.Failed)
			}
			io.WriteString(stderr, b.String())
		}
	}
	indexer, err := ingest.New(ingest.Config{
		Split: split, Headers: dec,
		Embedder: m.embedder, EmbedderName: m.embedderName,
		Store: store, Prune: true, Progress: progress,
	})
	if err != nil {
		return ingest.Stats{}, err
	}
	docs := make([]document.Document, len(ix.docs))
	for i, d := range ix.docs {
		docs[i] = document.Document{ID: d.id, Title: d.title, Text: d.text, Format: d.format}
	}
	stats, err := indexer.Index(ctx, docs...)
	if progress != nil {
		fmt.Fprintln(stderr)
	}
	return stats, err
}

// splitter returns the indexer's SplitFunc: a chunker of chunks of at most
// o.maxTokens tokens for the document's format, which also keeps the
// chunks for the documents table.
func (ix *index) splitter(o options, m *models) (ingest.SplitFunc, error) {
	chunkers := map[document.Format]*chunker.Chunker{}
	for _, f := range []document.Format{document.Text, document.Markdown} {
		c, err := chunker.New(chunker.Config{Tokenizer: m.tokenizer, MaxTokens: o.maxTokens, Format: f})
		if err != nil {
			return nil, err
		}
		chunkers[f] = c
	}
	return func(_ context.Context, doc document.Document) ([]chunker.Chunk, error) {
		chunks, err := chunkers[doc.Format].Split(doc.Text)
		if err != nil {
			return nil, err
		}
		ix.mu.Lock()
		ix.chunks[ix.byID[doc.ID]] = chunks
		ix.mu.Unlock()
		return chunks, nil
	}, nil
}

func (ix *index) total() int {
	n := 0
	for _, c := range ix.chunks {
		n += len(c)
	}
	return n
}
