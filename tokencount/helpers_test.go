package tokencount

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/internal/testcorpus"
)

// checkEnds asserts the documented invariants of AppendTokenEnds: count
// ends, non-decreasing, within the text, the last one at its end.
func checkEnds(t testing.TB, text string, ends []int, count int) {
	t.Helper()
	require.Len(t, ends, count, "ends of %q", clip(text))
	prev := 0
	for i, e := range ends {
		require.True(t, prev <= e && e <= len(text), "end %d of %q is %d after %d (len %d)", i, clip(text), e, prev, len(text))
		prev = e
	}
	if count > 0 {
		require.Equal(t, len(text), ends[count-1], "last end of %q", clip(text))
	}
}

// clip shortens text for a failure message.
func clip(text string) string {
	if len(text) > 80 {
		return text[:80] + "..."
	}
	return text
}

func readCorpus(t testing.TB, name string) string {
	t.Helper()
	return testcorpus.Must(t, name)
}

func corpusNames(t testing.TB) []string {
	t.Helper()
	names, err := testcorpus.Names()
	require.NoError(t, err)
	require.NotEmpty(t, names)
	return names
}
