package window_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

type seg struct {
	doc         string
	first, last int
	value       float64
}

func segsOf(ws []window.Window) []seg {
	out := make([]seg, len(ws))
	for i, w := range ws {
		out[i] = seg{w.DocID, w.First, w.Last, math.Round(w.Value*1000) / 1000}
	}
	return out
}

func TestExtractProfiles(t *testing.T) {
	docs := map[string]string{"a": numbered(30), "b": numbered(10)}
	type h struct {
		doc string
		i   int
	}
	// With a Decay this large every hit is worth 1: a retrieved unit is
	// 1-Penalty, any other -Penalty.
	flat := window.ExtractorConfig{Penalty: 0.25, Decay: 1e12, MinValue: 0.5, MaxUnits: 5}
	tests := []struct {
		name   string
		cfg    window.ExtractorConfig
		hits   []h
		want   []seg
		ranges int64
	}{
		{"bridges one gap", flat, []h{{"a", 3}, {"a", 4}, {"a", 6}, {"a", 20}},
			[]seg{{"a", 3, 6, 2}, {"a", 20, 20, .75}}, 1},
		{"max length splits, ties go to the earlier end", with(flat, func(c *window.ExtractorConfig) { c.MaxUnits = 3 }),
			[]h{{"a", 3}, {"a", 4}, {"a", 6}, {"a", 20}},
			[]seg{{"a", 3, 4, 1.5}, {"a", 6, 6, .75}, {"a", 20, 20, .75}}, 1},
		{"min value stops", with(flat, func(c *window.ExtractorConfig) { c.MinValue = 1 }),
			[]h{{"a", 3}, {"a", 4}, {"a", 6}, {"a", 20}}, []seg{{"a", 3, 6, 2}}, 1},
		{"high penalty keeps runs tight", with(flat, func(c *window.ExtractorConfig) { c.Penalty = 0.6 }),
			[]h{{"a", 3}, {"a", 4}, {"a", 6}}, []seg{{"a", 3, 4, .8}}, 1},
		{"never crosses documents", flat, []h{{"a", 29}, {"b", 0}, {"a", 28}, {"b", 1}},
			[]seg{{"a", 28, 29, 1.5}, {"b", 0, 1, 1.5}}, 2},
		{"documents limit", with(flat, func(c *window.ExtractorConfig) { c.Documents = 1 }),
			[]h{{"b", 5}, {"a", 28}, {"a", 29}}, []seg{{"b", 5, 5, .75}}, 1},
		{"rank decay", window.ExtractorConfig{Penalty: 0.3, Decay: 1, MinValue: 0.1, MaxUnits: 10},
			// worths 1, e^-1, e^-2: unit 10 alone is .7, 10..11 adds .068, 13 is -.165
			[]h{{"a", 10}, {"a", 11}, {"a", 13}}, []seg{{"a", 10, 11, .768}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, units := storeOf(t, docs)
			tt.cfg.Source = src
			x, err := window.NewExtractor(tt.cfg)
			require.NoError(t, err)
			var hits []vectorstore.Hit
			for k, y := range tt.hits {
				hits = append(hits, hit(units, y.doc, y.i, 1-float32(k)/100))
			}
			ws, err := x.Extract(context.Background(), hits)
			require.NoError(t, err)
			require.Equal(t, tt.want, segsOf(ws))
			require.Equal(t, tt.ranges, src.ranges.Load())
			for _, w := range ws {
				require.Equal(t, docs[w.DocID][w.Start:w.End], w.Text)
				require.NotEmpty(t, w.Hits)
			}
		})
	}
}

func with(c window.ExtractorConfig, f func(*window.ExtractorConfig)) window.ExtractorConfig {
	f(&c)
	return c
}

func TestExtractBudget(t *testing.T) {
	src, units := storeOf(t, map[string]string{"a": numbered(30)})
	x, err := window.NewExtractor(window.ExtractorConfig{Source: src, Penalty: 0.25, Decay: 1e12, MinValue: 0.5,
		MaxUnits: 10, Tokenizer: tokentest.Words{}, MaxTotalTokens: 4*4 + 4*2})
	require.NoError(t, err)
	var hits []vectorstore.Hit
	for k, i := range []int{3, 4, 5, 6, 20, 21, 22} {
		hits = append(hits, hit(units, "a", i, 1-float32(k)/100))
	}
	ws, err := x.Extract(context.Background(), hits)
	require.NoError(t, err)
	require.Equal(t, []seg{{"a", 3, 6, 3}, {"a", 20, 21, 1.5}}, segsOf(ws)) // 22 is the lowest-ranked hit
	require.True(t, ws[1].Trimmed)
	require.Equal(t, 24, ws[0].Tokens+ws[1].Tokens)
}

func TestExtractUseScores(t *testing.T) {
	src, units := storeOf(t, map[string]string{"a": numbered(30)})
	x, err := window.NewExtractor(window.ExtractorConfig{Source: src, Penalty: 0.25, Decay: 1e12, MinValue: 0.01, UseScores: true})
	require.NoError(t, err)
	ws, err := x.Extract(context.Background(), []vectorstore.Hit{hit(units, "a", 3, 0.5), hit(units, "a", 9, 0.2)})
	require.NoError(t, err)
	require.Equal(t, []seg{{"a", 3, 3, .25}}, segsOf(ws))
}

func TestExtractVanished(t *testing.T) {
	src, units := storeOf(t, map[string]string{"a": numbered(10), "b": numbered(10)})
	require.NoError(t, src.store.DeleteDocument(context.Background(), "b"))
	x, err := window.NewExtractor(window.ExtractorConfig{Source: src, Preset: window.Recall})
	require.NoError(t, err)
	ws, err := x.Extract(context.Background(), []vectorstore.Hit{hit(units, "b", 3, .9), hit(units, "a", 3, .8)})
	require.NoError(t, err)
	require.Len(t, ws, 2)
	require.True(t, ws[0].Vanished)
	require.Equal(t, units["b"][3].Text, ws[0].Text)
}

func TestNewExtractor(t *testing.T) {
	src := &counting{}
	for _, tt := range []struct {
		cfg     window.ExtractorConfig
		message string
	}{
		{window.ExtractorConfig{Source: src, Preset: 7}, "Preset is Preset(7): must be Balanced, Precision or Recall"},
		{window.ExtractorConfig{Source: src, MaxUnits: -1}, "MaxUnits is -1: must be finite and 0 or more"},
		{window.ExtractorConfig{Source: src, Documents: -2}, "Documents is -2: must be finite and 0 or more"},
		{window.ExtractorConfig{Source: src, Penalty: math.NaN()}, "Penalty is NaN: must be finite and 0 or more"},
		{window.ExtractorConfig{Source: src, Penalty: -0.1}, "Penalty is -0.1: must be finite and 0 or more"},
		{window.ExtractorConfig{Source: src, MinValue: -1}, "MinValue is -1: must be finite and 0 or more"},
		{window.ExtractorConfig{Source: src, MinValue: math.Inf(1)}, "MinValue is +Inf: must be finite and 0 or more"},
		{window.ExtractorConfig{Source: src, Decay: -1}, "Decay is -1: must be finite and 0 or more"},
		{window.ExtractorConfig{Source: src, MaxTotalTokens: 9}, "Tokenizer is <nil>: is required with MaxTotalTokens"},
		{window.ExtractorConfig{Source: src, Penalty: 0.2, NoPenalty: true}, "Penalty is 0.2: must be 0 with NoPenalty"},
		{window.ExtractorConfig{Source: src, MinValue: 0.1, NoMinValue: true}, "MinValue is 0.1: must be 0 with NoMinValue"},
	} {
		_, err := window.NewExtractor(tt.cfg)
		require.ErrorIs(t, err, window.ErrConfig)
		require.EqualError(t, err, "window: invalid configuration: "+tt.message)
	}
	for _, p := range []window.Preset{window.Balanced, window.Precision, window.Recall} {
		x, err := window.NewExtractor(window.ExtractorConfig{Source: src, Preset: p})
		require.NoError(t, err)
		c := x.Config()
		require.Positive(t, c.MaxUnits)
		require.Positive(t, c.Penalty)
		require.Positive(t, c.Decay)
		require.Positive(t, c.MinValue)
	}
	x, err := window.NewExtractor(window.ExtractorConfig{Source: src, NoPenalty: true, NoMinValue: true})
	require.NoError(t, err)
	require.Zero(t, x.Config().Penalty, "NoPenalty: exactly zero, not the Preset's")
	require.Zero(t, x.Config().MinValue, "NoMinValue: exactly zero, not the Preset's")
	again, err := window.NewExtractor(x.Config())
	require.NoError(t, err)
	require.Equal(t, x.Config(), again.Config())
	require.Equal(t, "Precision", window.Precision.String())
	require.Equal(t, "Preset(9)", window.Preset(9).String())
	var zero window.Extractor
	_, err = zero.Extract(context.Background(), nil)
	require.ErrorIs(t, err, window.ErrConfig)
}

// TestExtractBudgetSkips: a run that fits the budget only when cut below
// MinValue is left out, and selection goes on to a run that fits.
func TestExtractBudgetSkips(t *testing.T) {
	src, units := storeOf(t, map[string]string{"a": numbered(30), "b": "Aa. Bb. Cc. Dd."})
	x, err := window.NewExtractor(window.ExtractorConfig{Source: src, Penalty: 0.25, Decay: 1e12, MinValue: 2,
		MaxUnits: 10, Tokenizer: tokentest.Words{}, MaxTotalTokens: 11})
	require.NoError(t, err)
	var hits []vectorstore.Hit
	for k, i := range []int{3, 4, 5, 6} {
		hits = append(hits, hit(units, "a", i, 1-float32(k)/100))
	}
	for k, i := range []int{0, 1, 2} {
		hits = append(hits, hit(units, "b", i, .5-float32(k)/100))
	}
	ws, err := x.Extract(context.Background(), hits)
	require.NoError(t, err)
	require.Equal(t, []seg{{"b", 0, 2, 2.25}}, segsOf(ws))
	require.Equal(t, 3, ws[0].Tokens)
}
