package openai

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Defaults used for the zero values of [RerankerConfig]'s fields, stated
// on each field and reported by [Reranker.Config].
const (
	defaultRerankPath      = "rerank"
	defaultRerankBatchSize = 32
)

// RerankerConfig configures a [Reranker]. The zero value (with a Client)
// works with servers that serve one reranking model.
type RerankerConfig struct {
	// Client sends the requests; nil means New(Config{}). Its BaseURL is
	// where the endpoint is: "http://localhost:8000/v1" (vLLM,
	// llama.cpp's server: /v1/rerank), "http://localhost:8080" (Hugging
	// Face text-embeddings-inference: /rerank),
	// "https://api.jina.ai/v1", "https://api.cohere.com/v2".
	Client *Client
	// Model names the reranking model, such as "BAAI/bge-reranker-v2-m3"
	// or "jina-reranker-v2-base-multilingual"; empty leaves it out, for
	// servers that serve one model.
	Model string
	// Path is the endpoint under the client's base URL; empty means
	// "rerank".
	Path string
	// BatchSize is the most texts one request carries; zero means 32,
	// the batch limit of Hugging Face text-embeddings-inference (its
	// --max-client-batch-size), the smallest of the common servers.
	BatchSize int
	// Concurrency is the number of requests in flight at once; zero
	// means 4.
	Concurrency int
}

// A Reranker scores texts by their relevance to a query with a
// cross-encoder served over HTTP, in the request shape that Hugging Face
// text-embeddings-inference, vLLM, llama.cpp's server, Jina and
// Cohere-compatible APIs share:
//
//	POST /rerank  {"model": "...", "query": "...", "documents": ["...", ...], "top_n": 2, "return_documents": false}
//	→ {"results": [{"index": 1, "relevance_score": 0.98}, {"index": 0, "relevance_score": -3.2}]}
//
// Answers with "data" in place of "results", "score" in place of
// "relevance_score", or a bare array of results are read too. It uses its
// Client's retries, timeouts, key and errors, and is safe for concurrent
// use. It implements retrieve.Reranker.
type Reranker struct {
	cfg RerankerConfig
}

// NewReranker returns a reranker for cfg, with the defaults filled in.
// It makes no request.
func NewReranker(cfg RerankerConfig) (*Reranker, error) {
	switch {
	case cfg.BatchSize < 0:
		return nil, errorf("%w: BatchSize is %d: must not be negative (zero means the default)", ErrConfig, cfg.BatchSize)
	case cfg.Concurrency < 0:
		return nil, errorf("%w: Concurrency is %d: must not be negative (zero means the default)", ErrConfig, cfg.Concurrency)
	case strings.ContainsAny(cfg.Path, "?#") || strings.Contains(cfg.Path, ".."):
		return nil, errorf("%w: Path is %q: must be a path under the base URL", ErrConfig, cfg.Path)
	case !utf8.ValidString(cfg.Model):
		return nil, errorf("%w: Model is not valid UTF-8", ErrConfig)
	}
	var err error
	if cfg.Client, err = orEnvironment(cfg.Client); err != nil {
		return nil, err
	}
	cfg.Path = cmp.Or(cfg.Path, defaultRerankPath)
	cfg.BatchSize = cmp.Or(cfg.BatchSize, defaultRerankBatchSize)
	cfg.Concurrency = cmp.Or(cfg.Concurrency, defaultConcurrency)
	return &Reranker{cfg: cfg}, nil
}

// Config returns the reranker's configuration with the defaults filled in.
func (r *Reranker) Config() RerankerConfig { return r.cfg }

// Rerank returns one score per text, in the order of texts: higher is
// more relevant to query. Scores are the model's as the server gives
// them, which may lie outside [0, 1] (logits); they compare within one
// model. Texts go in batches of at most BatchSize, Concurrency at once;
// no request is sent for no texts.
//
// A query or text that is empty or white space, or not valid UTF-8, is an
// error wrapping [ErrInvalid] that names it. An answer without
// exactly one score for each text of a batch (an index missing, repeated
// or out of range) wraps [ErrBadResponse]; one with another number of
// scores than texts also has a method ScoreCount() (scores, texts int),
// by which a retrieve.Retriever reports it as retrieve.ErrReranker.
func (r *Reranker) Rerank(ctx context.Context, query string, texts []string) ([]float64, error) {
	if r == nil || r.cfg.Client == nil {
		return nil, errorf("%w: a zero Reranker: use openai.NewReranker", ErrConfig)
	}
	if err := checkText(query, "the query"); err != nil {
		return nil, err
	}
	for i, t := range texts {
		if err := checkText(t, "text "+strconv.Itoa(i)); err != nil {
			return nil, err
		}
	}
	scores := make([]float64, len(texts))
	var batches []batch
	for lo := 0; lo < len(texts); lo += r.cfg.BatchSize {
		batches = append(batches, batch{lo, min(lo+r.cfg.BatchSize, len(texts))})
	}
	err := inBatches(ctx, batches, r.cfg.Concurrency, func(ctx context.Context, b batch) error {
		return r.rerankBatch(ctx, query, texts[b.lo:b.hi], scores[b.lo:b.hi])
	})
	if err != nil {
		return nil, err
	}
	return scores, nil
}

func checkText(t, what string) error {
	switch {
	case !utf8.ValidString(t):
		return errorf("%w: %s is not valid UTF-8", ErrInvalid, what)
	case blank(t):
		return errorf("%w: %s is empty or white space", ErrInvalid, what)
	}
	return nil
}

type rerankRequest struct {
	Model           string   `json:"model,omitempty"`
	Query           string   `json:"query"`
	Documents       []string `json:"documents"`
	TopN            int      `json:"top_n"`
	ReturnDocuments bool     `json:"return_documents"`
}

// rerankBodyLimit is the longest answer accepted for texts: room for each
// score, and for the texts themselves (escaped) from a server that sends
// them back although asked not to.
func rerankBodyLimit(texts []string) int64 {
	n := int64(0)
	for _, t := range texts {
		n += int64(len(t))
	}
	return 6*n + int64(len(texts))*bytesPerItem + bytesPerBody
}

// rerankBatch scores texts into out (of the same length).
func (r *Reranker) rerankBatch(ctx context.Context, query string, texts []string, out []float64) error {
	req := rerankRequest{Model: r.cfg.Model, Query: query, Documents: texts, TopN: len(texts)}
	body, err := r.cfg.Client.post(ctx, r.cfg.Path, req, rerankBodyLimit(texts))
	if err != nil {
		return err
	}
	return r.cfg.Client.decodeRerank(body, out)
}

// A rerankResult is one entry of an answer; pointers tell a missing member
// from a zero.
type rerankResult struct {
	Index          *int     `json:"index"`
	RelevanceScore *float64 `json:"relevance_score"`
	Score          *float64 `json:"score"`
}

// decodeRerank reads an answer into out, one score per text, placed by
// index: {"results": [...]}, {"data": [...]} or a bare [...].
func (c *Client) decodeRerank(body []byte, out []float64) error {
	var results []rerankResult
	var err error
	if trimmed := bytes.TrimLeft(body, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '[' {
		err = json.Unmarshal(body, &results)
	} else {
		var env struct {
			Results []rerankResult `json:"results"`
			Data    []rerankResult `json:"data"`
		}
		err = json.Unmarshal(body, &env)
		results = env.Results
		if results == nil {
			results = env.Data
		}
		if err == nil && results == nil {
			return errorf("%w: rerank: no results or data array (body starts %q)", ErrBadResponse, c.excerpt(body))
		}
	}
	if err != nil {
		return errorf("%w: rerank: %v (body starts %q)", ErrBadResponse, c.cleanError(err), c.excerpt(body))
	}
	if len(results) != len(out) {
		return &scoreCountError{errorf("%w: rerank: %d scores for %d texts", ErrBadResponse, len(results), len(out)), len(results), len(out)}
	}
	seen := make([]bool, len(out))
	for i, res := range results {
		score := cmp.Or(res.RelevanceScore, res.Score)
		switch {
		case res.Index == nil:
			return errorf("%w: rerank: result %d has no index", ErrBadResponse, i)
		case *res.Index < 0 || *res.Index >= len(out):
			return errorf("%w: rerank: result %d has index %d, out of range for %d texts", ErrBadResponse, i, *res.Index, len(out))
		case seen[*res.Index]:
			return errorf("%w: rerank: index %d is repeated", ErrBadResponse, *res.Index)
		case score == nil:
			return errorf("%w: rerank: result %d has no relevance_score or score", ErrBadResponse, i)
		}
		seen[*res.Index] = true
		out[*res.Index] = *score
	}
	return nil
}

// scoreCountError is an answer with another number of scores than texts.
// Its ScoreCount method is the one retrieve.Reranker documents, so that
// a retrieve.Retriever wraps it in retrieve.ErrReranker, which this
// package cannot import.
type scoreCountError struct {
	err           error
	scores, texts int
}

func (e *scoreCountError) Error() string                   { return e.err.Error() }
func (e *scoreCountError) Unwrap() error                   { return e.err }
func (e *scoreCountError) ScoreCount() (scores, texts int) { return e.scores, e.texts }
