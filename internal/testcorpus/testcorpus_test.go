package testcorpus_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/internal/testcorpus"
)

func TestDerived(t *testing.T) {
	romeo := testcorpus.Must(t, "romeo_and_juliet.txt")
	noBlank := testcorpus.Must(t, testcorpus.RomeoNoBlankLines)
	body, end, ok := strings.Cut(noBlank, "\n\n\n")
	require.True(t, ok)
	require.Equal(t, "THE END.", end)
	require.NotContains(t, body, "\n\n")
	require.Equal(t, strings.Join(strings.Fields(romeo), " "), strings.Join(strings.Fields(body), " "))

	distant := testcorpus.Must(t, testcorpus.DistantParagraph)
	require.Equal(t, 92009, len(distant))
	require.Equal(t, strings.LastIndex(distant, "\n\n"), strings.Index(distant, "\n\n"))
}

func TestNames(t *testing.T) {
	names, err := testcorpus.Names()
	require.NoError(t, err)
	require.Contains(t, names, "room_with_a_view.txt")
	require.Contains(t, names, testcorpus.DistantParagraph)
	for _, n := range names {
		_, err := testcorpus.Load(n)
		require.NoError(t, err, n)
	}
}
