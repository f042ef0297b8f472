package tokencount

import (
	"sync"
	"testing"
	"unicode/utf8"

	tiktoken "github.com/pkoukk/tiktoken-go"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/internal/testcorpus"
)

var (
	refMu   sync.Mutex
	refEncs = map[string]*tiktoken.Tiktoken{}
)

// reference returns tiktoken-go's encoder, built once per test binary.
func reference(t testing.TB, name string) *tiktoken.Tiktoken {
	t.Helper()
	refMu.Lock()
	defer refMu.Unlock()
	if enc, ok := refEncs[name]; ok {
		return enc
	}
	if _, err := Reference(name); err != nil { // installs the offline loader
		t.Fatal(err)
	}
	enc, err := tiktoken.GetEncoding(name)
	require.NoError(t, err)
	refEncs[name] = enc
	return enc
}

// referenceEnds returns tiktoken-go's token count of text and, for valid
// UTF-8, the end offset of each token, from the byte length of each
// decoded token.
func referenceEnds(t testing.TB, name, text string) (int, []int) {
	enc := reference(t, name)
	ids := enc.EncodeOrdinary(text)
	if !utf8.ValidString(text) {
		return len(ids), nil
	}
	ends := make([]int, len(ids))
	off := 0
	for i, id := range ids {
		off += len(enc.Decode([]int{id}))
		ends[i] = off
	}
	return len(ids), ends
}

// checkAgainstReference asserts that Count and AppendTokenEnds agree with
// tiktoken-go on text.
func checkAgainstReference(t testing.TB, name, text string) {
	t.Helper()
	b, err := encoding(name)
	require.NoError(t, err)
	want, wantEnds := referenceEnds(t, name, text)
	if got := b.Count(text); got != want {
		t.Fatalf("%s: Count(%q) = %d, tiktoken-go says %d", name, clip(text), got, want)
	}
	ends := b.AppendTokenEnds(nil, text)
	checkEnds(t, text, ends, want)
	if wantEnds != nil && len(ends) > 0 {
		require.Equal(t, wantEnds, ends, "%s: token ends of %q", name, clip(text))
	}
}

// checkEnds asserts the documented invariants of AppendTokenEnds.
func checkEnds(t testing.TB, text string, ends []int, count int) {
	t.Helper()
	if len(ends) != count {
		t.Fatalf("AppendTokenEnds(%q) gave %d ends, Count says %d", clip(text), len(ends), count)
	}
	prev := 0
	for i, e := range ends {
		if e < prev || e > len(text) {
			t.Fatalf("end %d of %q is %d after %d (len %d)", i, clip(text), e, prev, len(text))
		}
		prev = e
	}
	if count > 0 && ends[count-1] != len(text) {
		t.Fatalf("last end of %q is %d, want %d", clip(text), ends[count-1], len(text))
	}
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
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

// TestCorporaMatchTiktokenGo is the differential test over every corpus
// and encoding: the count and every token end must match tiktoken-go.
func TestCorporaMatchTiktokenGo(t *testing.T) {
	for _, corpus := range corpusNames(t) {
		text := readCorpus(t, corpus)
		for _, name := range Encodings() {
			t.Run(corpus+"/"+name, func(t *testing.T) {
				t.Parallel()
				checkAgainstReference(t, name, text)
			})
		}
	}
}

// TestPartialUTF8Tokens counts, alone and between other text, every token
// of every encoding whose bytes are not valid UTF-8 (a character cut in
// two). Such a token is never matched whole: tiktoken-go reads the invalid
// bytes of the text as U+FFFD before it looks the piece up.
func TestPartialUTF8Tokens(t *testing.T) {
	for _, name := range Encodings() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b, err := encoding(name)
			require.NoError(t, err)
			n := 0
			for tok := range b.ranks {
				if utf8.ValidString(tok) {
					continue
				}
				n++
				checkAgainstReference(t, name, tok)
				checkAgainstReference(t, name, "a "+tok+"b\n")
			}
			require.NotZero(t, n, "no token of %s is partial UTF-8", name)
			t.Logf("%s: %d tokens are not valid UTF-8", name, n)
		})
	}
}
