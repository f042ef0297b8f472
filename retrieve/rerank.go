package retrieve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/ragkit/ragkit/internal/parallel"
)

// DefaultRerankDepth is the number of passages a [Reranker] scores when
// Config.RerankDepth is zero (or Config.Passages, if that is larger): a
// pool a cross-encoder scores in one or two requests, deep enough for it
// to lift a passage the searches ranked low.
const DefaultRerankDepth = 20

// A Reranker scores texts by their relevance to a query, usually with a
// cross-encoder: one score per text, in the order of texts, higher more
// relevant. The scores compare within one call of one model; they need
// not lie in [0, 1] (a model's logits do not). It must stop when ctx is
// cancelled. openai.Reranker (package llm/openai) is one, for servers
// that answer POST /rerank (Hugging Face text-embeddings-inference, vLLM,
// llama.cpp's server, Jina and Cohere-compatible APIs).
//
// A Reranker that finds itself that it has the wrong number of scores (a
// server's reply of another length) may return an error with a method
// ScoreCount() (scores, texts int), as openai.Reranker's does: a
// [Retriever] then wraps it in [ErrReranker], as it does a slice of the
// wrong length.
type Reranker interface {
	Rerank(ctx context.Context, query string, texts []string) ([]float64, error)
}

// scoreCounter is the error of a Reranker that got the wrong number of
// scores (see [Reranker]).
type scoreCounter interface {
	error
	ScoreCount() (scores, texts int)
}

// rerank rescores the best RerankDepth passages of ps (ranked best
// first) with the Reranker and returns them ranked by its scores, each
// passage's Score the reranker's; the passages below them are dropped,
// as their scores would be of another kind. Ties are in document order.
func (r *Retriever) rerank(ctx context.Context, question string, ps []Passage) ([]Passage, error) {
	ps = ps[:min(len(ps), r.cfg.RerankDepth)]
	if len(ps) == 0 {
		return ps, nil
	}
	texts := make([]string, len(ps))
	for i, p := range ps {
		texts[i] = p.Text
	}
	batch := r.cfg.RerankBatch
	if batch == 0 {
		batch = len(texts)
	}
	scores := make([]float64, 0, len(texts))
	for lo := 0; lo < len(texts); lo += batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		part := texts[lo:min(lo+batch, len(texts))]
		got, err := parallel.Call(func() ([]float64, error) { return r.cfg.Reranker.Rerank(ctx, question, part) })
		var counted scoreCounter
		if errors.As(err, &counted) {
			scores, texts := counted.ScoreCount()
			return nil, fmt.Errorf("%w: retrieve: the reranker found %d scores for %d passages: %w", ErrReranker, scores, texts, err)
		}
		if err != nil {
			return nil, fmt.Errorf("retrieve: reranking passages %d to %d: %w", lo, lo+len(part)-1, err)
		}
		if len(got) != len(part) {
			return nil, fmt.Errorf("%w: retrieve: the reranker returned %d scores for %d passages", ErrReranker, len(got), len(part))
		}
		for i, s := range got {
			// A Passage's Score is a float32: 1e39 is finite as a
			// float64 and +Inf as the Score it becomes.
			if f := float64(float32(s)); math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("%w: retrieve: the reranker scored passage %d (%s) %v: scores must be finite", ErrReranker, lo+i, passageID(ps[lo+i]), s)
			}
		}
		scores = append(scores, got...)
	}
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(scores[b], scores[a]); c != 0 {
			return c
		}
		return inDocumentOrder(ps[a].DocID, ps[a].First, "", ps[b].DocID, ps[b].First, "")
	})
	out := make([]Passage, len(ps))
	for i, j := range order {
		out[i] = ps[j]
		out[i].Score = float32(scores[j])
	}
	return out, nil
}

// passageID names a passage in errors and items: "doc#3-5", or "doc#4"
// for one unit.
func passageID(p Passage) string {
	id := p.DocID + "#" + strconv.Itoa(p.First)
	if p.Last != p.First {
		id += "-" + strconv.Itoa(p.Last)
	}
	return id
}
