package retrieve_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

func hit(id, text string, score float32) vectorstore.Hit {
	return vectorstore.Hit{Record: vectorstore.Record{ID: id, DocID: "doc", Text: text}, Score: score}
}

func TestItems(t *testing.T) {
	hits := []vectorstore.Hit{hit("a", "First.", 0.75), hit("b", "Second.", 0.1), hit("c", "Third.", -0.2)}
	items, err := retrieve.Items(hits, retrieve.ItemConfig{})
	require.NoError(t, err)
	assert.Equal(t, []budget.Item{
		{Text: "First.", ID: "a", Rank: 0.75},
		{Text: "Second.", ID: "b", Rank: float64(float32(0.1))},
		{Text: "Third.", ID: "c", Rank: float64(float32(-0.2))},
	}, items)
}

func TestItemsLabelAndRole(t *testing.T) {
	label := func(o retrieve.Origin) string {
		if o.Start == 0 {
			return ""
		}
		return fmt.Sprintf("[%s %d-%d %s]", o.DocID, o.Start, o.End, o.Metadata["page"])
	}
	a := hit("a", "First.", 1)
	a.Start, a.End, a.Metadata = 10, 16, map[string]string{"page": "p. 3"}
	items, err := retrieve.Items([]vectorstore.Hit{a, hit("b", "Second.", 0.5)},
		retrieve.ItemConfig{Label: label, Role: "user"})
	require.NoError(t, err)
	assert.Equal(t, "[doc 10-16 p. 3]\nFirst.", items[0].Text)
	assert.Equal(t, "Second.", items[1].Text, "an empty label adds nothing")
	assert.Equal(t, "user", items[1].Role)
}

func TestItemsEmpty(t *testing.T) {
	items, err := retrieve.Items(nil, retrieve.ItemConfig{})
	require.NoError(t, err)
	assert.Empty(t, items)
}

func TestItemsErrors(t *testing.T) {
	bad := func(o retrieve.Origin) string {
		if o.Start == 1 {
			return "\xff"
		}
		return "ok"
	}
	tests := []struct {
		name string
		hit  vectorstore.Hit
		cfg  retrieve.ItemConfig
		want error
	}{
		{"empty text", hit("x", "", 1), retrieve.ItemConfig{}, retrieve.ErrEmptyText},
		{"white space", hit("x", " \n\t", 1), retrieve.ItemConfig{}, retrieve.ErrEmptyText},
		{"invalid UTF-8", hit("x", "a\xffb", 1), retrieve.ItemConfig{}, retrieve.ErrInvalidUTF8},
		{"invalid label", vectorstore.Hit{Record: vectorstore.Record{ID: "x", Text: "text", Start: 1, End: 5}}, retrieve.ItemConfig{Label: bad}, retrieve.ErrInvalidUTF8},
		{"NaN score", hit("x", "text", float32(math.NaN())), retrieve.ItemConfig{}, retrieve.ErrScore},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, err := retrieve.Items([]vectorstore.Hit{hit("ok", "fine", 2), tt.hit}, tt.cfg)
			require.ErrorIs(t, err, tt.want)
			assert.Contains(t, err.Error(), `hit 1 (ID "x")`)
			assert.Nil(t, items)
		})
	}
}

// Items keep the search's order as ranks: the budget drops the weakest
// hits first, whatever their position.
func TestItemsDropLowestRank(t *testing.T) {
	hits := []vectorstore.Hit{hit("low", "Low ranked words here.", 0.1), hit("high", "High ranked words here.", 0.9)}
	items, err := retrieve.Items(hits, retrieve.ItemConfig{})
	require.NoError(t, err)
	a, err := budget.New(budget.Config{Tokenizer: tokentest.Words{}, Limit: 100})
	require.NoError(t, err)
	res, err := a.Assemble(budget.Section{Name: "context", MaxTokens: 4, Strategy: budget.DropLowestRank, Items: items})
	require.NoError(t, err)
	assert.Equal(t, "High ranked words here.", res.Text)
}

func TestWindowItems(t *testing.T) {
	best := hit("doc#4", "Four.", 0.9)
	best.Metadata = map[string]string{"page": "2"}
	ws := []window.Window{
		{DocID: "doc", First: 3, Last: 5, Start: 30, End: 61, Text: "Three. Four. Five.", Score: 0.9, Hits: []vectorstore.Hit{best}},
		{DocID: "other", First: 7, Last: 7, Text: "Seven.", Score: 0.25},
	}
	var origins []retrieve.Origin
	label := func(o retrieve.Origin) string {
		origins = append(origins, o)
		return "[" + o.DocID + "]"
	}
	items, err := retrieve.WindowItems(ws, retrieve.ItemConfig{Label: label})
	require.NoError(t, err)
	assert.Equal(t, []budget.Item{
		{Text: "[doc]\nThree. Four. Five.", ID: "doc#3-5", Rank: 2},
		{Text: "[other]\nSeven.", ID: "other#7", Rank: 1},
	}, items)
	assert.Equal(t, []retrieve.Origin{
		{DocID: "doc", Start: 30, End: 61, Metadata: map[string]string{"page": "2"}},
		{DocID: "other"},
	}, origins)

	items, err = retrieve.WindowItems(nil, retrieve.ItemConfig{})
	require.NoError(t, err)
	assert.Empty(t, items)
}

func TestWindowItemsErrors(t *testing.T) {
	tests := []struct {
		name string
		w    window.Window
		want error
	}{
		{"empty text", window.Window{DocID: "d", First: 2, Last: 3, Text: " "}, retrieve.ErrEmptyText},
		{"invalid UTF-8", window.Window{DocID: "d", First: 2, Last: 3, Text: "\xc3"}, retrieve.ErrInvalidUTF8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok := window.Window{DocID: "d", Text: "fine", Score: 1}
			items, err := retrieve.WindowItems([]window.Window{ok, tt.w}, retrieve.ItemConfig{})
			require.ErrorIs(t, err, tt.want)
			assert.Contains(t, err.Error(), "window 1 (d#2-3)")
			assert.Nil(t, items)
		})
	}
}

// Segments rank by their order, which for an Extractor is their value, not
// the score of their best hit: a tight budget keeps the most valuable one.
func TestWindowItemsRankByOrder(t *testing.T) {
	ws := []window.Window{
		{DocID: "a", Text: "Most valuable segment.", Score: 0.2, Value: 2.5},
		{DocID: "b", Text: "Best single hit.", Score: 0.9, Value: 0.8},
	}
	items, err := retrieve.WindowItems(ws, retrieve.ItemConfig{})
	require.NoError(t, err)
	a, err := budget.New(budget.Config{Tokenizer: tokentest.Words{}, Limit: 100})
	require.NoError(t, err)
	res, err := a.Assemble(budget.Section{Name: "context", MaxTokens: 3, Strategy: budget.DropLowestRank, Items: items})
	require.NoError(t, err)
	assert.Equal(t, "Most valuable segment.", res.Text)
}

// Windows from a real Extractor, end to end: with a low penalty the hits
// of one document join into one segment, whose item is the document's text
// between the first and last hit, exactly.
func TestWindowItemsFromExtractor(t *testing.T) {
	ctx := context.Background()
	text := "Hotels cost 170 euros. Breakfast is included. Taxes are included.\n\nTrains are second class. First class needs approval."
	units, err := sentenceUnits(ctx, "policy", text)
	require.NoError(t, err)
	store := &vectorstore.Memory{}
	for i := range units {
		units[i].Vector = []float32{1, float32(i)}
	}
	require.NoError(t, store.Upsert(ctx, units...))
	hits := []vectorstore.Hit{
		{Record: units[0], Score: 0.9}, {Record: units[2], Score: 0.8}, {Record: units[4], Score: 0.3},
	}
	x, err := window.NewExtractor(window.ExtractorConfig{Source: store, Penalty: 0.05})
	require.NoError(t, err)
	ws, err := x.Extract(ctx, hits)
	require.NoError(t, err)
	items, err := retrieve.WindowItems(ws, retrieve.ItemConfig{})
	require.NoError(t, err)
	require.NotEmpty(t, items)
	require.Len(t, items, 1)
	assert.Equal(t, budget.Item{Text: text, ID: "policy#0-4", Rank: 1}, items[0])
}
