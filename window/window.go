package window

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
)

// Source gives the units of a document: the Range method of every
// vectorstore.VectorStore. Windows use the units' text, offsets and
// metadata, not their vectors.
type Source interface {
	Range(ctx context.Context, docID string, from, to int) ([]vectorstore.Record, error)
}

// Window is a run of consecutive units of one document, returned by
// [Expander.Expand] and [Extractor.Extract].
type Window struct {
	DocID string
	// First and Last are the Index of the window's first and last unit.
	First, Last int
	// Start and End are the window's byte offsets in its document, when
	// every unit carries offsets; both zero otherwise.
	Start, End int
	// Text is the units' text joined: with the original text between
	// units by default (the units' Notes.Gap), so that for units made by
	// package ingest it is document[Start:End].
	Text string
	// Tokens is the Tokenizer's exact count of Text; 0 without a
	// Tokenizer.
	Tokens int
	// Score is the best Score of the window's hits.
	Score float32
	// Value is the relevance value of a segment of [Extractor.Extract]
	// (the sum of its units' values); 0 for windows of an Expander.
	Value float64
	// Hits are the hits inside the window, best first, without their
	// vectors.
	Hits []vectorstore.Hit
	// Oversized reports a window that holds only its hit because the hit
	// alone counts more than the per-window cap; it is returned anyway.
	Oversized bool
	// Trimmed reports a window cut short to fit the total budget.
	Trimmed bool
	// Vanished reports hits whose unit was no longer in the Source (its
	// document deleted or replaced after the query): the window is the
	// hit's own record, not expanded.
	Vanished bool
}

// fetch reads units from..to of a document: none where the document has
// vanished from the source, so that its hits find no unit of theirs.
func fetch(ctx context.Context, src Source, docID string, from, to int) ([]vectorstore.Record, error) {
	units, err := src.Range(ctx, docID, from, to)
	switch {
	case errors.Is(err, vectorstore.ErrNotFound):
		return nil, nil
	case err != nil:
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: document %q: %w", ErrSource, docID, err)
	}
	return units, nil
}

// docHits is the hits of one document, best first.
type docHits struct {
	docID  string
	hits   []vectorstore.Hit
	ranks  []int // rank of each hit among all hits, from 0
	lo, hi int   // smallest and largest Index
}

// groupHits checks hits, drops repeated IDs (keeping the first, best) and
// groups them by document in order of each document's best hit.
func groupHits(hits []vectorstore.Hit) ([]*docHits, error) {
	seen := make(map[string]bool, len(hits))
	byDoc := make(map[string]*docHits)
	var docs []*docHits
	rank := 0
	for i, h := range hits {
		if h.DocID == "" || h.ID == "" || h.Index < 0 {
			return nil, fmt.Errorf("%w: hit %d (ID %q, DocID %q, Index %d)", ErrInvalidHit, i, h.ID, h.DocID, h.Index)
		}
		if seen[h.ID] {
			continue
		}
		seen[h.ID] = true
		d := byDoc[h.DocID]
		if d == nil {
			d = &docHits{docID: h.DocID, lo: h.Index, hi: h.Index}
			byDoc[h.DocID] = d
			docs = append(docs, d)
		}
		h.Vector = nil
		d.hits = append(d.hits, h)
		d.ranks = append(d.ranks, rank)
		rank++
		d.lo, d.hi = min(d.lo, h.Index), max(d.hi, h.Index)
	}
	return docs, nil
}

// find returns the position of the unit of h in units (sorted by Index),
// or -1.
func find(units []vectorstore.Record, h *vectorstore.Hit) int {
	lo, hi := 0, len(units)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if units[m].Index < h.Index {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for i := lo; i < len(units) && units[i].Index == h.Index; i++ {
		if units[i].ID == h.ID {
			return i
		}
	}
	return -1
}

// vanishedWindow is a hit on its own, for a hit whose unit is gone.
func vanishedWindow(h vectorstore.Hit, tok tokencount.Tokenizer) Window {
	w := Window{DocID: h.DocID, First: h.Index, Last: h.Index, Start: h.Start, End: h.End,
		Text: h.Text, Score: h.Score, Hits: []vectorstore.Hit{h}, Vanished: true}
	if tok != nil {
		w.Tokens = tok.Count(w.Text)
	}
	return w
}

// addSat adds without overflowing past math.MaxInt.
func addSat(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}
