package window_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

// FuzzExpand checks the invariants of Expand on any text and hits: windows
// rebuild the text at their offsets, never overlap or cross documents,
// hold their hits, stay within Size of a hit and within both caps by the
// exact count of their text.
func FuzzExpand(f *testing.F) {
	f.Add("One. Two. Three. Four. Five. Six.", []byte{0, 3, 5, 130}, int8(1), uint8(6), uint8(0), false)
	f.Add("# A\n\nOne two. Three.\n\n## B\n\nFour. Five six seven.", []byte{1, 2, 4, 129}, int8(2), uint8(0), uint8(9), true)
	f.Add(numbered(40), []byte{10, 12, 30, 31, 140, 138}, int8(3), uint8(20), uint8(50), false)
	f.Fuzz(func(t *testing.T, text string, picks []byte, size int8, maxTokens, maxTotal uint8, sections bool) {
		docs := map[string]string{"a": text, "b": text}
		m, units := fuzzStore(t, docs)
		if m == nil {
			return
		}
		hits := fuzzHits(units, picks)
		tok := tokentest.Lumpy{}
		cfg := window.ExpanderConfig{Source: m, Size: int(size % 8), Tokenizer: tok,
			MaxTokens: int(maxTokens), MaxTotalTokens: int(maxTotal)}
		if size < 0 { // one side only: Before, or After for odd sizes
			cfg.Size, cfg.Before = 0, int(-(size % 8))
			if size%2 != 0 {
				cfg.Before, cfg.After = 0, cfg.Before
			}
		}
		if sections {
			cfg.WithinSections = true
		}
		e, err := window.NewExpander(cfg)
		require.NoError(t, err)
		ws, err := e.Expand(context.Background(), hits)
		require.NoError(t, err)
		checkWindows(t, e.Config(), docs, hits, ws)
		for _, w := range ws {
			for u := w.First + 1; sections && u <= w.Last; u++ {
				us := units[w.DocID]
				require.Equal(t, us[u-1].Section, us[u].Section,
					"window %d..%d of %s crosses a section", w.First, w.Last, w.DocID)
			}
		}
	})
}

func checkWindows(t *testing.T, cfg window.ExpanderConfig, docs map[string]string, hits []vectorstore.Hit, ws []window.Window) {
	total := 0
	taken := map[string]map[int]bool{}
	seen := map[string]bool{}
	for i, w := range ws {
		require.Equal(t, docs[w.DocID][w.Start:w.End], w.Text)
		require.Equal(t, cfg.Tokenizer.Count(w.Text), w.Tokens)
		if cfg.MaxTokens > 0 && w.Tokens > cfg.MaxTokens {
			require.True(t, w.Oversized)
			require.Equal(t, w.First, w.Last)
		}
		total += w.Tokens
		if i > 0 {
			require.LessOrEqual(t, w.Score, ws[i-1].Score)
		}
		if taken[w.DocID] == nil {
			taken[w.DocID] = map[int]bool{}
		}
		for u := w.First; u <= w.Last; u++ {
			require.False(t, taken[w.DocID][u], "unit %d of %s in two windows", u, w.DocID)
			taken[w.DocID][u] = true
		}
		require.NotEmpty(t, w.Hits)
		lo, hi := w.Hits[0].Index, w.Hits[0].Index
		for _, h := range w.Hits {
			require.Equal(t, w.DocID, h.DocID)
			require.True(t, h.Index >= w.First && h.Index <= w.Last)
			require.False(t, seen[h.ID], "hit %s twice", h.ID)
			seen[h.ID] = true
			lo, hi = min(lo, h.Index), max(hi, h.Index)
		}
		require.GreaterOrEqual(t, w.First, lo-cfg.Before)
		require.LessOrEqual(t, w.Last, hi+cfg.After)
	}
	if cfg.MaxTotalTokens > 0 {
		require.LessOrEqual(t, total, cfg.MaxTotalTokens)
		return
	}
	for _, h := range hits {
		require.True(t, seen[h.ID], "hit %s lost", h.ID)
	}
}

// FuzzExtract checks the invariants of Extract: segments rebuild the text
// at their offsets, never overlap or cross documents, hold at most
// MaxUnits units and a hit each, are worth at least MinValue, and stay
// within the total budget by the exact count of their text.
func FuzzExtract(f *testing.F) {
	f.Add("One. Two. Three. Four. Five. Six.", []byte{0, 3, 5, 130}, uint8(2), uint8(20), uint8(0), uint8(3))
	f.Add(numbered(40), []byte{10, 12, 30, 31, 140, 138, 11}, uint8(5), uint8(10), uint8(30), uint8(1))
	f.Add("# A\n\nOne two. Three.\n\n## B\n\nFour. Five six seven.", []byte{1, 2, 4, 129}, uint8(0), uint8(0), uint8(9), uint8(2))
	f.Fuzz(func(t *testing.T, text string, picks []byte, maxUnits, penalty, maxTotal, preset uint8) {
		docs := map[string]string{"a": text, "b": text}
		m, units := fuzzStore(t, docs)
		if m == nil {
			return
		}
		hits := fuzzHits(units, picks)
		tok := tokentest.Lumpy{}
		x, err := window.NewExtractor(window.ExtractorConfig{Source: m, Preset: window.Preset(preset % 3),
			MaxUnits: int(maxUnits % 20), Penalty: float64(penalty) / 100, Tokenizer: tok, MaxTotalTokens: int(maxTotal)})
		require.NoError(t, err)
		ws, err := x.Extract(context.Background(), hits)
		require.NoError(t, err)
		cfg := x.Config()
		total := 0
		taken := map[string]map[int]bool{"a": {}, "b": {}}
		for _, w := range ws {
			require.Equal(t, docs[w.DocID][w.Start:w.End], w.Text)
			require.Equal(t, tok.Count(w.Text), w.Tokens)
			require.LessOrEqual(t, w.Last-w.First+1, cfg.MaxUnits)
			require.GreaterOrEqual(t, w.Value, cfg.MinValue)
			require.Positive(t, w.Value)
			require.NotEmpty(t, w.Hits)
			for u := w.First; u <= w.Last; u++ {
				require.False(t, taken[w.DocID][u], "unit %d of %s in two segments", u, w.DocID)
				taken[w.DocID][u] = true
			}
			for _, h := range w.Hits {
				require.Equal(t, w.DocID, h.DocID)
				require.True(t, h.Index >= w.First && h.Index <= w.Last)
			}
			total += w.Tokens
		}
		if cfg.MaxTotalTokens > 0 {
			require.LessOrEqual(t, total, cfg.MaxTotalTokens)
		}
	})
}

// fuzzStore stores the sentence units of docs, each with its section path
// in the document read as Markdown; nil if a text has none.
func fuzzStore(t *testing.T, docs map[string]string) (*memory.Store, map[string][]vectorstore.Record) {
	units := map[string][]vectorstore.Record{}
	m, err := memory.New(memory.Config{})
	require.NoError(t, err)
	for id, d := range docs {
		recs, err := sentenceUnits(id, d)
		if err != nil {
			return nil, nil
		}
		embed(recs)
		outline := document.NewOutline(d, document.Markdown)
		for i := range recs {
			recs[i].Section = outline.Path(recs[i].Start, recs[i].End)
		}
		require.NoError(t, m.Upsert(context.Background(), recs...))
		units[id] = recs
	}
	return m, units
}

// fuzzHits picks units of "a" (bytes below 128) and "b", best first.
func fuzzHits(units map[string][]vectorstore.Record, picks []byte) []vectorstore.Hit {
	var hits []vectorstore.Hit
	for k, p := range picks {
		doc := "a"
		if p >= 128 {
			doc = "b"
		}
		us := units[doc]
		hits = append(hits, vectorstore.Hit{Record: us[int(p%128)%len(us)], Score: 1 - float32(k)/float32(len(picks))})
	}
	return hits
}
