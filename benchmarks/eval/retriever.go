package eval

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/window"
)

// A RetrieverSetting is what [RetrieverMethods] varies of a
// retrieve.Config: the search, the fusion (its zero value is the
// Retriever's default) and the depth (0 is retrieve.DefaultDepth).
type RetrieverSetting struct {
	Search retrieve.Search
	Fusion retrieve.FusionConfig
	Depth  int
	// Rerank, if true, reranks the passages with [BM25Reranker], a
	// deterministic offline stand-in for a cross-encoder: it measures
	// the plumbing and the effect of reranking by a second scorer, not
	// what a reranking model gains.
	Rerank bool
	// Diversity is the Retriever's (zero: none).
	Diversity retrieve.Diversity
}

// suffix names s in a method's name: "+hybrid", "+hybrid(w1:3)",
// "+vector(d20)".
func (s RetrieverSetting) suffix() string {
	name := "+" + strings.ToLower(s.Search.String())
	var opts []string
	if s.Fusion.Weights != nil && s.Search == retrieve.Hybrid {
		w := make([]string, len(s.Fusion.Weights))
		for i, x := range s.Fusion.Weights {
			w[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		opts = append(opts, "w"+strings.Join(w, ":"))
	}
	if s.Fusion.Method != retrieve.Reciprocal && s.Search == retrieve.Hybrid {
		opts = append(opts, strings.ToLower(s.Fusion.Method.String()))
	}
	if s.Fusion.K != 0 && s.Search == retrieve.Hybrid {
		opts = append(opts, "k"+strconv.Itoa(s.Fusion.K))
	}
	if s.Depth > 0 {
		opts = append(opts, "d"+strconv.Itoa(s.Depth))
	}
	if s.Rerank {
		opts = append(opts, "bm25rerank")
	}
	if s.Diversity.Lambda != 0 {
		opts = append(opts, "mmr"+strconv.FormatFloat(s.Diversity.Lambda, 'g', -1, 64))
	}
	if s.Diversity.PerDocument != 0 {
		opts = append(opts, "perdoc"+strconv.Itoa(s.Diversity.PerDocument))
	}
	if len(opts) > 0 {
		name += "(" + strings.Join(opts, ",") + ")"
	}
	return name
}

// Retrieved returns a method that answers through a retrieve.Retriever
// over the index's store: the units of base, the Retriever configured by
// s with k passages and the widener that widen makes for the index (nil:
// each hit a passage), asked with the question's text and vector
// (RetrieveVector, so nothing is embedded twice). Its ContextTokens is
// contextTokens. It is named "retriever-" + name + s's suffix.
func Retrieved(name string, base Method, widen func(ix *Index, k int) (retrieve.Widener, error), s RetrieverSetting, contextTokens int) Method {
	return Method{
		Name:          "retriever-" + name + s.suffix(),
		Units:         base.Units,
		ContextTokens: contextTokens,
		Ask: func(ctx context.Context, ix *Index, q Query, k int) ([]Span, error) {
			var w retrieve.Widener
			if widen != nil {
				var err error
				if w, err = widen(ix, k); err != nil {
					return nil, err
				}
			}
			cfg := retrieve.Config{Store: ix.Store, Embedder: ix.Embedder, Search: s.Search,
				Fusion: s.Fusion, Depth: s.Depth, Passages: k, Widener: w, Diversity: s.Diversity}
			if s.Rerank {
				cfg.Reranker = BM25Reranker{}
			}
			r, err := retrieve.New(cfg)
			if err != nil {
				return nil, err
			}
			ps, err := r.RetrieveVector(ctx, q.Text, q.Vector)
			if err != nil {
				return nil, err
			}
			spans := make([]Span, len(ps))
			for i, p := range ps {
				spans[i] = Span{DocID: p.DocID, Start: p.Start, End: p.End}
			}
			return spans, nil
		},
	}
}

// RetrieverMethods returns, for each size n and each setting, chunks,
// sentence windows and segments through a retrieve.Retriever, all at the
// budget of k chunks of n tokens (ContextTokens k·n, or contextTokens if
// positive, to compare different k at equal tokens): balanced chunks of n
// tokens, each hit a passage ("retriever-chunks-<n>"); sentence units
// widened by window.Expander up to 8 sentences a side within n tokens
// ("retriever-windows-<n>"); sentence units and window.Extractor
// (Balanced) within k·n tokens in all ("retriever-segments-<n>").
func RetrieverMethods(tok tokencount.Tokenizer, sizes []int, k, contextTokens int, settings []RetrieverSetting) []Method {
	var out []Method
	for _, n := range sizes {
		budget := k * n
		if contextTokens > 0 {
			budget = contextTokens
		}
		chunks := Balanced(tok, n)
		sentences := Method{Units: sentenceUnits}
		windows := func(ix *Index, _ int) (retrieve.Widener, error) {
			return window.NewExpander(window.ExpanderConfig{Size: 8, Tokenizer: tok, MaxTokens: n})
		}
		segments := func(ix *Index, k int) (retrieve.Widener, error) {
			return window.NewExtractor(window.ExtractorConfig{Preset: window.Balanced, Tokenizer: tok, MaxTotalTokens: k * n})
		}
		for _, s := range settings {
			out = append(out,
				Retrieved(fmt.Sprintf("chunks-%d", n), chunks, nil, s, budget),
				Retrieved(fmt.Sprintf("windows-%d", n), sentences, windows, s, budget),
				Retrieved(fmt.Sprintf("segments-%d", n), sentences, segments, s, budget))
		}
	}
	return out
}

// BM25Reranker is a deterministic offline stand-in for a reranking
// model: it scores each text by Okapi BM25 (k1 = 1.2, b = 0.75) for the
// query's words, with the document frequencies and lengths of the texts
// of the call, words being lower-cased runs of letters and digits. It
// lets the evaluation measure reranking without a model; its figures are
// not those of a cross-encoder.
type BM25Reranker struct{}

// Rerank implements retrieve.Reranker.
func (BM25Reranker) Rerank(ctx context.Context, query string, texts []string) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	docs := make([]map[string]int, len(texts))
	lens := make([]int, len(texts))
	df := map[string]int{}
	total := 0
	for i, t := range texts {
		docs[i] = map[string]int{}
		for _, w := range words(t) {
			if docs[i][w] == 0 {
				df[w]++
			}
			docs[i][w]++
			lens[i]++
		}
		total += lens[i]
	}
	avg := max(1, float64(total)/float64(max(1, len(texts))))
	n := float64(len(texts))
	scores := make([]float64, len(texts))
	seen := map[string]bool{}
	for _, w := range words(query) {
		if seen[w] || df[w] == 0 {
			continue
		}
		seen[w] = true
		idf := math.Log(1 + (n-float64(df[w])+0.5)/(float64(df[w])+0.5))
		for i, d := range docs {
			if tf := float64(d[w]); tf > 0 {
				scores[i] += idf * tf * 2.2 / (tf + 1.2*(0.25+0.75*float64(lens[i])/avg))
			}
		}
	}
	return scores, nil
}

func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
