package stem_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/internal/stem"
)

// TestEnglishGolden compares with testdata/english.tsv: 13,088 words and
// the stems that three other implementations agree on (see its README).
func TestEnglishGolden(t *testing.T) {
	f, err := os.Open("testdata/english.tsv")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		word, want, ok := strings.Cut(sc.Text(), "\t")
		require.True(t, ok)
		require.Equal(t, want, stem.English(word), "word %q", word)
		n++
	}
	require.NoError(t, sc.Err())
	require.Greater(t, n, 10000)
}

func TestEnglish(t *testing.T) {
	for word, want := range map[string]string{
		"expects": "expect", "expected": "expect", "expecting": "expect",
		"speakers": "speaker", "speaking": "speak", "generously": "generous",
		"communism": "communism", "arsenal": "arsenal", "skies": "sky", "dying": "die",
		"news": "news", "proceed": "proceed", "cries": "cri", "ties": "tie",
		"hopping": "hop", "hoped": "hope", "yes": "yes", "ox": "ox",
		"Running": "Running", "naïve": "naïve", "": "",
	} {
		require.Equal(t, want, stem.English(word), "word %q", word)
	}
}

func FuzzEnglish(f *testing.F) {
	for _, s := range []string{"expects", "'s'", "yyyy", "generalization", "ied", "eedly", "a'b'c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, word string) {
		got := stem.English(word)
		require.LessOrEqual(t, len(got), len(word), "a stem is never longer than its word")
		for i := 0; i < len(word); i++ {
			if c := word[i]; (c < 'a' || c > 'z') && c != '\'' {
				require.Equal(t, word, got, "a word that is not lower-case ASCII is kept")
				return
			}
		}
		require.Equal(t, strings.ToLower(got), got)
	})
}

func BenchmarkEnglish(b *testing.B) {
	words := strings.Fields("the speakers expected generous communities to be organizing their nationalization hopefully")
	n := 0
	for _, w := range words {
		n += len(w)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, w := range words {
			stem.English(w)
		}
	}
}
