package retrieve

import (
	"cmp"
	"context"
	"strings"

	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// A Passage is a run of consecutive units of one document that a
// [Retriever] returns for a question: a hit's own record, a sentence
// window or a relevant segment, with where it comes from and the hits
// that put it there.
//
// # Ranking
//
// Passages are ranked by the strength of their evidence, the scores of
// the hits they hold, compared best hit first: a passage whose best hit
// scores higher comes first; where the best hits tie, the second best
// decide, and so on; where one passage's hits are a tie of the other's
// first hits and it holds more, it comes first; what still ties is in
// document order (DocID, then First). So a passage holding the best hit
// is never ranked below one holding only weaker hits, however many: many
// weak hits are no evidence that beats the strongest, and the evidence for
// a passage counts as measurably stronger only where a score says so (a
// tie at the top broken by the hits that follow). A segment's value,
// which sums over its hits, chose the segments an Extractor cut; it does
// not order them here.
type Passage struct {
	// DocID is the document's ID.
	DocID string
	// Title is the document's title, Source where it was read from (a
	// path or a URL) and Section the section path of the passage's best
	// hit, from the records' own fields (as ingest writes them); empty
	// when the records carry none.
	Title   string
	Source  string
	Section []string
	// First and Last are the Index of the passage's first and last unit.
	First, Last int
	// Start and End are the passage's byte offsets in its document, End
	// exclusive; both zero when the records carry no offsets, or when the
	// passage holds a unit next to one the filter excludes (the span
	// would hold the excluded text, which Text leaves out).
	Start, End int
	// Text is the passage's text, for the prompt.
	Text string
	// Tokens is the exact count of Text by the Widener's tokenizer, or
	// Config.Tokenizer's; 0 when neither counts it.
	Tokens int
	// Score is, with a Config.Reranker, the reranker's relevance score
	// of the passage's text (its model's scale: logits or [0, 1]);
	// otherwise the score of the passage's best hit: a fused score for a
	// [Hybrid] search (ranks; it compares within one question only), the
	// store's for one search alone (cosine similarity for [Vector] with
	// memory.Store, BM25 for [Keywords]). Scores of different kinds
	// do not compare; see Config.MinScore.
	Score float32
	// Hits are the hits inside the passage, best first (ties in document
	// order), without their vectors.
	Hits []vectorstore.Hit
	// HitSpans are where the hits are in Text, as byte spans, best first
	// like Hits: the records the passage was widened from that were
	// search hits. A hit is placed by its offsets where they agree with
	// Text, by its text otherwise; one whose text is not in Text (a
	// Widener that rewrites the text) has no span. [Items] gives them to
	// the budget as the items' protected spans, so that a cut keeps them.
	HitSpans []segment.Span
	// Focus are the sentences of the hits that share the most of the
	// question's words, best first, at most a few: where in its hits a
	// passage most likely answers (a hit is a whole chunk, its answer one
	// sentence of it). [Items] protects them before the hits. Empty when
	// no sentence shares a word with the question but the commonest.
	Focus []segment.Span
}

// compare orders passages best first by the rule of [Passage].
func (p Passage) compare(q Passage) int {
	for i := range min(len(p.Hits), len(q.Hits)) {
		if c := cmp.Compare(q.Hits[i].Score, p.Hits[i].Score); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(len(q.Hits), len(p.Hits)); c != 0 {
		return c
	}
	if c := strings.Compare(p.DocID, q.DocID); c != 0 {
		return c
	}
	return cmp.Compare(p.First, q.First)
}

// widen turns hits into passages, unordered.
func (r *Retriever) widen(ctx context.Context, hits []vectorstore.Hit) ([]Passage, error) {
	if r.cfg.Widener == nil {
		ps := make([]Passage, len(hits))
		for i, h := range hits {
			ps[i] = r.passage(window.Window{DocID: h.DocID, First: h.Index, Last: h.Index,
				Start: h.Start, End: h.End, Text: h.Text, Score: h.Score, Hits: []vectorstore.Hit{h}})
		}
		return ps, nil
	}
	ws, err := r.cfg.Widener.Widen(ctx, r.source(), hits)
	if err != nil {
		return nil, err
	}
	ps := make([]Passage, len(ws))
	for i, w := range ws {
		ps[i] = r.passage(w)
	}
	return ps, nil
}

// passage makes a window a passage: labels from its best hit's record,
// hits in order, tokens counted if the widener did not.
func (r *Retriever) passage(w window.Window) Passage {
	hits := w.Hits
	sortHits(hits)
	p := Passage{DocID: w.DocID, First: w.First, Last: w.Last, Start: w.Start, End: w.End,
		Text: w.Text, Tokens: w.Tokens, Score: w.Score, Hits: hits}
	if len(hits) > 0 {
		best := &hits[0]
		p.Title, p.Source, p.Section = best.Title, best.Source, best.Section
		p.Score = hits[0].Score
	}
	p.HitSpans = hitSpans(p.Text, p.Start, p.End, hits)
	if p.Tokens == 0 && r.cfg.Tokenizer != nil {
		p.Tokens = r.cfg.Tokenizer.Count(p.Text)
	}
	return p
}

// hitSpans returns the spans of hits in text, which starts at byte start
// of its document and ends at end (both 0 when unknown), in the order of
// hits.
func hitSpans(text string, start, end int, hits []vectorstore.Hit) []segment.Span {
	var spans []segment.Span
	for _, h := range hits {
		if h.Text == "" {
			continue
		}
		i := h.Start - start
		if end <= start || h.End-h.Start != len(h.Text) || i < 0 || i+len(h.Text) > len(text) || text[i:i+len(h.Text)] != h.Text {
			if i = strings.Index(text, h.Text); i < 0 {
				continue
			}
		}
		spans = append(spans, segment.Span{Start: i, End: i + len(h.Text)})
	}
	return spans
}

// sortHits orders hits best first, ties in document order, keeping
// the order of equal hits.
func sortHits(hits []vectorstore.Hit) {
	for i := 1; i < len(hits); i++ { // few hits: insertion sort, no allocation
		for j := i; j > 0 && byScore(hits[j-1], hits[j]) > 0; j-- {
			hits[j-1], hits[j] = hits[j], hits[j-1]
		}
	}
}
