package genkitrag

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/core"
	"github.com/firebase/genkit/go/genkit"
	"github.com/ragkit/ragkit/adapters/internal/query"
	"github.com/ragkit/ragkit/adapters/internal/split"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
)

// ErrConfig reports a configuration that a constructor refused.
var ErrConfig = errors.New("genkitrag: invalid configuration")

// DefaultK is how many documents a retriever returns when neither its
// Config nor the request's options set K.
const DefaultK = 4

// Config configures a retriever and an [Indexer].
type Config struct {
	// Store holds the records. Required.
	Store vectorstore.VectorStore
	// Embedder embeds documents and queries. Required.
	Embedder vectorstore.Embedder
	// DocIDKey is the metadata key of a document's ID when its metadata
	// has no meta.DocIDKey (see meta.ToRecord); empty means none.
	DocIDKey string
	// K is how many documents a retriever returns unless the request's
	// options set K. Zero means [DefaultK]; negative is an error.
	K int
}

func (c Config) check() error {
	return query.CheckStore(ErrConfig, c.Store, c.Embedder, "K", c.K)
}

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
	// Filter keeps the documents whose metadata holds each key with
	// exactly its value (meta.DocIDKey selects documents), mapped by
	// meta.Filter.
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

// textAt returns the text of docs[i] (see text), or an error naming i.
func textAt(i int, d *ai.Document) (string, error) {
	t, err := text(d)
	if err != nil {
		return "", fmt.Errorf("genkitrag: document %d: %w", i, err)
	}
	return t, nil
}

// text returns a document's text: its text parts, joined.
func text(d *ai.Document) (string, error) {
	if d == nil {
		return "", fmt.Errorf("%w: a nil document", meta.ErrUnsupported)
	}
	var b strings.Builder
	for i, p := range d.Content {
		if p == nil || p.Kind != ai.PartText {
			return "", fmt.Errorf("%w: part %d is not text", meta.ErrUnsupported, i)
		}
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// embed embeds texts with e and checks the count.
func embed(ctx context.Context, e vectorstore.Embedder, texts []string) ([][]float32, error) {
	vs, err := e.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", meta.ErrEmbedding, len(vs), len(texts))
	}
	return vs, nil
}

// Indexer writes Genkit documents into a ragkit store. It is safe for
// concurrent use if its store and embedder are.
type Indexer struct {
	cfg Config
}

// NewIndexer returns an Indexer configured by cfg (its K is not used); a
// missing Store or Embedder gives an error wrapping [ErrConfig].
func NewIndexer(cfg Config) (*Indexer, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &Indexer{cfg: cfg}, nil
}

// Index embeds docs in one call (each its meta.EmbedTextKey if it has one,
// else its text) and upserts them as records made by meta.ToRecord and
// numbered by meta.Number. A document whose metadata names its ID, document
// and place (as the records a retriever returns do) is stored under them, so
// writing it again replaces it. A nil document or one with parts other than text, and metadata that
// meta.ToRecord refuses, give an error wrapping meta.ErrUnsupported naming
// the document's position; the store's errors are returned as they are.
func (x *Indexer) Index(ctx context.Context, docs []*ai.Document) error {
	units := make([]meta.Unit, len(docs))
	texts := make([]string, len(docs))
	for i, d := range docs {
		t, err := textAt(i, d)
		if err != nil {
			return err
		}
		if units[i], err = meta.ToRecord(t, d.Metadata, x.cfg.DocIDKey); err != nil {
			return fmt.Errorf("genkitrag: document %d: %w", i, err)
		}
		texts[i] = units[i].EmbedText
	}
	if len(docs) == 0 {
		return nil
	}
	meta.Number(units)
	vs, err := embed(ctx, x.cfg.Embedder, texts)
	if err != nil {
		return err
	}
	records := make([]vectorstore.Record, len(units))
	for i, u := range units {
		records[i] = u.Record
		records[i].Vector = vs[i]
	}
	return x.cfg.Store.Upsert(ctx, records...)
}

// NewEmbedder returns e as a Genkit embedder named name, not registered
// anywhere (register it with genkit.RegisterAction, or use it directly). Each
// input document is embedded as its text parts, joined; other parts give an
// error wrapping meta.ErrUnsupported. An empty name gives an error wrapping
// [ErrConfig].
func NewEmbedder(name string, e vectorstore.Embedder) (ai.Embedder, error) {
	if name == "" {
		return nil, fmt.Errorf("%w: name is empty: a Genkit action needs one", ErrConfig)
	}
	if e == nil {
		return nil, fmt.Errorf("%w: Embedder is nil: it is required", ErrConfig)
	}
	return ai.NewEmbedder(name, &ai.EmbedderOptions{Label: name}, func(ctx context.Context, req *ai.EmbedRequest) (*ai.EmbedResponse, error) {
		texts := make([]string, len(req.Input))
		for i, d := range req.Input {
			var err error
			if texts[i], err = textAt(i, d); err != nil {
				return nil, err
			}
		}
		vs, err := embed(ctx, e, texts)
		if err != nil {
			return nil, err
		}
		resp := &ai.EmbedResponse{Embeddings: make([]*ai.Embedding, len(vs))}
		for i, v := range vs {
			resp.Embeddings[i] = &ai.Embedding{Embedding: v}
		}
		return resp, nil
	}), nil
}

// RagkitEmbedder returns a Genkit embedder as a vectorstore.Embedder: each
// text goes in as a document of one text part, with options as the
// request's Options (nil for the embedder's defaults). A response with a
// number of embeddings other than of texts gives an error wrapping
// meta.ErrEmbedding.
func RagkitEmbedder(e ai.Embedder, options any) vectorstore.Embedder {
	return ragkitEmbedder{e: e, options: options}
}

type ragkitEmbedder struct {
	e       ai.Embedder
	options any
}

func (e ragkitEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	req := &ai.EmbedRequest{Input: make([]*ai.Document, len(texts)), Options: e.options}
	for i, t := range texts {
		req.Input[i] = ai.DocumentFromText(t, nil)
	}
	resp, err := e.e.Embed(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp == nil || len(resp.Embeddings) != len(texts) {
		n := 0
		if resp != nil {
			n = len(resp.Embeddings)
		}
		return nil, fmt.Errorf("%w: %d embeddings for %d texts", meta.ErrEmbedding, n, len(texts))
	}
	out := make([][]float32, len(texts))
	for i, emb := range resp.Embeddings {
		if emb == nil {
			return nil, fmt.Errorf("%w: embedding %d is nil", meta.ErrEmbedding, i)
		}
		out[i] = emb.Embedding
	}
	return out, nil
}

// Passages converts retrieved Genkit documents back into ragkit passages,
// each with the score under its meta.ScoreKey (0 if it has none), by
// meta.ToPassage: what a retriever of this package returns becomes what it
// was, ready for retrieve.Items with its Citation labels and the budget, and
// a store's hit for ragkit's windows (Passage.Hits). A nil document, one with
// parts other than text, or one meta.ToPassage refuses gives an error naming
// its position.
func Passages(docs []*ai.Document) ([]retrieve.Passage, error) {
	ps := make([]retrieve.Passage, len(docs))
	for i, d := range docs {
		t, err := textAt(i, d)
		if err != nil {
			return nil, err
		}
		var score float32
		switch s := d.Metadata[meta.ScoreKey].(type) {
		case float64:
			score = float32(s)
		case json.Number:
			f, _ := s.Float64()
			score = float32(f)
		}
		if ps[i], err = meta.ToPassage(t, d.Metadata, "", score); err != nil {
			return nil, fmt.Errorf("genkitrag: document %d: %w", i, err)
		}
	}
	return ps, nil
}

// SplitterConfig configures a [Splitter].
type SplitterConfig struct {
	// Chunker cuts the documents' text. Required.
	Chunker *chunker.Chunker
	// Decorator, if set, gives each chunk a contextual header: the header
	// goes under vectorstore.KeywordsKey and the header with the chunk
	// under meta.EmbedTextKey, which an [Indexer] embeds instead of the
	// chunk's text. Nil means no headers.
	Decorator *contextheader.Decorator
	// DocIDKey is the metadata key of a document's ID when its metadata
	// has no meta.DocIDKey; empty means none (see meta.DocID).
	DocIDKey string
}

// Splitter cuts Genkit documents into chunks with ragkit's chunker. Genkit
// for Go has no splitter interface of its own (its samples borrow
// langchaingo's), so this is a plain method, like its plugins' Index. It is
// safe for concurrent use.
type Splitter struct {
	cfg SplitterConfig
}

// NewSplitter returns a Splitter configured by cfg; a nil Chunker gives an
// error wrapping [ErrConfig].
func NewSplitter(cfg SplitterConfig) (*Splitter, error) {
	if cfg.Chunker == nil {
		return nil, fmt.Errorf("%w: Chunker is nil: it is required", ErrConfig)
	}
	return &Splitter{cfg: cfg}, nil
}

// Split cuts each document's text (its text parts, joined) into chunks, one
// document of one text part each, in order. A chunk's metadata is a copy of
// its document's with meta.DocIDKey, meta.IndexKey, meta.StartKey and
// meta.EndKey (byte offsets into the text), meta.TokensKey (its exact count),
// window.GapKey and document.SectionKey, and with a Decorator
// vectorstore.KeywordsKey and meta.EmbedTextKey; an [Indexer] stores them as
// the record's fields. A nil document, one with other parts, or a chunker's
// or Decorator's error fails the call with the document's position; a
// cancelled ctx stops it between documents.
func (s *Splitter) Split(ctx context.Context, docs []*ai.Document) ([]*ai.Document, error) {
	var out []*ai.Document
	for i, d := range docs {
		t, err := textAt(i, d)
		if err != nil {
			return nil, err
		}
		pieces, err := split.Split(ctx, s.cfg.Chunker, s.cfg.Decorator, s.cfg.DocIDKey, split.Doc{Text: t, Metadata: d.Metadata})
		if err != nil {
			return nil, fmt.Errorf("genkitrag: document %d: %w", i, err)
		}
		for _, p := range pieces {
			out = append(out, ai.DocumentFromText(p.Text, p.Metadata))
		}
	}
	return out, nil
}
