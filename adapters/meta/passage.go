package meta

import (
	"fmt"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
)

// LastKey holds the Index of a passage's last unit, as an int; IndexKey holds
// its first. A passage of one unit has none.
const LastKey = "ragkit.last"

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
// passage that is one record under [IDKey], and its score and kind under
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
	if id := PassageID(p); p.First == p.Last && len(p.Hits) == 1 && id == p.Hits[0].ID {
		m[IDKey] = id
	}
	return m
}

// ToPassage converts a framework's retrieved document (its text, metadata
// and score) into a retrieve.Passage, so that retrieve.Items, its Citation
// labels and the budget work on what a framework's retriever returned:
// DocID, First (IndexKey), Last (LastKey, else First), Start, End and Tokens
// from meta's keys, Title, Source and Section from [TitleKey], [SourceKey]
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
	return p, nil
}

func intValue(key string, v any) (int, error) {
	n, ok := toInt(v)
	if !ok {
		return 0, fmt.Errorf("metadata %q: %w: %T %v is not an integer", key, ErrUnsupported, v, v)
	}
	return n, nil
}
