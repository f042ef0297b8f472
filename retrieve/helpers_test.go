package retrieve_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

var bg = context.Background()

// note is a document of a small folder: its ID, title and Markdown text.
type note struct{ id, title, text string }

// folder indexes notes as ingest does: Markdown chunks of at most
// maxTokens, each record labelled with its document's title and section
// path, embedded with its title and section (a contextual header) by the
// Lexical embedder, into a fresh Memory.
func folder(t testing.TB, maxTokens int, notes ...note) (*memory.Store, *lexical.Embedder) {
	t.Helper()
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: maxTokens, Format: document.Markdown})
	require.NoError(t, err)
	emb := &lexical.Embedder{}
	store := &memory.Store{}
	for _, n := range notes {
		chunks, err := c.Split(n.text)
		require.NoError(t, err)
		outline := document.NewOutline(n.text, document.Markdown)
		recs := make([]vectorstore.Record, len(chunks))
		texts := make([]string, len(chunks))
		for i, ch := range chunks {
			path := outline.Path(ch.Start, ch.End)
			recs[i] = vectorstore.Record{ID: fmt.Sprintf("%s#%d", n.id, i), DocID: n.id, Index: i,
				Start: ch.Start, End: ch.End, Text: ch.Text, Title: n.title, Section: path}
			texts[i] = n.title + "\n" + strings.Join(path, "\n") + "\n" + ch.Text
		}
		vecs, err := emb.Embed(bg, texts)
		require.NoError(t, err)
		for i := range recs {
			recs[i].Vector = vecs[i]
		}
		require.NoError(t, store.Upsert(bg, recs...))
	}
	return store, emb
}

// passageDocs returns the documents of passages, in order.
func passageDocs(ps []retrieve.Passage) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.DocID
	}
	return out
}

// windowDocs returns the documents of windows, in order.
func windowDocs(ws []window.Window) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.DocID
	}
	return out
}
