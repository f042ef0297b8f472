package evaluate

import (
	"slices"
	"strings"
	"unicode"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
)

// distinct returns xs without repeats, in first-seen order.
func distinct[T comparable](xs []T) []T {
	var out []T
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// overlap returns the number of bytes [a0, a1) and [b0, b1) share.
func overlap(a0, a1, b0, b1 int) int {
	return max(0, min(a1, b1)-max(a0, b0))
}

// merged returns the spans of doc as disjoint ranges, in order.
func merged(spans []Span, doc string) [][2]int {
	var rs [][2]int
	for _, s := range spans {
		if s.Doc == doc {
			rs = append(rs, [2]int{s.Start, s.End})
		}
	}
	slices.SortFunc(rs, func(a, b [2]int) int { return a[0] - b[0] })
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 && r[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}

// spanTokens returns the tokens of p's text inside spans; all n of them
// when p's Text is not its document's bytes Start..End (a widener that
// joins or rewrites text), where the pieces cannot be placed.
func spanTokens(tok tokencount.Tokenizer, p retrieve.Passage, spans []Span, n int) int {
	if len(p.Text) != p.End-p.Start {
		return n
	}
	var count int
	for _, r := range merged(spans, p.DocID) {
		lo, hi := max(r[0], p.Start), min(r[1], p.End)
		if lo < hi {
			count += tok.Count(p.Text[lo-p.Start : hi-p.Start])
		}
	}
	return min(count, n)
}

// spanRecall returns the bytes of spans that passages with offsets cover,
// over the bytes of spans (each byte counted once).
func spanRecall(spans []Span, ps []retrieve.Passage) float64 {
	var total, covered int
	for _, doc := range distinct(docsOf(spans)) {
		gold := merged(spans, doc)
		var got []Span
		for _, p := range ps {
			if p.DocID == doc && p.End > p.Start {
				got = append(got, Span{Doc: doc, Start: p.Start, End: p.End})
			}
		}
		hits := merged(got, doc)
		for _, g := range gold {
			total += g[1] - g[0]
			for _, h := range hits {
				covered += overlap(g[0], g[1], h[0], h[1])
			}
		}
	}
	if total == 0 {
		return 0
	}
	return float64(covered) / float64(total)
}

func docsOf(spans []Span) []string {
	docs := make([]string, len(spans))
	for i, s := range spans {
		docs[i] = s.Doc
	}
	return docs
}

// containsAnswer reports whether text holds answer, ignoring case and
// runs of white space; an empty answer is in no text.
func containsAnswer(text, answer string) bool {
	a := normalize(answer)
	return a != "" && strings.Contains(normalize(text), a)
}

// normalize lowercases s and turns every run of white space into one
// space, trimmed at both ends.
func normalize(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), unicode.IsSpace), " ")
}
