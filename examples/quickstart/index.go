package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// fingerprintKey is the metadata key under which every record holds the
// fingerprint of the inputs it was built from.
const fingerprintKey = "quickstart.inputs"

// An index is the documents, their chunks and the store that holds them.
type index struct {
	docs   []document
	chunks [][]chunker.Chunk // per document
	byID   map[string]int    // document ID to position in docs
	store  *vectorstore.Memory
}

// buildIndex chunks the documents and either loads the index saved in
// opts.index, when it was built from the same inputs, or builds it (headers,
// embeddings, store) and saves it there.
func buildIndex(ctx context.Context, o options, m *models, docs []document, stderr io.Writer) (*index, error) {
	ix := &index{docs: docs, chunks: make([][]chunker.Chunk, len(docs)), byID: make(map[string]int, len(docs))}
	if err := ix.split(o, m); err != nil {
		return nil, err
	}
	fp := ix.fingerprint(o, m)
	if o.index != "" {
		store, err := loadStore(ctx, o.index, fp, ix.total())
		switch {
		case err == nil:
			fmt.Fprintf(stderr, "index: reusing %s (inputs unchanged)\n", o.index)
			ix.store = store
			return ix, nil
		case errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(stderr, "index: building %s\n", o.index)
		default:
			fmt.Fprintf(stderr, "index: rebuilding %s (%v)\n", o.index, err)
		}
	}
	store, err := ix.embed(ctx, m, fp, stderr)
	if err != nil {
		return nil, err
	}
	ix.store = store
	if o.index != "" {
		if err := store.SaveFile(ctx, o.index); err != nil {
			return nil, err
		}
	}
	return ix, nil
}

// split cuts every document into chunks of at most o.maxTokens tokens.
func (ix *index) split(o options, m *models) error {
	chunkers := map[chunker.Format]*chunker.Chunker{}
	for i, d := range ix.docs {
		c := chunkers[d.format]
		if c == nil {
			var err error
			c, err = chunker.New(chunker.Config{Tokenizer: m.tokenizer, MaxTokens: o.maxTokens, Format: d.format})
			if err != nil {
				return err
			}
			chunkers[d.format] = c
		}
		chunks, err := c.Split(d.text)
		if err != nil {
			return fmt.Errorf("%s: %w", d.id, err)
		}
		ix.chunks[i] = chunks
		ix.byID[d.id] = i
	}
	return nil
}

func (ix *index) total() int {
	n := 0
	for _, c := range ix.chunks {
		n += len(c)
	}
	return n
}

// fingerprint digests everything the stored records depend on: the
// documents, the chunk size, the tokenizer and the models.
func (ix *index) fingerprint(o options, m *models) string {
	h := sha256.New()
	field := func(s string) {
		h.Write([]byte(strconv.Itoa(len(s)) + ":" + s))
	}
	for _, s := range []string{"quickstart index 1", m.encoding, strconv.Itoa(o.maxTokens), m.embedderName, m.summaryName} {
		field(s)
	}
	for _, d := range ix.docs {
		field(d.id)
		field(d.text)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// loadStore loads a saved index and checks that it was built from the
// inputs with fingerprint fp, into n records.
func loadStore(ctx context.Context, file, fp string, n int) (*vectorstore.Memory, error) {
	store, err := vectorstore.LoadFile(ctx, file, vectorstore.MemoryConfig{})
	if err != nil {
		return nil, err
	}
	rec, err := store.Get(ctx, recordID(0, 0))
	if err != nil || rec.Metadata[fingerprintKey] != fp || store.Len() != n {
		store.Close()
		return nil, errors.New("the inputs changed")
	}
	return store, nil
}

func recordID(doc, chunk int) string {
	return strconv.Itoa(doc) + "#" + strconv.Itoa(chunk)
}

// embed decorates the chunks with contextual headers, embeds them and
// stores them.
func (ix *index) embed(ctx context.Context, m *models, fp string, stderr io.Writer) (*vectorstore.Memory, error) {
	dec, err := contextheader.New(contextheader.Config{
		Tokenizer:       m.tokenizer,
		Parts:           []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}, {Kind: contextheader.Summary}},
		Summarizer:      m.summarizer,
		SummarizerModel: m.summaryName,
		MaxHeaderTokens: 64,
		Progress:        m.summaryProgress(stderr),
	})
	if err != nil {
		return nil, err
	}
	cdocs := make([]contextheader.Document, len(ix.docs))
	for i, d := range ix.docs {
		cdocs[i] = contextheader.Document{ID: d.id, Title: d.title, Text: d.text, Format: d.format}
	}
	if _, err := dec.Summaries(ctx, cdocs); err != nil {
		return nil, err
	}
	store, err := vectorstore.NewMemory(vectorstore.MemoryConfig{})
	if err != nil {
		return nil, err
	}
	for i := range ix.docs {
		recs, err := ix.records(ctx, dec, m, cdocs[i], i, fp)
		if err == nil {
			err = store.Upsert(ctx, recs...)
		}
		if err != nil {
			store.Close()
			return nil, fmt.Errorf("%s: %w", ix.docs[i].id, err)
		}
		fmt.Fprintf(stderr, "\rindexed %d of %d documents", i+1, len(ix.docs))
	}
	fmt.Fprintln(stderr)
	return store, nil
}

func (ix *index) records(ctx context.Context, dec *contextheader.Decorator, m *models, doc contextheader.Document, i int, fp string) ([]vectorstore.Record, error) {
	decorated, err := dec.Decorate(ctx, doc, ix.chunks[i])
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(decorated))
	for j, c := range decorated {
		texts[j] = c.EmbedText
	}
	vecs, err := m.embedder.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	recs := make([]vectorstore.Record, len(decorated))
	for j, c := range decorated {
		meta := map[string]string{fingerprintKey: fp}
		if j > 0 && c.Start >= decorated[j-1].End {
			// The text between units lets a window rebuild the document's text.
			if gap := doc.Text[decorated[j-1].End:c.Start]; gap != " " {
				meta[window.GapKey] = gap
			}
		}
		recs[j] = vectorstore.Record{
			ID: recordID(i, j), DocID: doc.ID, Index: j, Start: c.Start, End: c.End,
			Text: c.Text, Vector: vecs[j], Metadata: meta,
		}
	}
	return recs, nil
}
