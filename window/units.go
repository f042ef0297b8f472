package window

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/vectorstore"
)

// GapKey is the Metadata key under which [Sentences] and [Chunks] keep the
// text between a unit and the one before it, when it is anything but a
// single space (a line break, a blank line, nothing at all). With it the
// windows of an [Expander] rebuild the document's text exactly, without the
// document: Window.Text is document[Window.Start:Window.End]. Most units
// carry no gap, so the cost is a few bytes per paragraph.
const GapKey = "window.gap"

// Sentences cuts a document into sentence units with seg (nil means the
// default English segmenter, that of segment.Sentences) and returns them
// as records ready to embed and upsert: ID docID#i, DocID, consecutive
// Index from 0, Start and End with text[Start:End] == Text, and the gap to
// the previous unit under [GapKey] where it is not a single space. Vectors
// are left nil.
//
// A text with no character other than white space gives [ErrEmptyText],
// invalid UTF-8 [ErrInvalidUTF8], an empty docID [ErrEmptyDocID].
func Sentences(docID, text string, seg *segment.Segmenter) ([]vectorstore.Record, error) {
	if err := checkDocument(docID, text); err != nil {
		return nil, err
	}
	spans := seg.Sentences(text)
	return records(docID, text, spans), nil
}

// Chunks cuts a document into units with c (small chunks, say of 32 to 64
// tokens, keep retrieval precise) and returns them as records, as
// [Sentences] does. Chunks with overlap are allowed: the windows of an
// [Expander] rebuild the text between overlapping units without repeating
// it. Errors of c.Split are returned as they are.
func Chunks(docID, text string, c *chunker.Chunker) ([]vectorstore.Record, error) {
	if err := checkDocument(docID, text); err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("%w: nil chunker", ErrConfig)
	}
	chunks, err := c.Split(text)
	if err != nil {
		return nil, err
	}
	spans := make([]segment.Span, len(chunks))
	for i, ch := range chunks {
		spans[i] = segment.Span{Start: ch.Start, End: ch.End}
	}
	return records(docID, text, spans), nil
}

func checkDocument(docID, text string) error {
	if docID == "" {
		return ErrEmptyDocID
	}
	if !utf8.ValidString(text) {
		return fmt.Errorf("%w: document %q", ErrInvalidUTF8, docID)
	}
	if strings.TrimFunc(text, unicode.IsSpace) == "" {
		return fmt.Errorf("%w: document %q", ErrEmptyText, docID)
	}
	return nil
}

func records(docID, text string, spans []segment.Span) []vectorstore.Record {
	recs := make([]vectorstore.Record, len(spans))
	for i, sp := range spans {
		r := vectorstore.Record{
			ID:    docID + "#" + strconv.Itoa(i),
			DocID: docID,
			Index: i,
			Start: sp.Start,
			End:   sp.End,
			Text:  text[sp.Start:sp.End],
		}
		if i > 0 && sp.Start >= spans[i-1].End {
			if gap := text[spans[i-1].End:sp.Start]; gap != " " {
				r.Metadata = map[string]string{GapKey: gap}
			}
		}
		recs[i] = r
	}
	return recs
}
