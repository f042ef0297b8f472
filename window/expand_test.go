package window_test

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

type span struct {
	doc         string
	first, last int
}

func spansOf(ws []window.Window) []span {
	out := make([]span, len(ws))
	for i, w := range ws {
		out[i] = span{w.DocID, w.First, w.Last}
	}
	return out
}

func TestExpand(t *testing.T) {
	docs := map[string]string{"a": numbered(20), "b": numbered(6)}
	type h struct {
		doc   string
		i     int
		score float32
	}
	tests := []struct {
		name string
		cfg  window.ExpanderConfig
		hits []h
		want []span
	}{
		{"symmetric", window.ExpanderConfig{Size: 2}, []h{{"a", 10, .9}}, []span{{"a", 8, 12}}},
		{"default size is 3 each side", window.ExpanderConfig{}, []h{{"a", 10, .9}}, []span{{"a", 7, 13}}},
		{"first unit", window.ExpanderConfig{Size: 2}, []h{{"a", 0, .9}}, []span{{"a", 0, 2}}},
		{"last unit", window.ExpanderConfig{Size: 2}, []h{{"a", 19, .9}}, []span{{"a", 17, 19}}},
		{"before only", window.ExpanderConfig{Before: 2}, []h{{"a", 10, .9}}, []span{{"a", 8, 10}}},
		{"asymmetric", window.ExpanderConfig{Before: 1, After: 3}, []h{{"a", 10, .9}}, []span{{"a", 9, 13}}},
		{"overlapping windows merge", window.ExpanderConfig{Size: 2}, []h{{"a", 5, .9}, {"a", 8, .8}}, []span{{"a", 3, 10}}},
		{"touching windows merge", window.ExpanderConfig{Size: 2}, []h{{"a", 5, .9}, {"a", 10, .8}}, []span{{"a", 3, 12}}},
		{"distant windows stay apart", window.ExpanderConfig{Size: 2}, []h{{"a", 5, .7}, {"a", 11, .8}}, []span{{"a", 9, 13}, {"a", 3, 7}}},
		{"several documents", window.ExpanderConfig{Size: 1}, []h{{"b", 5, .9}, {"a", 0, .8}, {"a", 1, .95}},
			[]span{{"a", 0, 2}, {"b", 4, 5}}},
		{"duplicate hits", window.ExpanderConfig{Size: 1}, []h{{"a", 4, .9}, {"a", 4, .9}}, []span{{"a", 3, 5}}},
		{"hit inside another window", window.ExpanderConfig{Size: 3}, []h{{"a", 4, .9}, {"a", 5, .5}}, []span{{"a", 1, 8}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, units := storeOf(t, docs)
			require.Len(t, units["a"], 20)
			tt.cfg.Source = src
			e, err := window.NewExpander(tt.cfg)
			require.NoError(t, err)
			var hits []vectorstore.Hit
			for _, x := range tt.hits {
				hits = append(hits, hit(units, x.doc, x.i, x.score))
			}
			ws, err := e.Expand(context.Background(), hits)
			require.NoError(t, err)
			require.Equal(t, tt.want, spansOf(ws))
			docsHit := map[string]bool{}
			for _, x := range tt.hits {
				docsHit[x.doc] = true
			}
			require.Equal(t, int64(len(docsHit)), src.ranges.Load(), "one Range per document")
			for _, w := range ws {
				require.Equal(t, docs[w.DocID][w.Start:w.End], w.Text)
			}
		})
	}
}

func TestExpandHitsAndScore(t *testing.T) {
	src, units := storeOf(t, map[string]string{"a": numbered(20)})
	e, err := window.NewExpander(window.ExpanderConfig{Source: src, Size: 2})
	require.NoError(t, err)
	ws, err := e.Expand(context.Background(), []vectorstore.Hit{hit(units, "a", 5, .5), hit(units, "a", 7, .9)})
	require.NoError(t, err)
	require.Len(t, ws, 1)
	require.Equal(t, float32(.9), ws[0].Score)
	require.Equal(t, []string{"a#7", "a#5"}, []string{ws[0].Hits[0].ID, ws[0].Hits[1].ID})
	require.Nil(t, ws[0].Hits[0].Vector)
}

func TestExpandMaxTokens(t *testing.T) {
	doc := numbered(20)
	src, units := storeOf(t, map[string]string{"a": doc})
	tok := tokentest.Words{}
	t.Run("grows alternately within the cap", func(t *testing.T) {
		// every unit is 4 words; 13 words hold 3 units
		e, err := window.NewExpander(window.ExpanderConfig{Source: src, Size: 5, Tokenizer: tok, MaxTokens: 13})
		require.NoError(t, err)
		ws, err := e.Expand(context.Background(), []vectorstore.Hit{hit(units, "a", 10, 1)})
		require.NoError(t, err)
		require.Equal(t, []span{{"a", 9, 11}}, spansOf(ws))
		require.Equal(t, 12, ws[0].Tokens)
		require.False(t, ws[0].Oversized)
	})
	t.Run("cap smaller than the hit", func(t *testing.T) {
		e, err := window.NewExpander(window.ExpanderConfig{Source: src, Size: 5, Tokenizer: tok, MaxTokens: 3})
		require.NoError(t, err)
		ws, err := e.Expand(context.Background(), []vectorstore.Hit{hit(units, "a", 10, 1)})
		require.NoError(t, err)
		require.Equal(t, []span{{"a", 10, 10}}, spansOf(ws))
		require.True(t, ws[0].Oversized)
		require.Equal(t, 4, ws[0].Tokens)
	})
	t.Run("touching windows merge only within the cap", func(t *testing.T) {
		e, err := window.NewExpander(window.ExpanderConfig{Source: src, Size: 1, Tokenizer: tok, MaxTokens: 12})
		require.NoError(t, err)
		ws, err := e.Expand(context.Background(), []vectorstore.Hit{hit(units, "a", 4, 1), hit(units, "a", 7, .5)})
		require.NoError(t, err)
		require.Equal(t, []span{{"a", 3, 5}, {"a", 6, 8}}, spansOf(ws))
	})
	t.Run("total budget fits only some windows", func(t *testing.T) {
		e, err := window.NewExpander(window.ExpanderConfig{Source: src, Size: 1, Tokenizer: tok, MaxTotalTokens: 12 + 8})
		require.NoError(t, err)
		ws, err := e.Expand(context.Background(), []vectorstore.Hit{
			hit(units, "a", 2, .9), hit(units, "a", 10, .8), hit(units, "a", 16, .7)})
		require.NoError(t, err)
		require.Equal(t, []span{{"a", 1, 3}, {"a", 9, 10}}, spansOf(ws))
		require.False(t, ws[0].Trimmed)
		require.True(t, ws[1].Trimmed)
		require.Equal(t, 20, ws[0].Tokens+ws[1].Tokens)
	})
	t.Run("budget smaller than the best hit", func(t *testing.T) {
		e, err := window.NewExpander(window.ExpanderConfig{Source: src, Size: 1, Tokenizer: tok, MaxTotalTokens: 3})
		require.NoError(t, err)
		ws, err := e.Expand(context.Background(), []vectorstore.Hit{hit(units, "a", 2, .9)})
		require.NoError(t, err)
		require.Empty(t, ws)
	})
}

func TestExpandSections(t *testing.T) {
	doc := "# Intro\n\nOne. Two. Three.\n\n## Setup\n\nFour. Five. Six."
	_, units := storeOf(t, map[string]string{"md": doc})
	require.Len(t, units["md"], 8)
	t.Run("metadata key", func(t *testing.T) {
		m, err := memory.New(memory.Config{})
		require.NoError(t, err)
		recs := append([]vectorstore.Record(nil), units["md"]...)
		for i := range recs {
			recs[i].Metadata = map[string]string{"page": strconv.Itoa(i / 3)}
		}
		require.NoError(t, m.Upsert(context.Background(), recs...))
		e, err := window.NewExpander(window.ExpanderConfig{Source: m, Size: 5, SectionKey: "page", Separator: " | "})
		require.NoError(t, err)
		ws, err := e.Expand(context.Background(), []vectorstore.Hit{{Record: recs[4], Score: 1}})
		require.NoError(t, err)
		require.Equal(t, []span{{"md", 3, 5}}, spansOf(ws))
		require.Equal(t, "Three. | ## Setup | Four.", ws[0].Text)
	})
}

func TestExpandVanished(t *testing.T) {
	src, units := storeOf(t, map[string]string{"a": numbered(10), "b": numbered(10)})
	require.NoError(t, src.store.DeleteDocument(context.Background(), "b"))
	e, err := window.NewExpander(window.ExpanderConfig{Source: src, Size: 1})
	require.NoError(t, err)
	ws, err := e.Expand(context.Background(), []vectorstore.Hit{hit(units, "b", 3, .9), hit(units, "a", 3, .8)})
	require.NoError(t, err)
	require.Equal(t, []span{{"b", 3, 3}, {"a", 2, 4}}, spansOf(ws))
	require.True(t, ws[0].Vanished)
	require.Equal(t, units["b"][3].Text, ws[0].Text)
	require.False(t, ws[1].Vanished)
}

func TestExpandErrors(t *testing.T) {
	src, units := storeOf(t, map[string]string{"a": numbered(10)})
	boom := errors.New("boom")
	t.Run("source error", func(t *testing.T) {
		bad := &counting{store: src.store, fail: boom}
		e, err := window.NewExpander(window.ExpanderConfig{Source: bad})
		require.NoError(t, err)
		_, err = e.Expand(context.Background(), []vectorstore.Hit{hit(units, "a", 3, 1)})
		require.ErrorIs(t, err, window.ErrSource)
		require.ErrorIs(t, err, boom)
		require.ErrorContains(t, err, `"a"`)
	})
	t.Run("cancelled", func(t *testing.T) {
		e, err := window.NewExpander(window.ExpanderConfig{Source: src})
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err = e.Expand(ctx, []vectorstore.Hit{hit(units, "a", 3, 1)})
		require.ErrorIs(t, err, context.Canceled)
	})
	t.Run("bad hit", func(t *testing.T) {
		e, err := window.NewExpander(window.ExpanderConfig{Source: src})
		require.NoError(t, err)
		_, err = e.Expand(context.Background(), []vectorstore.Hit{{Record: vectorstore.Record{ID: "x"}}})
		require.ErrorIs(t, err, window.ErrInvalidHit)
	})
	t.Run("zero expander", func(t *testing.T) {
		var e window.Expander
		_, err := e.Expand(context.Background(), nil)
		require.ErrorIs(t, err, window.ErrConfig)
	})
	t.Run("no hits", func(t *testing.T) {
		e, err := window.NewExpander(window.ExpanderConfig{Source: src})
		require.NoError(t, err)
		ws, err := e.Expand(context.Background(), nil)
		require.NoError(t, err)
		require.Empty(t, ws)
	})
}

func TestNewExpander(t *testing.T) {
	src := &counting{}
	tok := tokentest.Words{}
	for _, tt := range []struct {
		cfg     window.ExpanderConfig
		message string
	}{
		{window.ExpanderConfig{Source: src, Tokenizer: tok, MaxTokens: -1}, "MaxTokens is -1: must be 0 or more"},
		{window.ExpanderConfig{Source: src, Tokenizer: tok, MaxTotalTokens: -1}, "MaxTotalTokens is -1: must be 0 or more"},
		{window.ExpanderConfig{Source: src, Size: -1}, "Size is -1: must be 0 or more"},
		{window.ExpanderConfig{Source: src, Before: -1}, "Before is -1: must be 0 or more"},
		{window.ExpanderConfig{Source: src, After: -2}, "After is -2: must be 0 or more"},
		{window.ExpanderConfig{Source: src, Size: 2, After: 1}, "Size is 2: must be 0 when Before or After is set"},
		{window.ExpanderConfig{Source: src, MaxTokens: 10}, "Tokenizer is <nil>: is required with MaxTokens or MaxTotalTokens"},
	} {
		_, err := window.NewExpander(tt.cfg)
		require.ErrorIs(t, err, window.ErrConfig)
		require.EqualError(t, err, "window: invalid configuration: "+tt.message)
	}
	for _, tt := range []struct {
		cfg           window.ExpanderConfig
		before, after int
	}{
		{window.ExpanderConfig{}, 3, 3},
		{window.ExpanderConfig{Size: 4}, 4, 4},
		{window.ExpanderConfig{Before: 4}, 4, 0},
		{window.ExpanderConfig{After: 1}, 0, 1},
		{window.ExpanderConfig{Before: 2, After: 5}, 2, 5},
	} {
		tt.cfg.Source = src
		e, err := window.NewExpander(tt.cfg)
		require.NoError(t, err)
		cfg := e.Config()
		require.Equal(t, []int{0, tt.before, tt.after}, []int{cfg.Size, cfg.Before, cfg.After}, "%+v", tt.cfg)
		again, err := window.NewExpander(cfg)
		require.NoError(t, err)
		require.Equal(t, cfg, again.Config(), "Config makes the same Expander")
	}
}

// TestExpandReplaced: a hit whose document was re-indexed under new IDs
// since the query is reported as Vanished; the rest of the document's
// hits are expanded as usual.
func TestExpandReplaced(t *testing.T) {
	src, units := storeOf(t, map[string]string{"a": numbered(10)})
	fresh := append([]vectorstore.Record(nil), units["a"]...)
	fresh = fresh[:6]
	for i := range fresh {
		if i == 2 {
			fresh[i].ID = "a#new2"
		}
	}
	require.NoError(t, src.store.ReplaceDocument(context.Background(), "a", fresh...))
	e, err := window.NewExpander(window.ExpanderConfig{Source: src, Size: 1})
	require.NoError(t, err)
	ws, err := e.Expand(context.Background(), []vectorstore.Hit{hit(units, "a", 2, .9), hit(units, "a", 4, .8), hit(units, "a", 8, .7)})
	require.NoError(t, err)
	require.Equal(t, []span{{"a", 2, 2}, {"a", 3, 5}, {"a", 8, 8}}, spansOf(ws))
	require.Equal(t, []bool{true, false, true}, []bool{ws[0].Vanished, ws[1].Vanished, ws[2].Vanished})
	require.Equal(t, int64(1), src.ranges.Load())
}

// cancelling cancels its context when the first document is read.
type cancelling struct {
	window.Source
	cancel func()
	calls  int
}

func (c *cancelling) Range(ctx context.Context, docID string, from, to int) ([]vectorstore.Record, error) {
	c.calls++
	c.cancel()
	return c.Source.Range(ctx, docID, from, to)
}

func TestExpandCancelledBetweenDocuments(t *testing.T) {
	src, units := storeOf(t, map[string]string{"a": numbered(10), "b": numbered(10)})
	ctx, cancel := context.WithCancel(context.Background())
	c := &cancelling{Source: src.store, cancel: cancel}
	e, err := window.NewExpander(window.ExpanderConfig{Source: c})
	require.NoError(t, err)
	_, err = e.Expand(ctx, []vectorstore.Hit{hit(units, "a", 1, .9), hit(units, "b", 1, .8)})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 1, c.calls)
	x, err := window.NewExtractor(window.ExtractorConfig{Source: c})
	require.NoError(t, err)
	c.calls = 0
	_, err = x.Extract(ctx, []vectorstore.Hit{hit(units, "a", 1, .9), hit(units, "b", 1, .8)})
	require.ErrorIs(t, err, context.Canceled)
	require.Zero(t, c.calls)
}
