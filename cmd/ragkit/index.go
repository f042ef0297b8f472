package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/loader"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// indexFlags are the flags of what index and ask index.
type indexFlags struct {
	dir       string
	index     string
	maxTokens int
	maxBytes  func() int64
	models    modelFlags
}

func (f *indexFlags) register(fs *flag.FlagSet, defaultMaxTokens int) {
	fs.StringVar(&f.dir, "dir", "", "the folder to read: every file of every format a parser reads (each file left out is reported)")
	fs.StringVar(&f.index, "index", "", "keep the index in this file: the next run embeds and summarises only what changed")
	fs.IntVar(&f.maxTokens, "max-tokens", defaultMaxTokens, "the most tokens of a chunk")
	f.maxBytes = maxFileFlag(fs)
	f.models.register(fs)
}

func (f *indexFlags) check() error {
	switch {
	case f.dir == "":
		return errors.New("-dir is required")
	case f.maxTokens < 16:
		return fmt.Errorf("-max-tokens must be at least 16, got %d", f.maxTokens)
	}
	return f.models.check()
}

// indexCmd indexes a folder into a file.
func indexCmd(ctx context.Context, args []string, io ios) error {
	var f indexFlags
	fs := newFlags("index", "-dir DIR -index FILE [flags]", io.stderr)
	f.register(fs, defaultMaxTokens)
	err := parse(fs, args, func(rest []string) error {
		if len(rest) > 0 {
			return fmt.Errorf("unexpected argument %q", rest[0])
		}
		if f.index == "" {
			return errors.New("-index is required")
		}
		return f.check()
	})
	if err != nil {
		return err
	}
	_, _, _, stats, err := openIndex(ctx, f, io.stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.stdout, "%s: %d documents, %d chunks (%d embedded, %d reused), %d documents removed\n",
		f.index, stats.Documents, stats.Chunks, stats.Embedded, stats.Reused, stats.Pruned)
	return nil
}

// defaultMaxTokens is the default chunk size: a passage of documentation
// that holds an answer with its context.
const defaultMaxTokens = 200

// openIndex loads the folder, makes the models and indexes the documents
// into the memory store, starting from and saving to -index if given.
func openIndex(ctx context.Context, f indexFlags, stderr io.Writer) (*memory.Store, *models, []document.Document, ingest.Stats, error) {
	m, err := newModels(f.models, f.maxTokens, stderr)
	if err != nil {
		return nil, nil, nil, ingest.Stats{}, err
	}
	docs, err := loadDir(ctx, f.dir, f.maxBytes(), stderr)
	if err != nil {
		return nil, nil, nil, ingest.Stats{}, err
	}
	for i := range docs {
		// The file's time is not its content: a touched file is not
		// embedded again.
		delete(docs[i].Metadata, loader.ModifiedKey)
	}
	store, loaded := openStore(ctx, f.index, stderr)
	stats, err := index(ctx, f, m, docs, store, stderr)
	if errors.Is(err, vectorstore.ErrDimensionMismatch) && loaded {
		fmt.Fprintf(stderr, "index: rebuilding %s (made with another embedder)\n", f.index)
		store.Close()
		store = &memory.Store{}
		stats, err = index(ctx, f, m, docs, store, stderr)
	}
	if err == nil && f.index != "" {
		err = store.SaveFile(ctx, f.index)
	}
	if err != nil {
		store.Close()
		return nil, nil, nil, stats, err
	}
	return store, m, docs, stats, nil
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

// index runs the indexer over the documents into store.
func index(ctx context.Context, f indexFlags, m *models, docs []document.Document, store *memory.Store, stderr io.Writer) (ingest.Stats, error) {
	dec, err := contextheader.New(contextheader.Config{
		Tokenizer:       m.chunkTokenizer,
		Parts:           []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}, {Kind: contextheader.Summary}},
		Summarizer:      m.summarizer,
		SummarizerModel: m.summaryName,
		MaxHeaderTokens: headerTokens,
		MaxEmbedTokens:  m.embedTokens,
	})
	if err != nil {
		return ingest.Stats{}, err
	}
	split, err := splitter(m.chunkTokenizer, f.maxTokens)
	if err != nil {
		return ingest.Stats{}, err
	}
	indexer, err := ingest.New(ingest.Config{
		Split: split, Headers: dec,
		Embedder: m.embedder, EmbedderName: m.embedderName,
		Store: store, Prune: true,
	})
	if err != nil {
		return ingest.Stats{}, err
	}
	stats, err := indexer.Index(ctx, docs...)
	if err == nil {
		fmt.Fprintf(stderr, "indexed %d documents: %d chunks, %d embedded, %d reused\n", stats.Documents, stats.Chunks, stats.Embedded, stats.Reused)
	}
	return stats, err
}

// splitter returns a SplitFunc cutting each document by its format into
// chunks of at most maxTokens tokens.
func splitter(tok tokencount.Tokenizer, maxTokens int) (ingest.SplitFunc, error) {
	chunkers := map[document.Format]*chunker.Chunker{}
	for _, f := range []document.Format{document.Text, document.Markdown} {
		c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: maxTokens, Format: f})
		if err != nil {
			return nil, err
		}
		chunkers[f] = c
	}
	return func(_ context.Context, doc document.Document) ([]chunker.Chunk, error) {
		c := chunkers[doc.Format]
		if c == nil {
			return nil, fmt.Errorf("document %s: format %v has no chunker", doc.ID, doc.Format)
		}
		return c.Split(doc.Text)
	}, nil
}
