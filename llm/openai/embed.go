package openai

import (
	"cmp"
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/ragkit/ragkit/tokencount"
)

// Defaults used for the zero values of [EmbedderConfig]'s fields, stated
// on each field and reported by [Embedder.Config].
const (
	defaultBatchSize     = 256
	defaultBatchTokens   = 100_000
	defaultMaxTextTokens = 8191 // text-embedding-3-small, -large, ada-002
	defaultConcurrency   = 4
)

// MaxDimensions is the longest vector an [Embedder] accepts, as in
// vectorstore.MaxDimension. It also bounds the body of an embeddings
// response read into memory: at most bytesPerNumber bytes of JSON per
// dimension of each text's vector (Dimensions if set, else
// MaxDimensions), plus a little for the rest.
const MaxDimensions = 1 << 16

// The room an embeddings response may take: bytesPerNumber per number of
// a vector (a float written with all its digits, and its separator),
// bytesPerItem for the rest of each entry, bytesPerBody for the rest.
const (
	bytesPerNumber = 32
	bytesPerItem   = 1 << 10
	bytesPerBody   = 64 << 10
)

// bodyLimit is the longest embeddings response accepted for n texts.
func (e *Embedder) bodyLimit(n int) int64 {
	dim := int64(cmp.Or(e.cfg.Dimensions, MaxDimensions))
	return int64(n)*(dim*bytesPerNumber+bytesPerItem) + bytesPerBody
}

// EmbedderConfig configures an [Embedder]. Only Model is required.
type EmbedderConfig struct {
	// Client sends the requests; nil means New(Config{}): OpenAI, or
	// whatever $OPENAI_BASE_URL names, with $OPENAI_API_KEY.
	Client *Client
	// Model names the embedding model, such as "text-embedding-3-small"
	// or "nomic-embed-text"; required.
	Model string
	// Dimensions asks for shorter vectors (OpenAI's text-embedding-3
	// models); zero leaves the model's own length. Vectors of another
	// length are an error.
	Dimensions int
	// BatchSize is the most texts one request carries; zero means 256,
	// well under OpenAI's 2,048. Lower it for a server that takes fewer.
	BatchSize int
	// BatchTokens is the most input tokens one request carries, summed
	// over its texts; zero means 100,000, a third of OpenAI's 300,000 per
	// request, leaving room for a Tokenizer that is not the model's.
	BatchTokens int
	// MaxTextTokens is the model's input limit for one text; zero means
	// 8,191, the limit of OpenAI's embedding models. Set it to your model's window: a text longer
	// than this (or than BatchTokens) is an error, never cut. Ollama and
	// llama.cpp's server often run embedding models with 512 or 2,048
	// tokens of context.
	MaxTextTokens int
	// Tokenizer counts the tokens of a text for the two limits above;
	// give the model's own (tokencount.Encoding("cl100k_base") for
	// OpenAI's models) for exact limits. Nil means an estimate that
	// errs high: tokencount.Heuristic's count plus a third plus 4, which
	// is at least cl100k_base's count on every paragraph of the test
	// corpora (prose, Markdown, code) and leaves room for tokenizers with
	// smaller vocabularies (BERT's WordPiece, as in nomic-embed-text).
	Tokenizer tokencount.Tokenizer
	// Concurrency is the number of requests in flight at once; zero
	// means 4.
	Concurrency int
}

// An Embedder turns texts into vectors through the embeddings endpoint
// (POST /embeddings). It implements vectorstore.Embedder and is safe for
// concurrent use.
type Embedder struct {
	cfg EmbedderConfig
}

// NewEmbedder returns an embedder for cfg, with the defaults filled in.
// It makes no request.
func NewEmbedder(cfg EmbedderConfig) (*Embedder, error) {
	if cfg.Model == "" {
		return nil, errorf("%w: Model is empty: must name the embedding model", ErrConfig)
	}
	for _, f := range []struct {
		name string
		v    int
	}{
		{"Dimensions", cfg.Dimensions}, {"BatchSize", cfg.BatchSize}, {"BatchTokens", cfg.BatchTokens},
		{"MaxTextTokens", cfg.MaxTextTokens}, {"Concurrency", cfg.Concurrency},
	} {
		if f.v < 0 {
			return nil, errorf("%w: %s is %d: must not be negative (zero means the default)", ErrConfig, f.name, f.v)
		}
	}
	if cfg.Dimensions > MaxDimensions {
		return nil, errorf("%w: Dimensions is %d: must be at most MaxDimensions (%d)", ErrConfig, cfg.Dimensions, MaxDimensions)
	}
	var err error
	if cfg.Client, err = orEnvironment(cfg.Client); err != nil {
		return nil, err
	}
	cfg.BatchSize = cmp.Or(cfg.BatchSize, defaultBatchSize)
	cfg.BatchTokens = cmp.Or(cfg.BatchTokens, defaultBatchTokens)
	cfg.MaxTextTokens = cmp.Or(cfg.MaxTextTokens, defaultMaxTextTokens)
	cfg.Concurrency = cmp.Or(cfg.Concurrency, defaultConcurrency)
	return &Embedder{cfg: cfg}, nil
}

// Config returns the embedder's configuration with the defaults filled in.
func (e *Embedder) Config() EmbedderConfig { return e.cfg }

// Embed returns one vector per text, in the order of texts, all of the
// same length. It checks and counts every text before sending anything,
// splits them into batches of at most BatchSize texts and BatchTokens
// tokens, sends up to Concurrency batches at once, and places each
// vector by the index the server gives it (servers may reorder).
//
// A text that is empty or white space, not valid UTF-8, or over the
// token limit is an error wrapping [ErrInvalid] or [ErrTextTooLong]
// that names it. A failing batch cancels the others; its
// error says which batch and which texts. Embed sends no request for no
// texts.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e == nil || e.cfg.Client == nil {
		return nil, errorf("%w: a zero Embedder: use openai.NewEmbedder", ErrConfig)
	}
	counts, err := e.count(texts)
	if err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	err = inBatches(ctx, plan(counts, e.cfg.BatchSize, e.cfg.BatchTokens), e.cfg.Concurrency, func(ctx context.Context, b batch) error {
		return e.embedBatch(ctx, texts[b.lo:b.hi], out[b.lo:b.hi])
	})
	if err != nil {
		return nil, err
	}
	for i, v := range out {
		if len(v) != len(out[0]) {
			return nil, errorf("%w: text %d has %d dimensions, text 0 has %d", ErrBadResponse, i, len(v), len(out[0]))
		}
	}
	return out, nil
}

// count checks each text and returns its token count.
func (e *Embedder) count(texts []string) ([]int, error) {
	limit, field := e.cfg.MaxTextTokens, "MaxTextTokens"
	if e.cfg.BatchTokens < limit {
		limit, field = e.cfg.BatchTokens, "BatchTokens"
	}
	// What to change, said in the error: smaller texts, the limit, or
	// the count.
	how := "counted; cut smaller texts or raise " + field + " if the model takes more"
	if e.cfg.Tokenizer == nil {
		how = "estimated high; cut smaller texts, raise " + field + " if the model takes more, or give the model's Tokenizer for exact counts"
	}
	counts := make([]int, len(texts))
	for i, t := range texts {
		if err := checkText(t, "text "+strconv.Itoa(i)); err != nil {
			return nil, err
		}
		n := e.tokens(t)
		if n < 0 {
			return nil, errorf("%w: the Tokenizer counted %d tokens for text %d", ErrConfig, n, i)
		}
		if n > limit {
			return nil, errorf("%w: text %d (%q) has %d tokens, the limit is %d (%s)", ErrTextTooLong, i, preview(t), n, limit, how)
		}
		counts[i] = n
	}
	return counts, nil
}

func (e *Embedder) tokens(text string) int {
	if e.cfg.Tokenizer != nil {
		return e.cfg.Tokenizer.Count(text)
	}
	n := tokencount.Heuristic{}.Count(text)
	return n + (n+2)/3 + 4
}

// preview is the start of a text, to name it in an error.
func preview(text string) string {
	const n = 40
	if len(text) <= n {
		return text
	}
	cut := n
	for !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + "…"
}

// A batch is the texts [lo, hi) of one request.
type batch struct{ lo, hi int }

// plan cuts the texts into consecutive batches of at most size texts and
// tokens tokens (each text alone is within tokens: count checked it).
func plan(counts []int, size, tokens int) []batch {
	var bs []batch
	lo, sum := 0, 0
	for i, n := range counts {
		if i > lo && (i-lo == size || sum+n > tokens) {
			bs = append(bs, batch{lo, i})
			lo, sum = i, 0
		}
		sum += n
	}
	if lo < len(counts) {
		bs = append(bs, batch{lo, len(counts)})
	}
	return bs
}

// inBatches runs do for each batch, concurrency at a time. The first
// failure cancels the batches in flight and is the error returned, naming
// its batch.
func inBatches(ctx context.Context, batches []batch, concurrency int, do func(ctx context.Context, b batch) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
		sem   = make(chan struct{}, concurrency)
	)
	fail := func(err error) {
		once.Do(func() { first = err; cancel() })
	}
	for bi, b := range batches {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			fail(ctx.Err())
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := do(ctx, b); err != nil {
				fail(errorf("%w: batch %d of %d (texts %d-%d)", err, bi+1, len(batches), b.lo, b.hi-1))
			}
		}()
	}
	wg.Wait()
	return first
}

type embeddingRequest struct {
	Model      string   `json:"model"`
	Input      []string `json:"input"`
	Dimensions int      `json:"dimensions,omitempty"`
}

// embeddingResponse is the part of an embeddings response the client reads:
//
//	{"object": "list", "model": "text-embedding-3-small",
//	 "data": [{"object": "embedding", "index": 0, "embedding": [0.0023064255, -0.009327292, ...]}],
//	 "usage": {"prompt_tokens": 8, "total_tokens": 8}}
type embeddingResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// An embeddingItem is one entry of an embeddings response's data.
type embeddingItem struct {
	index    int
	hasIndex bool // false if the index is absent or null
	vector   []float32
}

// embeddingsPath is the embeddings endpoint, under the base URL.
const embeddingsPath = "embeddings"

// embedBatch embeds texts into out (of the same length).
func (e *Embedder) embedBatch(ctx context.Context, texts []string, out [][]float32) error {
	body, err := e.cfg.Client.post(ctx, embeddingsPath, embeddingRequest{Model: e.cfg.Model, Input: texts, Dimensions: e.cfg.Dimensions}, e.bodyLimit(len(texts)))
	if err != nil {
		return err
	}
	items, err := e.cfg.Client.decodeEmbeddingResponse(body)
	if err != nil {
		return err
	}
	if len(items) != len(texts) {
		return errorf("%w: %d embeddings for %d texts", ErrBadResponse, len(items), len(texts))
	}
	positional := !items[0].hasIndex // servers that leave index out send them in order
	for i, it := range items {
		at := i
		if !positional {
			if !it.hasIndex || it.index < 0 || it.index >= len(texts) || out[it.index] != nil {
				return errorf("%w: embedding %d has a missing, repeated or out-of-range index", ErrBadResponse, i)
			}
			at = it.index
		} else if it.hasIndex {
			return errorf("%w: embedding %d has an index, embedding 0 has none", ErrBadResponse, i)
		}
		if err := e.checkVector(it.vector, len(items[0].vector)); err != nil {
			return errorf("%w: embedding %d: %w", ErrBadResponse, i, err)
		}
		out[at] = it.vector
	}
	return nil
}

// decodeEmbeddingResponse decodes an embeddings response, by the fast path
// if it can.
func (c *Client) decodeEmbeddingResponse(body []byte) ([]embeddingItem, error) {
	if items, ok := decodeEmbeddings(body); ok {
		return items, nil
	}
	var r embeddingResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, errorf("%w: embeddings: %v (body starts %q)", ErrBadResponse, c.cleanError(err), c.excerpt(body))
	}
	items := make([]embeddingItem, len(r.Data))
	for i, d := range r.Data {
		items[i] = embeddingItem{vector: d.Embedding}
		if d.Index != nil {
			items[i].index, items[i].hasIndex = *d.Index, true
		}
	}
	return items, nil
}

func (e *Embedder) checkVector(v []float32, want int) error {
	switch {
	case len(v) == 0:
		return errorf("empty vector")
	case len(v) > MaxDimensions:
		return errorf("%w: %d dimensions, over MaxDimensions (%d)", ErrTooLarge, len(v), MaxDimensions)
	case e.cfg.Dimensions > 0 && len(v) != e.cfg.Dimensions:
		return errorf("%d dimensions, asked for %d (does the model take Dimensions?)", len(v), e.cfg.Dimensions)
	case len(v) != want:
		return errorf("%d dimensions, embedding 0 has %d", len(v), want)
	}
	return nil
}
