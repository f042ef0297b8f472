package genkitrag

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/ragkit/ragkit/adapters/internal/query"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/retrieve"
)

// NewPassageRetriever returns a ragkit retrieve.Retriever as a Genkit
// retriever named name, not registered anywhere: the whole of ragkit's query
// side (hybrid search, fusion, filters, sentence windows or segments) as one
// Genkit action. Each document is a passage's text with metadata by
// meta.FromPassage (its score under meta.ScoreKey, and under
// meta.ScoreKindKey what the score is: fused for a Hybrid search).
//
// The request's [RetrieverOptions]: K runs the Retriever with that many
// passages; Filter with that filter and the Retriever's own together (their
// intersection, by meta.Combine: a request's filter narrows the Retriever's
// and never widens or replaces it); ScoreThreshold keeps passages scoring at least that, for a
// Vector search only (on fused or keyword scores it is an error wrapping
// meta.ErrUnsupported). An empty name or a nil Retriever gives an error
// wrapping [ErrConfig].
func NewPassageRetriever(name string, r *retrieve.Retriever) (ai.Retriever, error) {
	fn, err := passageFunc(name, r)
	if err != nil {
		return nil, err
	}
	return ai.NewRetriever(name, retrieverOptions(name), fn), nil
}

// DefinePassageRetriever is [NewPassageRetriever], registered in g under
// name.
func DefinePassageRetriever(g *genkit.Genkit, name string, r *retrieve.Retriever) (ai.Retriever, error) {
	fn, err := passageFunc(name, r)
	if err != nil {
		return nil, err
	}
	return genkit.DefineRetriever(g, name, retrieverOptions(name), fn), nil
}

func passageFunc(name string, r *retrieve.Retriever) (ai.RetrieverFunc, error) {
	if name == "" {
		return nil, fmt.Errorf("%w: name is empty: a Genkit action needs one", ErrConfig)
	}
	if r == nil {
		return nil, fmt.Errorf("%w: Retriever is nil: it is required", ErrConfig)
	}
	return func(ctx context.Context, req *ai.RetrieverRequest) (*ai.RetrieverResponse, error) {
		opts, filter, question, err := parseRequest(req)
		if err != nil {
			return nil, err
		}
		ps, kind, err := query.Run(ctx, r, question, query.Options{K: opts.K, Filter: filter, Threshold: opts.ScoreThreshold})
		if err != nil {
			return nil, err
		}
		resp := &ai.RetrieverResponse{Documents: make([]*ai.Document, len(ps))}
		for i, p := range ps {
			resp.Documents[i] = ai.DocumentFromText(p.Text, meta.FromPassage(p, kind))
		}
		return resp, nil
	}, nil
}

// Passages converts retrieved Genkit documents back into ragkit passages,
// each with the score under its meta.ScoreKey (0 if it has none), by
// meta.ToPassage: what a retriever of this package returns becomes what it
// was, ready for retrieve.Items with its Citation labels and the budget, and
// a store's hit for ragkit's windows (Passage.Hits). A nil document, one with
// parts other than text, one whose score meta.Score32 refuses (not a finite
// float32) or one meta.ToPassage refuses gives an error naming its position.
func Passages(docs []*ai.Document) ([]retrieve.Passage, error) {
	ps := make([]retrieve.Passage, len(docs))
	for i, d := range docs {
		t, err := textAt(i, d)
		if err != nil {
			return nil, err
		}
		var score float64
		switch s := d.Metadata[meta.ScoreKey].(type) {
		case float64:
			score = s
		case json.Number:
			score, _ = s.Float64()
		}
		score32, err := meta.Score32(score)
		if err != nil {
			return nil, fmt.Errorf("genkitrag: document %d: %w", i, err)
		}
		if ps[i], err = meta.ToPassage(t, d.Metadata, "", score32); err != nil {
			return nil, fmt.Errorf("genkitrag: document %d: %w", i, err)
		}
	}
	return ps, nil
}
