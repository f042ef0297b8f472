package retrieve_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore"
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
