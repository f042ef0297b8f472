package window_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// checkUnits checks what Expand relies on: consecutive indexes, offsets
// into text, and a window over all units that rebuilds the text exactly.
func checkUnits(t *testing.T, text string, units []vectorstore.Record) {
	t.Helper()
	require.NotEmpty(t, units)
	for i, u := range units {
		require.Equal(t, i, u.Index)
		require.Equal(t, text[u.Start:u.End], u.Text)
	}
	m, err := vectorstore.NewMemory(vectorstore.MemoryConfig{})
	require.NoError(t, err)
	embed(units)
	require.NoError(t, m.Upsert(context.Background(), units...))
	e, err := window.NewExpander(window.ExpanderConfig{Source: m, Size: len(units)})
	require.NoError(t, err)
	ws, err := e.Expand(context.Background(), []vectorstore.Hit{{Record: units[0]}})
	require.NoError(t, err)
	require.Len(t, ws, 1)
	last := units[len(units)-1]
	require.Equal(t, text[units[0].Start:last.End], ws[0].Text)
	require.Equal(t, []int{units[0].Start, last.End}, []int{ws[0].Start, ws[0].End})
}

func TestSentences(t *testing.T) {
	for _, name := range []string{"romeo_and_juliet.txt", "commonmark_spec.md", "hashbrown_set_rs.txt"} {
		t.Run(name, func(t *testing.T) {
			text := testcorpus.Must(t, name)
			units, err := window.Sentences("doc", text, nil)
			require.NoError(t, err)
			checkUnits(t, text, units)
		})
	}
	t.Run("gaps", func(t *testing.T) {
		units, err := window.Sentences("d", "One.  Two.\nThree.\n\nFour. Five.", nil)
		require.NoError(t, err)
		var gaps []string
		for _, u := range units {
			gaps = append(gaps, u.Metadata[window.GapKey])
		}
		require.Equal(t, []string{"", "  ", "\n", "\n\n", ""}, gaps)
		require.Equal(t, "d#4", units[4].ID)
	})
}

func TestChunks(t *testing.T) {
	text := testcorpus.Must(t, "room_with_a_view.txt")
	for _, overlap := range []int{0, 8} {
		c, err := chunker.New(chunker.Config{Tokenizer: tokentest.Words{}, MaxTokens: 32, OverlapTokens: overlap})
		require.NoError(t, err)
		units, err := window.Chunks("doc", text[:20000], c)
		require.NoError(t, err)
		checkUnits(t, text[:20000], units)
	}
}

func TestUnitsErrors(t *testing.T) {
	c, err := chunker.New(chunker.Config{Tokenizer: tokentest.Words{}, MaxTokens: 32})
	require.NoError(t, err)
	tests := []struct {
		name, id, text string
		want           error
	}{
		{"empty id", "", "Text.", window.ErrEmptyDocID},
		{"empty text", "d", "", window.ErrEmptyText},
		{"white space", "d", " \n\t ", window.ErrEmptyText},
		{"invalid utf-8", "d", "a\xffb.", window.ErrInvalidUTF8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := window.Sentences(tt.id, tt.text, nil)
			require.ErrorIs(t, err, tt.want)
			_, err = window.Chunks(tt.id, tt.text, c)
			require.ErrorIs(t, err, tt.want)
		})
	}
	_, err = window.Chunks("d", "Text.", nil)
	require.ErrorIs(t, err, window.ErrConfig)
}
