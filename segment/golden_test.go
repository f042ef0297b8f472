package segment_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/segment"
)

var update = flag.Bool("update", false, "rewrite testdata/sentences.golden from the current segmenter")

// goldenConfigs are the configurations whose output on the corpora is
// pinned in testdata/sentences.golden.
var goldenConfigs = []struct {
	name string
	cfg  segment.Config
}{
	{"default", segment.Config{}},
	{"NewlineBreak", segment.Config{Newlines: segment.NewlineBreak}},
	{"NewlineSpace", segment.Config{Newlines: segment.NewlineSpace}},
	{"abbreviations", segment.Config{Abbreviations: []string{"approx", "Dept.", "Ph.D.", "chap", "Ch"}}},
	{"ar", segment.Config{Language: "ar"}},
	{"hy", segment.Config{Language: "hy"}},
	{"el", segment.Config{Language: "el"}},
	{"ru", segment.Config{Language: "ru"}},
	{"de", segment.Config{Language: "de"}},
	{"fr", segment.Config{Language: "fr"}},
	{"ja", segment.Config{Language: "ja"}},
	{"und", segment.Config{Language: "und"}},
}

// goldenTexts are the corpora, and variants of one that take other paths:
// lower-case text and CRLF line breaks.
func goldenTexts(t *testing.T) []struct{ name, text string } {
	var out []struct{ name, text string }
	for _, name := range []string{"room_with_a_view.txt", "sherlock_1661.txt", "romeo_and_juliet.txt", "commonmark_spec.md",
		testcorpus.RomeoNoBlankLines, "hashbrown_set_rs.txt", "github_flavored.md"} {
		out = append(out, struct{ name, text string }{name, testcorpus.Must(t, name)})
	}
	room := testcorpus.Must(t, "room_with_a_view.txt")
	out = append(out,
		struct{ name, text string }{"room_with_a_view.txt/lower", strings.ToLower(room)},
		struct{ name, text string }{"room_with_a_view.txt/crlf", strings.ReplaceAll(room, "\n", "\r\n")})
	return out
}

// spanDigest is the number of spans and a hash of their offsets.
func spanDigest(spans []segment.Span) string {
	h := sha256.New()
	var b [16]byte
	for _, s := range spans {
		binary.LittleEndian.PutUint64(b[:8], uint64(s.Start))
		binary.LittleEndian.PutUint64(b[8:], uint64(s.End))
		h.Write(b[:])
	}
	return fmt.Sprintf("%d %s", len(spans), hex.EncodeToString(h.Sum(nil)[:16]))
}

// TestSentencesGolden pins the sentences of the corpora in every
// configuration above, so that a change meant to make the segmenter
// faster cannot change what it returns. A change of the rules updates the
// file with -update, and the diff shows which texts it touched.
func TestSentencesGolden(t *testing.T) {
	var got []string
	for _, tc := range goldenTexts(t) {
		for _, c := range goldenConfigs {
			seg, err := segment.New(c.cfg)
			require.NoError(t, err)
			got = append(got, tc.name+" "+c.name+" "+spanDigest(seg.Sentences(tc.text)))
		}
	}
	const file = "testdata/sentences.golden"
	if *update {
		require.NoError(t, os.WriteFile(file, []byte(strings.Join(got, "\n")+"\n"), 0o644))
		return
	}
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	var want []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		want = append(want, sc.Text())
	}
	require.Equal(t, want, got)
}
