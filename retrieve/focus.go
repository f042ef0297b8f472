package retrieve

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/ragkit/ragkit/internal/stem"
	"github.com/ragkit/ragkit/segment"
)

// maxFocus is the most sentences of a passage's Focus: the few a cut
// keeps first, before the rest of its hits.
const maxFocus = 3

// setFocus sets the Focus of each passage: the sentences of its hits
// that share the most of the question's words, weighted by how rare each
// word is among the sentences of all the passages' hits (a word every
// sentence has tells none apart). It reads the texts once; a question
// with no words but common ones gives no focus.
func setFocus(question string, ps []Passage) {
	q := questionTerms(question)
	if len(q) == 0 {
		return
	}
	type cand struct {
		p, hit int
		span   segment.Span
		terms  map[string]bool
	}
	var cands []cand
	df := map[string]int{}
	for i, p := range ps {
		for h, hs := range p.HitSpans {
			for _, s := range segment.Sentences(p.Text[hs.Start:hs.End]) {
				s = segment.Span{Start: hs.Start + s.Start, End: hs.Start + s.End}
				ts := map[string]bool{}
				for _, t := range terms(p.Text[s.Start:s.End]) {
					if q[t] && !ts[t] {
						ts[t] = true
						df[t]++
					}
				}
				cands = append(cands, cand{p: i, hit: h, span: s, terms: ts})
			}
		}
	}
	score := func(c cand) float64 {
		v := 0.0
		for t := range c.terms {
			v += math.Log(1 + float64(len(cands))/float64(df[t]))
		}
		return v
	}
	scores := make([]float64, len(cands))
	for i, c := range cands {
		scores[i] = score(c)
	}
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	// Best score first; ties go to the better hit, then to the earlier
	// sentence, so that the focus is deterministic.
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(scores[b], scores[a]), cmp.Compare(cands[a].hit, cands[b].hit))
	})
	for _, i := range order {
		c := cands[i]
		p := &ps[c.p]
		if scores[i] == 0 || len(p.Focus) == maxFocus || slices.Contains(p.Focus, c.span) {
			continue
		}
		p.Focus = append(p.Focus, c.span)
	}
}

// questionWords are words too common in questions to point at an answer.
var questionWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "at": true, "be": true, "by": true, "did": true,
	"do": true, "does": true, "for": true, "from": true, "how": true, "in": true, "is": true, "it": true,
	"of": true, "on": true, "or": true, "the": true, "to": true, "was": true, "were": true, "what": true,
	"when": true, "where": true, "which": true, "who": true, "whom": true, "why": true, "with": true,
}

// questionTerms returns the set of the question's terms, without the
// words common to questions.
func questionTerms(question string) map[string]bool {
	q := map[string]bool{}
	for _, w := range segment.Words(question) {
		word := strings.ToLower(question[w.Start:w.End])
		if questionWords[word] || !strings.ContainsFunc(word, isAlnum) {
			continue
		}
		q[stem.English(word)] = true
	}
	return q
}

// terms returns the terms of text: its words, lower-cased and stemmed.
func terms(text string) []string {
	var out []string
	for _, w := range segment.Words(text) {
		if word := strings.ToLower(text[w.Start:w.End]); strings.ContainsFunc(word, isAlnum) {
			out = append(out, stem.English(word))
		}
	}
	return out
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
