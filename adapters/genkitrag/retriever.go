package genkitrag

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/core"
	"github.com/firebase/genkit/go/genkit"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/vectorstore"
)

// RetrieverOptions are the options of a retrieval request
// (ai.RetrieverRequest.Options, or ai.WithConfig with genkit.Retrieve): a
// *RetrieverOptions, a RetrieverOptions, or the same as a JSON object (as the
// Genkit developer UI sends it). Nil means the defaults.
type RetrieverOptions struct {
	// K is how many documents to return; zero means Config.K.
	K int `json:"k,omitempty"`
	// ScoreThreshold, if set, keeps the documents whose cosine similarity
	// to the query is at least this, in [-1, 1].
	ScoreThreshold *float64 `json:"scoreThreshold,omitempty"`
	// Filter keeps the documents it matches, mapped by meta.Filter
	// (values held exactly, lists, $in, $gt, $gte, $lt and $lte;
	// meta.DocIDKey selects documents). On a passage retriever it narrows
	// the Retriever's own filter (meta.Combine).
	Filter map[string]any `json:"filter,omitempty"`
}

// NewRetriever returns a Genkit retriever named name over cfg.Store, not
// registered anywhere: a vector search by cosine similarity, best first, each
// document its record's text with metadata by meta.FromHit. An empty name,
// a missing Store or Embedder, or a negative K gives an error wrapping
// [ErrConfig].
//
// Genkit checks the request's options against the JSON schema of
// [RetrieverOptions] before the retriever runs, and refuses options of
// another shape. The request's query is its text parts, joined; a query with
// other parts, a threshold outside
// [-1, 1] and a filter that meta.Filter refuses give an error wrapping
// meta.ErrUnsupported. A negative K is refused by the store
// (vectorstore.ErrInvalidArgument).
func NewRetriever(name string, cfg Config) (ai.Retriever, error) {
	fn, err := retrieveFunc(name, cfg)
	if err != nil {
		return nil, err
	}
	return ai.NewRetriever(name, retrieverOptions(name), fn), nil
}

// DefineRetriever is [NewRetriever], registered in g under name, so that
// genkit.Retrieve, genkit.LookupRetriever and Genkit's tools find it.
func DefineRetriever(g *genkit.Genkit, name string, cfg Config) (ai.Retriever, error) {
	fn, err := retrieveFunc(name, cfg)
	if err != nil {
		return nil, err
	}
	return genkit.DefineRetriever(g, name, retrieverOptions(name), fn), nil
}

func retrieverOptions(name string) *ai.RetrieverOptions {
	return &ai.RetrieverOptions{Label: name, ConfigSchema: core.InferSchemaMap(RetrieverOptions{})}
}

func retrieveFunc(name string, cfg Config) (ai.RetrieverFunc, error) {
	if name == "" {
		return nil, fmt.Errorf("%w: name is empty: a Genkit action needs one", ErrConfig)
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.K == 0 {
		cfg.K = DefaultK
	}
	return func(ctx context.Context, req *ai.RetrieverRequest) (*ai.RetrieverResponse, error) {
		return retrieveStore(ctx, cfg, req)
	}, nil
}

func retrieveStore(ctx context.Context, cfg Config, req *ai.RetrieverRequest) (*ai.RetrieverResponse, error) {
	opts, filter, query, err := parseRequest(req)
	if err != nil {
		return nil, err
	}
	if opts.K == 0 {
		opts.K = cfg.K
	}
	if opts.ScoreThreshold != nil {
		if err := meta.CheckThreshold(meta.Cosine, *opts.ScoreThreshold); err != nil {
			return nil, err
		}
	}
	vs, err := embed(ctx, cfg.Embedder, []string{query})
	if err != nil {
		return nil, err
	}
	hits, err := cfg.Store.Query(ctx, vs[0], opts.K, filter)
	if err != nil {
		return nil, err
	}
	resp := &ai.RetrieverResponse{Documents: make([]*ai.Document, 0, len(hits))}
	for _, h := range hits {
		if opts.ScoreThreshold != nil && float64(h.Score) < *opts.ScoreThreshold {
			break // hits come best first
		}
		resp.Documents = append(resp.Documents, ai.DocumentFromText(h.Text, meta.FromHit(h, meta.Cosine)))
	}
	return resp, nil
}

// parseRequest reads a retrieval request: its options, their filter and
// the query's text.
func parseRequest(req *ai.RetrieverRequest) (RetrieverOptions, vectorstore.Filter, string, error) {
	opts, err := options(req.Options)
	if err != nil {
		return opts, vectorstore.Filter{}, "", err
	}
	filter, err := meta.Filter(opts.Filter)
	if err != nil {
		return opts, filter, "", err
	}
	query, err := text(req.Query)
	return opts, filter, query, err
}

// options reads a request's options.
func options(v any) (RetrieverOptions, error) {
	switch o := v.(type) {
	case nil:
		return RetrieverOptions{}, nil
	case *RetrieverOptions:
		if o == nil {
			return RetrieverOptions{}, nil
		}
		return *o, nil
	case RetrieverOptions:
		return o, nil
	case map[string]any:
		b, err := json.Marshal(o)
		if err != nil {
			return RetrieverOptions{}, fmt.Errorf("%w: options: %v", meta.ErrUnsupported, err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		dec.UseNumber()
		var out RetrieverOptions
		if err := dec.Decode(&out); err != nil {
			return RetrieverOptions{}, fmt.Errorf("%w: options: %v", meta.ErrUnsupported, err)
		}
		return out, nil
	}
	return RetrieverOptions{}, fmt.Errorf("%w: options of type %T: give a *genkitrag.RetrieverOptions", meta.ErrUnsupported, v)
}
