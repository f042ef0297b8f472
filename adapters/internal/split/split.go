// Package split cuts a framework's document into chunks with ragkit's
// chunker (and contextual headers, if asked), for the splitters of the
// adapters: one place that decides which metadata a chunk carries.
package split

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/vectorstore"
)

// ErrNoChunker reports a splitter without a chunker.
var ErrNoChunker = errors.New("no Chunker")

// Piece is one chunk of a document, as a framework's document.
type Piece struct {
	ID       string // the chunk's record ID: document ID, "#", index
	Text     string
	Metadata map[string]any
}

// Doc is a framework's document as the splitter needs it.
type Doc struct {
	ID       string         // the document's ID, or "" to take it from Metadata or make it
	Text     string         // the whole text
	Metadata map[string]any // copied into every chunk
}

// Split cuts doc with c and, if d is not nil, gives each chunk its header.
// Each piece's metadata is a copy of doc.Metadata with the chunk's document
// ID, index, offsets and exact token count under meta's keys, its section
// path under meta.SectionKey where it has one, its notes under
// meta.NotesKey (the gap to the chunk before it where it is not a single
// space, and with a header the header, for keyword search, as ingest
// writes them) and with a header its embed text under meta.EmbedTextKey.
// The title a header shows is metadata[meta.TitleKey], if it is a string.
func Split(ctx context.Context, c *chunker.Chunker, d *contextheader.Decorator, docIDKey string, doc Doc) ([]Piece, error) {
	if c == nil {
		return nil, ErrNoChunker
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	id := doc.ID
	if id == "" {
		var err error
		if id, err = meta.DocID(doc.Text, doc.Metadata, docIDKey); err != nil {
			return nil, err
		}
	}
	chunks, err := c.Split(doc.Text)
	if err != nil {
		return nil, err
	}
	format := c.Config().Format
	title, _ := doc.Metadata[meta.TitleKey].(string)
	var decorated []contextheader.Chunk
	if d != nil {
		rd := document.Document{ID: id, Title: title, Text: doc.Text, Format: format, Metadata: encodable(doc.Metadata)}
		if decorated, err = d.Decorate(ctx, rd, chunks); err != nil {
			return nil, err
		}
	}
	outline := document.NewOutline(doc.Text, format)
	pieces := make([]Piece, len(chunks))
	for i, ch := range chunks {
		m := maps.Clone(doc.Metadata)
		if m == nil {
			m = make(map[string]any, 8)
		}
		// Keys that belong to one unit, which doc may carry if it was
		// split before, must not reach its chunks.
		for _, k := range unitKeys {
			delete(m, k)
		}
		m[meta.DocIDKey] = id
		m[meta.IndexKey] = ch.Index
		m[meta.StartKey] = ch.Start
		m[meta.EndKey] = ch.End
		m[meta.TokensKey] = ch.Tokens
		var unit vectorstore.Record // the chunk's section path and notes
		if i > 0 && chunks[i-1].End <= ch.Start {
			if gap := doc.Text[chunks[i-1].End:ch.Start]; gap != " " {
				unit.Notes.Gap = gap
			}
		}
		unit.Section = outline.Path(ch.Start, ch.End)
		if decorated != nil {
			dc := decorated[i]
			unit.Section = dc.Section
			if dc.Header != "" {
				unit.Notes.Keywords = dc.Header
				m[meta.EmbedTextKey] = dc.EmbedText
			}
		}
		meta.AddProvenance(m, unit)
		pieces[i] = Piece{ID: fmt.Sprintf("%s#%d", id, ch.Index), Text: ch.Text, Metadata: m}
	}
	return pieces, nil
}

// unitKeys are the metadata keys that describe one unit of a document.
var unitKeys = []string{meta.IDKey, meta.LastKey, meta.EmbedTextKey, meta.ScoreKey, meta.ScoreKindKey, meta.SectionKey, meta.LocationKey, meta.NotesKey}

// encodable returns the values of m that meta.Encode encodes.
func encodable(m map[string]any) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, err := meta.Encode(v); err == nil {
			out[k] = s
		}
	}
	return out
}
