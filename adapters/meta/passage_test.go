package meta_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/vectorstore"
)

func TestPassageRoundTrip(t *testing.T) {
	unit := vectorstore.Hit{Record: vectorstore.Record{ID: "d#4", DocID: "d", Index: 4, Start: 40, End: 52, Text: "one sentence",
		Title: "Title", Section: []string{"A", "B"}, Source: "a.md"}, Score: 0.5}
	for _, p := range []retrieve.Passage{
		// A window of three units around a hit.
		{DocID: "d", Title: "Title", Source: "a.md", Section: []string{"A", "B"}, First: 3, Last: 5, Start: 30, End: 70, Text: "three sentences", Tokens: 9, Score: 0.25},
		// One record, as a search without a widener returns it.
		{DocID: "d", Title: "Title", Source: "a.md", Section: []string{"A", "B"}, First: 4, Last: 4, Start: 40, End: 52, Text: "one sentence", Score: 0.5, Hits: []vectorstore.Hit{unit}},
	} {
		m := meta.FromPassage(p, meta.Fused)
		if m[meta.ScoreKindKey] != "Fused" || m[meta.ScoreKey] != float64(p.Score) {
			t.Errorf("score: %v", m)
		}
		b, _ := json.Marshal(m)
		var back map[string]any
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		for _, mm := range []map[string]any{m, back} {
			got, err := meta.ToPassage(p.Text, mm, "", p.Score)
			if err != nil {
				t.Fatal(err)
			}
			want := p
			if want.First == want.Last {
				// The one hit comes back with the metadata and provenance it had.
				want.Hits = []vectorstore.Hit{{Record: vectorstore.Record{ID: unit.ID, DocID: "d", Index: 4, Start: 40, End: 52, Text: p.Text,
					Metadata: unit.Metadata, Title: unit.Title, Section: unit.Section, Source: unit.Source}, Score: p.Score}}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		}
	}
	if got := meta.PassageID(retrieve.Passage{DocID: "d", First: 3, Last: 5}); got != "d#3-5" {
		t.Errorf("PassageID = %q", got)
	}
	if _, err := meta.ToPassage("t", map[string]any{meta.LastKey: "x"}, "", 0); !errors.Is(err, meta.ErrUnsupported) {
		t.Errorf("bad LastKey: %v", err)
	}
	for s, k := range map[retrieve.Search]meta.ScoreKind{retrieve.Hybrid: meta.Fused, retrieve.Vector: meta.Cosine, retrieve.Keywords: meta.Keyword} {
		if meta.KindOf(s) != k {
			t.Errorf("KindOf(%v) = %v", s, meta.KindOf(s))
		}
	}
}

// A passage's hit spans and focus survive the trip through a framework's
// metadata, and spans that are not inside the text are refused.
func TestPassageSpans(t *testing.T) {
	p := retrieve.Passage{DocID: "d", First: 2, Last: 4, Text: "First. Second one. Third.",
		HitSpans: []segment.Span{{Start: 7, End: 18}, {Start: 0, End: 6}}, Focus: []segment.Span{{Start: 7, End: 18}}}
	m := meta.FromPassage(p, meta.Fused)
	if m[meta.HitSpansKey] != "7-18,0-6" || m[meta.FocusKey] != "7-18" {
		t.Fatalf("metadata %v", m)
	}
	back, err := meta.ToPassage(p.Text, m, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(p.HitSpans, back.HitSpans); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff(p.Focus, back.Focus); diff != "" {
		t.Error(diff)
	}
	for _, bad := range []any{"7-99", "9-3", "-1-2", "a-b", "7", 7, "1-2,"} {
		m[meta.HitSpansKey] = bad
		if _, err := meta.ToPassage(p.Text, m, "", 0); !errors.Is(err, meta.ErrUnsupported) {
			t.Errorf("spans %v: error %v, want ErrUnsupported", bad, err)
		}
	}
}
