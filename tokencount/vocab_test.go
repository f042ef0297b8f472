package tokencount

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go-loader/assets"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/tokencount/internal/vocabhash"
)

// TestVocabMatchesLoader checks the generated vocabularies (ranks/, see
// internal/vocabgen) against tiktoken-go-loader's rank files, which
// tiktoken-go reads: every token is found with its rank and its UTF-8
// validity, the encoding has no other token, and the two-byte table
// agrees. Run go generate after updating the loader if this fails.
func TestVocabMatchesLoader(t *testing.T) {
	for _, name := range Encodings() {
		t.Run(name, func(t *testing.T) {
			b, err := encoding(name)
			require.NoError(t, err)
			data, err := assets.Assets.ReadFile(name + ".tiktoken")
			require.NoError(t, err)
			n := 0
			sc := bufio.NewScanner(bytes.NewReader(data))
			for sc.Scan() {
				b64, num, ok := strings.Cut(sc.Text(), " ")
				if !ok {
					continue
				}
				tok, err := base64.StdEncoding.DecodeString(b64)
				require.NoError(t, err)
				rank, err := strconv.Atoi(num)
				require.NoError(t, err)
				s := string(tok)
				w := vocabhash.Head(s)
				got, ok := b.vocab.find(s, w, vocabhash.Hash(s, w))
				require.True(t, ok, "%q (rank %d) not found", s, rank)
				want := uint32(rank)
				if !utf8.ValidString(s) {
					want |= partialUTF8
				}
				require.Equal(t, want, got, "rank of %q", s)
				if len(s) == 2 {
					require.Equal(t, uint32(rank), b.pairRank(s[0], s[1]))
				}
				n++
			}
			require.NoError(t, sc.Err())
			var all int
			b.vocab.all(func(string, uint32) { all++ })
			require.Equal(t, n, all, "tokens in the generated vocabulary")
		})
	}
}

// TestVocabMisses looks up strings that are not tokens, among them ones
// that share a token's first eight bytes, length or both.
func TestVocabMisses(t *testing.T) {
	b, err := encoding(Cl100kBase)
	require.NoError(t, err)
	for _, s := range []string{
		"", " the\x00", " thE", " informatio", " informationX",
		" information" + "\x00", strings.Repeat("a", 256), strings.Repeat("=", 129),
		" xqzjv", "thexyzzy",
	} {
		w := vocabhash.Head(s)
		_, ok := b.vocab.find(s, w, vocabhash.Hash(s, w))
		require.False(t, ok, "%q found", s)
		require.Equal(t, uint32(noRank), b.rank(s), "rank of %q", s)
	}
	for _, s := range []string{" the", " information", "\x00", "!"} {
		require.NotEqual(t, uint32(noRank), b.rank(s), "rank of %q", s)
	}
}

// TestHeadAt checks the head of a piece taken from within a text against
// the head of the piece alone, near the text's end too.
func TestHeadAt(t *testing.T) {
	const text = "abcdefghijklmnopq"
	for i := 0; i <= len(text); i++ {
		for j := i; j <= len(text); j++ {
			require.Equal(t, vocabhash.Head(text[i:j]), headAt(text, i, j), "text[%d:%d]", i, j)
		}
	}
}
