package retrieve_test

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// Every passage knows where its hits are: each span holds its hit's text,
// best first, whatever widened it.
func TestHitSpans(t *testing.T) {
	store, emb := folder(t, 12, threeNotes...)
	x, err := window.NewExtractor(window.ExtractorConfig{Source: store})
	require.NoError(t, err)
	e, err := window.NewExpander(window.ExpanderConfig{Source: store, Size: 1})
	require.NoError(t, err)
	for _, tt := range []struct {
		name string
		w    retrieve.Widener
	}{{"hits alone", nil}, {"windows", e}, {"segments", x}} {
		t.Run(tt.name, func(t *testing.T) {
			ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Widener: tt.w}).Retrieve(bg, "How many vacation days after five years?")
			require.NoError(t, err)
			require.NotEmpty(t, ps)
			for _, p := range ps {
				require.Len(t, p.HitSpans, len(p.Hits), "passage %s#%d", p.DocID, p.First)
				for i, s := range p.HitSpans {
					require.Equal(t, p.Hits[i].Text, p.Text[s.Start:s.End], "passage %s#%d, hit %d", p.DocID, p.First, i)
				}
			}
		})
	}
}

// Items gives the hits to the budget as protected spans, past the label,
// and with Room cuts a long passage around its best hit.
func TestItemsKeep(t *testing.T) {
	text := "Intro one. Intro two. The answer is 42. Outro one. Outro two."
	hit := segment.Span{Start: 22, End: 39}
	p := retrieve.Passage{DocID: "d", Title: "Doc", Text: text, HitSpans: []segment.Span{hit},
		Hits: []vectorstore.Hit{{Record: vectorstore.Record{DocID: "d", Text: text[hit.Start:hit.End]}}}}
	items, err := retrieve.Items([]retrieve.Passage{p}, retrieve.ItemConfig{Label: retrieve.Citation})
	require.NoError(t, err)
	it := items[0]
	require.Equal(t, []segment.Span{{Start: 6 + hit.Start, End: 6 + hit.End}, {Start: 0, End: 5}}, it.Keep, "the hit past the label, then the label")
	require.Equal(t, "The answer is 42.", it.Text[it.Keep[0].Start:it.Keep[0].End])

	tok := tokentest.Words{}
	items, err = retrieve.Items([]retrieve.Passage{p}, retrieve.ItemConfig{Room: 7, Tokenizer: tok}) // a token for the separator
	require.NoError(t, err)
	it = items[0]
	require.Equal(t, "[…] The answer is 42. […]", it.Text)
	require.Equal(t, []segment.Span{{Start: 6, End: 23}}, it.Keep, "the hit in the cut text")
	require.LessOrEqual(t, tok.Count(it.Text), 6)

	// A second cut, by the section's budget, still keeps the hit first.
	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 100})
	require.NoError(t, err)
	res, err := a.Assemble(budget.Section{Name: "context", MaxTokens: 4, Items: items})
	require.NoError(t, err)
	require.Equal(t, "[…] The answer […]", res.Text)

	for _, cfg := range []retrieve.ItemConfig{{Room: -1, Tokenizer: tok}, {Room: 5}} {
		_, err := retrieve.Items([]retrieve.Passage{p}, cfg)
		require.ErrorIs(t, err, retrieve.ErrConfig)
	}
}

// The header rows of a table come before a passage only when it starts
// inside the table: not at its head, not outside it, not without them.
func TestItemsTableHead(t *testing.T) {
	header := "Figures\nOffices\n| Office | Staff |\n|---|--:|"
	hit := vectorstore.Hit{Record: vectorstore.Record{DocID: "d", Index: 3, Notes: vectorstore.Notes{Keywords: header}}}
	for _, tt := range []struct {
		name, text, header, want string
	}{
		{"inside the table", "| Lyon | 12 |\n| Oslo | 9 |", header, "| Office | Staff |\n|---|--:|\n| Lyon | 12 |\n| Oslo | 9 |"},
		{"at its head", "| Office | Staff |\n|---|--:|\n| Lyon | 12 |", header, "| Office | Staff |\n|---|--:|\n| Lyon | 12 |"},
		{"outside tables", "Lyon has 12 staff.", header, "Lyon has 12 staff."},
		{"no header rows known", "| Lyon | 12 |", "Figures\nOffices", "| Lyon | 12 |"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := hit
			h.Notes.Keywords = tt.header
			items, err := retrieve.Items([]retrieve.Passage{{DocID: "d", Text: tt.text, Hits: []vectorstore.Hit{h}}}, retrieve.ItemConfig{})
			require.NoError(t, err)
			require.Equal(t, tt.want, items[0].Text)
		})
	}
}

// A passage's Focus is the sentence of its hits that matches the
// question's words: where in a hit of several sentences the answer is.
func TestFocus(t *testing.T) {
	store, emb := folder(t, 60, threeNotes...)
	ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb}).Retrieve(bg, "How many vacation days after five years of service?")
	require.NoError(t, err)
	require.NotEmpty(t, ps)
	p := ps[0]
	require.NotEmpty(t, p.Focus)
	require.Equal(t, "Every employee receives 25 vacation days a year, and 30 after five years of service.", p.Text[p.Focus[0].Start:p.Focus[0].End])
	require.Greater(t, len(p.Text), p.Focus[0].End-p.Focus[0].Start, "the hit holds more than its focus")
}

// With Room, a long first passage is cut so that the next passage's hit
// still fits: the budget alone gives the first all the room and drops
// the second.
func TestItemsRoom(t *testing.T) {
	long := strings.Repeat("Filler words about nothing much at all here. ", 12) + "The first answer is here. " + strings.Repeat("More filler about nothing at all. ", 6)
	hit1 := strings.Index(long, "The first answer")
	short := "The second answer is 7."
	ps := []retrieve.Passage{
		{DocID: "a", Text: long, HitSpans: []segment.Span{{Start: hit1, End: hit1 + len("The first answer is here.")}}},
		{DocID: "b", Text: short, HitSpans: []segment.Span{{Start: 0, End: len(short)}}},
	}
	tok := tokentest.Words{}
	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 1000})
	require.NoError(t, err)
	for _, tt := range []struct {
		name string
		room int
		want []string
	}{
		{"the budget alone", 0, []string{"The first answer is here."}},
		{"sized to the room", 60, []string{"The first answer is here.", short}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := retrieve.ItemConfig{}
			if tt.room > 0 {
				cfg = retrieve.ItemConfig{Room: tt.room, Tokenizer: tok}
			}
			items, err := retrieve.Items(ps, cfg)
			require.NoError(t, err)
			res, err := a.Assemble(budget.Section{Name: "context", MaxTokens: 60, Strategy: budget.DropLowestRank, Cut: budget.CutEnd, Items: items})
			require.NoError(t, err)
			require.LessOrEqual(t, res.Tokens, 60)
			for _, w := range tt.want {
				require.Contains(t, res.Text, w)
			}
			if tt.room == 0 {
				require.NotContains(t, res.Text, short, "without Room, the first passage pushes the second out")
			}
		})
	}
}

// Room bounds nothing but the room: a huge one leaves the passages whole,
// and one smaller than the passages' separators still gives items.
func TestItemsRoomBounds(t *testing.T) {
	ps := []retrieve.Passage{{DocID: "a", Text: "One two. Three four."}, {DocID: "b", Text: "Five six."}}
	tok := tokentest.Words{}
	for _, room := range []int{math.MaxInt, 1 << 40, 1} {
		items, err := retrieve.Items(ps, retrieve.ItemConfig{Room: room, Tokenizer: tok})
		require.NoError(t, err)
		require.Len(t, items, 2)
		if room > 100 {
			require.Equal(t, ps[0].Text, items[0].Text)
			require.Equal(t, ps[1].Text, items[1].Text)
		}
	}
	huge := tokentest.Func(func(string) int { return math.MaxInt })
	_, err := retrieve.Items(ps, retrieve.ItemConfig{Room: 100, Tokenizer: huge})
	require.NoError(t, err)
}

// FuzzItems checks Items on any passage text, hit spans and contextual
// header: no panic, the passage's text ends the item's, and every
// protected span lies within the item's text, with and without Room.
func FuzzItems(f *testing.F) {
	f.Add("| Lyon | 12 |\n| Oslo | 9 |", "T\n| Office | Staff |\n|---|--:|", 0, 5, 7)
	f.Add("One. Two three. Four.", "", 5, 15, 3)
	f.Add("a", "|\n|-", -3, 100, 0)
	f.Fuzz(func(t *testing.T, text, header string, start, end, room int) {
		if !utf8.ValidString(text) || !utf8.ValidString(header) || strings.TrimSpace(text) == "" {
			return
		}
		p := retrieve.Passage{DocID: "d", Title: "T", Text: text, HitSpans: []segment.Span{{Start: start, End: end}},
			Focus: []segment.Span{{Start: end, End: start}},
			Hits:  []vectorstore.Hit{{Record: vectorstore.Record{DocID: "d", Notes: vectorstore.Notes{Keywords: header}}}}}
		for _, cfg := range []retrieve.ItemConfig{{Label: retrieve.Citation}, {Label: retrieve.Citation, Room: max(0, room%500), Tokenizer: tokentest.Words{}}} {
			items, err := retrieve.Items([]retrieve.Passage{p}, cfg)
			require.NoError(t, err)
			it := items[0]
			if cfg.Room == 0 {
				require.True(t, strings.HasSuffix(it.Text, text))
			}
			for _, s := range it.Keep {
				require.True(t, 0 <= s.Start && s.Start < s.End && s.End <= len(it.Text), "span %v of %d bytes", s, len(it.Text))
			}
		}
	})
}
