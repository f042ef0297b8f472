package meta

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/vectorstore"
)

// KindOf returns the kind of the scores that a retrieve.Retriever running
// search gives its passages: Fused for Hybrid, Cosine for Vector, Keyword
// for Keywords.
func KindOf(search retrieve.Search) ScoreKind {
	switch search {
	case retrieve.Vector:
		return Cosine
	case retrieve.Keywords:
		return Keyword
	}
	return Fused
}

// PassageID returns an ID for a passage, for frameworks whose documents need
// one: the ID of its record for a passage that is one hit's own record,
// else its DocID, "#", and its First and Last index joined by "-".
func PassageID(p retrieve.Passage) string {
	if p.First == p.Last && len(p.Hits) == 1 && p.Hits[0].Index == p.First {
		return p.Hits[0].ID
	}
	if p.First == p.Last {
		return fmt.Sprintf("%s#%d", p.DocID, p.First)
	}
	return fmt.Sprintf("%s#%d-%d", p.DocID, p.First, p.Last)
}

// FromPassage returns the framework metadata of a passage from a
// retrieve.Retriever: [DocIDKey], [IndexKey] (its first unit) and
// [LastKey] (its last, if another), [StartKey] and [EndKey] unless both are
// zero, [TokensKey] if it was counted, its title, source and section path
// under [TitleKey], [SourceKey] and [SectionKey] if it has them, the ID of a
// passage that is one record under [IDKey], its HitSpans and Focus under
// [HitSpansKey] and [FocusKey], and its score and kind under
// [ScoreKey] and [ScoreKindKey]. [ToPassage] reads it back.
func FromPassage(p retrieve.Passage, kind ScoreKind) map[string]any {
	m := map[string]any{
		DocIDKey:     p.DocID,
		IndexKey:     p.First,
		ScoreKey:     float64(p.Score),
		ScoreKindKey: kind.String(),
	}
	if p.Last != p.First {
		m[LastKey] = p.Last
	}
	if p.Start != 0 || p.End != 0 {
		m[StartKey] = p.Start
		m[EndKey] = p.End
	}
	if p.Tokens > 0 {
		m[TokensKey] = p.Tokens
	}
	AddProvenance(m, vectorstore.Record{Title: p.Title, Source: p.Source, Section: p.Section})
	if len(p.HitSpans) > 0 {
		m[HitSpansKey] = formatSpans(p.HitSpans)
	}
	if len(p.Focus) > 0 {
		m[FocusKey] = formatSpans(p.Focus)
	}
	if id := PassageID(p); p.First == p.Last && len(p.Hits) == 1 && id == p.Hits[0].ID {
		m[IDKey] = id
	}
	return m
}

// ToPassage converts a framework's retrieved document (its text, metadata
// and score) into a retrieve.Passage, so that retrieve.Items, its Citation
// labels and the budget work on what a framework's retriever returned:
// DocID, First (IndexKey), Last (LastKey, else First), Start, End and Tokens
// from meta's keys, HitSpans and Focus from [HitSpansKey] and [FocusKey],
// Title, Source and Section from [TitleKey], [SourceKey]
// and [SectionKey], and, for a passage of one unit, that unit as its one
// hit, a record by [ToRecord] (docIDKey as there). What ToRecord refuses, or
// a LastKey or TokensKey that is not an integer, gives an error wrapping
// [ErrUnsupported].
func ToPassage(text string, m map[string]any, docIDKey string, score float32) (retrieve.Passage, error) {
	last, hasLast := m[LastKey]
	tokens, hasTokens := m[TokensKey]
	u, err := ToRecord(text, m, docIDKey)
	if err != nil {
		return retrieve.Passage{}, err
	}
	p := retrieve.Passage{
		DocID: u.DocID, First: u.Index, Last: u.Index, Start: u.Start, End: u.End, Text: text, Score: score,
		Title: u.Title, Source: u.Source, Section: u.Section,
	}
	if hasLast {
		if p.Last, err = intValue(LastKey, last); err != nil {
			return retrieve.Passage{}, err
		}
	}
	if hasTokens {
		if p.Tokens, err = intValue(TokensKey, tokens); err != nil {
			return retrieve.Passage{}, err
		}
	}
	if p.Last == p.First {
		p.Hits = []vectorstore.Hit{{Record: u.Record, Score: score}}
	}
	if p.HitSpans, err = spansValue(HitSpansKey, m, len(text)); err != nil {
		return retrieve.Passage{}, err
	}
	if p.Focus, err = spansValue(FocusKey, m, len(text)); err != nil {
		return retrieve.Passage{}, err
	}
	return p, nil
}

func formatSpans(spans []segment.Span) string {
	var b strings.Builder
	for i, s := range spans {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(s.Start))
		b.WriteByte('-')
		b.WriteString(strconv.Itoa(s.End))
	}
	return b.String()
}

// maxSpans bounds the spans read from one document's metadata.
const maxSpans = 1 << 12

// spansValue reads the spans under key, each within a text of n bytes;
// none when the key is absent.
func spansValue(key string, m map[string]any, n int) ([]segment.Span, error) {
	v, ok := m[key]
	if !ok {
		return nil, nil
	}
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("metadata %q: %w: %T is not a string of spans", key, ErrUnsupported, v)
	}
	if strings.Count(s, ",") >= maxSpans {
		return nil, fmt.Errorf("metadata %q: %w: more than %d spans", key, ErrUnsupported, maxSpans)
	}
	var spans []segment.Span
	for _, pair := range strings.Split(s, ",") {
		a, b, found := strings.Cut(pair, "-")
		start, err1 := strconv.Atoi(a)
		end, err2 := strconv.Atoi(b)
		if !found || err1 != nil || err2 != nil || start < 0 || end < start || end > n {
			return nil, fmt.Errorf("metadata %q: %w: %q is not a span inside the text's %d bytes", key, ErrUnsupported, pair, n)
		}
		spans = append(spans, segment.Span{Start: start, End: end})
	}
	return spans, nil
}

func intValue(key string, v any) (int, error) {
	n, ok := toInt(v)
	if !ok {
		return 0, fmt.Errorf("metadata %q: %w: %T %v is not an integer", key, ErrUnsupported, v, v)
	}
	return n, nil
}

// Score32 returns a framework document's score as the float32 of a
// retrieve.Passage's Score, or an error wrapping [ErrUnsupported] for a
// score that is NaN or infinite, or finite but beyond what a float32
// holds (1e39 would become +Inf).
func Score32(score float64) (float32, error) {
	f := float32(score)
	if g := float64(f); math.IsNaN(g) || math.IsInf(g, 0) {
		return 0, fmt.Errorf("%w: a score of %v, which is not a finite float32", ErrUnsupported, score)
	}
	return f, nil
}
