package equality

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/bert"
)

// EnvSpeed asks for TestSpeed, a measurement rather than a check:
//
//	RAGKIT_BERT_SPEED=1 RAGKIT_MINILM_DIR=... RAGKIT_LAT_EMBED_MODULES=... go test -run TestSpeed -v -timeout 0 ./equality/
const EnvSpeed = "RAGKIT_BERT_SPEED"

// passages returns up to n paragraphs of the shared corpora of 60 to 110
// tokens (about the 83 of the yardstick), in file order.
func passages(t *testing.T, m *bert.Model, n int) []string {
	files, err := filepath.Glob(filepath.Join(sharedDir(t), "corpora", "*.*"))
	require.NoError(t, err)
	sort.Strings(files)
	var out []string
	for _, f := range files {
		if filepath.Base(f) == "SOURCES.md" {
			continue
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, p := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n\n") {
			p = strings.TrimSpace(p)
			if c := m.Tokenizer().Count(p); c >= 60 && c <= 110 && len(out) < n {
				out = append(out, p)
			}
		}
	}
	return out
}

// TestSpeed embeds the same 100 passages with ragkit/bert and with the
// reference, alternating, three rounds each, and logs passages per second
// of each round and the ratio of the medians; it checks that the vectors
// agree as TestEquality does.
func TestSpeed(t *testing.T) {
	if os.Getenv(EnvSpeed) == "" {
		t.Skipf("%s not set: a measurement, run on request", EnvSpeed)
	}
	model, modules := setup(t)
	m, err := bert.Load(model, options)
	require.NoError(t, err)
	ps := passages(t, m, 100)
	require.NotEmpty(t, ps)
	tokens := 0
	for _, p := range ps {
		tokens += m.Tokenizer().Count(p) + 2
	}
	var ours, theirs []float64
	for round := range 3 {
		ref := reference(t, modules, model, ps)
		theirs = append(theirs, float64(len(ps))/(ref.EmbedMs/1000))
		start := time.Now()
		got, err := m.Embed(context.Background(), ps)
		require.NoError(t, err)
		ours = append(ours, float64(len(ps))/time.Since(start).Seconds())
		for i := range ps {
			require.GreaterOrEqual(t, cosine(got[i], ref.Vectors[i]), 0.9999, "passage %d", i)
		}
		t.Logf("round %d: ragkit/bert %.1f passages/s, reference %.1f passages/s", round+1, ours[round], theirs[round])
	}
	sort.Float64s(ours)
	sort.Float64s(theirs)
	t.Logf("%d passages, %.0f tokens each on average: medians ragkit/bert %.1f/s, reference %.1f/s (its worker threads, their start-up included), ratio %.1f",
		len(ps), float64(tokens)/float64(len(ps)), ours[1], theirs[1], ours[1]/theirs[1])
}
