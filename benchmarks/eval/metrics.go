package eval

import (
	"fmt"
	"slices"
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/evaluate"
	"github.com/ragkit/ragkit/tokencount"
)

// A QuestionResult is how one question fared.
type QuestionResult struct {
	ID string `json:"id"`
	// Rank is the first rank r (from 1) at which the spans retrieved at
	// ranks 1..r hold the answer; 0 if the k spans do not.
	Rank int `json:"rank"`
	// Recall, Precision and IoU compare the tokens of the retrieved
	// spans with the tokens of the answer.
	Recall    float64 `json:"recall"`
	Precision float64 `json:"precision"`
	IoU       float64 `json:"iou"`
	// Omega is the IoU of the answer with the units that overlap it:
	// what perfect retrieval of these units would score.
	Omega float64 `json:"omega"`
	// Split reports that no single unit holds the answer.
	Split bool `json:"split,omitempty"`
	// InContext reports that the spans kept within the method's
	// ContextTokens hold the answer; false when it has none.
	InContext bool `json:"in_context,omitempty"`
}

// A Scorer measures retrieved spans against answer spans, counting tokens
// by its tokenizer. It tokenizes each document once, when it is made.
type Scorer struct {
	texts map[string]string
	ends  map[string][]int // token end offsets of each document
}

// NewScorer returns a Scorer over docs, tokenized with tok. A nil tok
// gives an error wrapping ErrConfig.
func NewScorer(tok tokencount.Tokenizer, docs []Document) (*Scorer, error) {
	if tok == nil {
		return nil, fmt.Errorf("%w: no Tokenizer", ErrConfig)
	}
	s := &Scorer{texts: make(map[string]string, len(docs)), ends: make(map[string][]int, len(docs))}
	for _, d := range docs {
		s.texts[d.ID] = d.Text
		s.ends[d.ID] = tokencount.AppendTokenEnds(tok, nil, d.Text)
	}
	return s, nil
}

// Score scores one question: gold is its answer span, retrieved the spans
// retrieved for it, best first (already cut to k), and units the units of
// the answer's document (units of other documents are ignored). A span of
// an unknown document or outside its document gives an error wrapping
// ErrMethod.
func (s *Scorer) Score(gold Span, retrieved, units []Span) (QuestionResult, error) {
	if err := s.check(append([]Span{gold}, retrieved...)); err != nil {
		return QuestionResult{}, err
	}
	if err := s.check(units); err != nil {
		return QuestionResult{}, err
	}
	var r QuestionResult
	r.Rank = s.rank(gold, retrieved)
	r.Recall, r.Precision, r.IoU = s.overlap(gold, retrieved)
	var near []Span
	r.Split = true
	for _, u := range units {
		if u.DocID != gold.DocID || !s.shareText(u, gold) {
			continue
		}
		near = append(near, u)
		if s.holds([]Span{u}, gold) {
			r.Split = false
		}
	}
	_, _, r.Omega = s.overlap(gold, near)
	return r, nil
}

func (s *Scorer) check(spans []Span) error {
	for _, sp := range spans {
		text, ok := s.texts[sp.DocID]
		if !ok {
			return fmt.Errorf("%w: span of unknown document %q", ErrMethod, sp.DocID)
		}
		if sp.Start < 0 || sp.End < sp.Start || sp.End > len(text) {
			return fmt.Errorf("%w: span [%d, %d) outside document %q (%d bytes)", ErrMethod, sp.Start, sp.End, sp.DocID, len(text))
		}
	}
	return nil
}

// rank returns the first r at which retrieved[:r] holds gold, or 0.
func (s *Scorer) rank(gold Span, retrieved []Span) int {
	for r := 1; r <= len(retrieved); r++ {
		if retrieved[r-1].DocID == gold.DocID && s.holds(retrieved[:r], gold) {
			return r
		}
	}
	return 0
}

// holds reports whether every byte of gold that is not white space lies
// in one of spans.
func (s *Scorer) holds(spans []Span, gold Span) bool {
	text := s.texts[gold.DocID]
	for i := gold.Start; i < gold.End; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsSpace(r) && !covered(spans, gold.DocID, i) {
			return false
		}
		i += size
	}
	return true
}

func covered(spans []Span, docID string, at int) bool {
	for _, sp := range spans {
		if sp.DocID == docID && sp.Start <= at && at < sp.End {
			return true
		}
	}
	return false
}

// shareText reports whether a and b, of one document, share a byte that
// is not white space.
func (s *Scorer) shareText(a, b Span) bool {
	lo, hi := max(a.Start, b.Start), min(a.End, b.End)
	text := s.texts[a.DocID]
	for i := lo; i < hi; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsSpace(r) {
			return true
		}
		i += size
	}
	return false
}

// overlap returns the token recall, precision and IoU of the union of
// spans against gold.
func (s *Scorer) overlap(gold Span, spans []Span) (recall, precision, iou float64) {
	g := s.tokens(gold)
	var inter, total int
	byDoc := make(map[string][]interval)
	for _, sp := range spans {
		byDoc[sp.DocID] = append(byDoc[sp.DocID], s.tokens(sp))
	}
	for doc, ivs := range byDoc {
		for _, iv := range union(ivs) {
			total += iv.hi - iv.lo
			if doc == gold.DocID {
				inter += max(0, min(iv.hi, g.hi)-max(iv.lo, g.lo))
			}
		}
	}
	n := g.hi - g.lo
	if n > 0 {
		recall = float64(inter) / float64(n)
	}
	if total > 0 {
		precision = float64(inter) / float64(total)
	}
	if n+total-inter > 0 {
		iou = float64(inter) / float64(n+total-inter)
	}
	return recall, precision, iou
}

// An interval is the tokens lo..hi-1 of a document.
type interval struct{ lo, hi int }

// tokens returns the tokens of sp's document that share at least one byte
// with sp. A token covers the bytes from the end of the one before it to
// its own end; the last token ends at the end of the text.
func (s *Scorer) tokens(sp Span) interval {
	if sp.End <= sp.Start {
		return interval{}
	}
	ends := s.ends[sp.DocID]
	lo := sort.SearchInts(ends, sp.Start+1) // the first token ending after Start
	hi := sort.SearchInts(ends, sp.End) + 1 // past the first token ending at or after End
	return interval{lo, hi}
}

// union merges intervals into disjoint ones, in order.
func union(ivs []interval) []interval {
	slices.SortFunc(ivs, func(a, b interval) int { return a.lo - b.lo })
	out := ivs[:0]
	for _, iv := range ivs {
		if iv.hi <= iv.lo {
			continue
		}
		if n := len(out); n > 0 && iv.lo <= out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, iv.hi)
			continue
		}
		out = append(out, iv)
	}
	return out
}

// A Summary is the average over questions of their results.
type Summary struct {
	Questions int     `json:"questions"`
	HitAt1    float64 `json:"hit_at_1"`
	HitAtK    float64 `json:"hit_at_k"`
	MRR       float64 `json:"mrr"`
	Recall    float64 `json:"recall"`
	Precision float64 `json:"precision"`
	IoU       float64 `json:"iou"`
	Omega     float64 `json:"omega"`
	// InContext is the share of questions whose answer the spans kept
	// within the method's ContextTokens hold (see [Method]).
	InContext float64 `json:"in_context"`
	// Failures is the number of questions whose answer the k retrieved
	// spans do not hold (Rank 0); Split the number whose answer no
	// single unit holds.
	Failures int `json:"failures"`
	Split    int `json:"split"`
}

// Summarize averages question results: each metric is the mean over the
// questions, every question weighing the same. Hit@1, hit@k and MRR are
// ragkit's evaluate package's, from each question's Rank (the ranks are
// this package's, by the holding rule of the package doc).
func Summarize(qs []QuestionResult) Summary {
	s := Summary{Questions: len(qs)}
	if len(qs) == 0 {
		return s
	}
	ranked := make([]evaluate.Result, len(qs))
	for i, q := range qs {
		// One target: the answer span, found at Rank.
		ranked[i] = evaluate.Result{ID: q.ID, Targets: 1, Rank: q.Rank}
		if q.Rank == 0 {
			s.Failures++
		}
		if q.Split {
			s.Split++
		}
		if q.InContext {
			s.InContext++
		}
		s.Recall += q.Recall
		s.Precision += q.Precision
		s.IoU += q.IoU
		s.Omega += q.Omega
	}
	// The means only: one resample, whose interval is not reported.
	ev, err := evaluate.Summarize(ranked, evaluate.SummaryConfig{Resamples: 1})
	if err != nil {
		panic(err) // the configuration is a constant that is valid
	}
	s.HitAt1, s.HitAtK, s.MRR = ev.HitAt1.Mean, ev.HitAtK.Mean, ev.MRR.Mean
	n := float64(len(qs))
	s.Recall /= n
	s.Precision /= n
	s.IoU /= n
	s.Omega /= n
	s.InContext /= n
	return s
}

// A Result is one method's scores on one corpus.
type Result struct {
	Corpus string `json:"corpus"`
	Method string `json:"method"`
	K      int    `json:"k"`
	Units  int    `json:"units"` // units stored for the corpus
	// ContextTokens is the method's budget of answer-in-context, 0 if
	// it has none.
	ContextTokens int `json:"context_tokens,omitempty"`
	Summary
	PerQuestion []QuestionResult `json:"per_question,omitempty"`
	// Err is why the method failed on the corpus (the scores are then
	// zero); nil if it did not.
	Err error `json:"-"`
}
