package retrieve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ragkit/ragkit/internal/parallel"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// ErrConfig reports a [Config] (or a [FusionConfig]) that [New] or [Fuse]
// refused; the message names the field, its value and what is allowed.
var ErrConfig = errors.New("retrieve: invalid configuration")

// ErrReranker reports scores of a [Reranker] that cannot rank the
// passages: not one per passage, or not finite.
var ErrReranker = errors.New("retrieve: bad reranker scores")

// Defaults of a [Config] field left zero, chosen on the project's
// retrieval evaluation (benchmarks/eval; the README gives the tables).
const (
	// DefaultPassages is the number of passages when Config.Passages is
	// zero: the fewest at which the share of answers inside a prompt's
	// context of a fixed token budget stopped growing, the budget
	// dropping the passages that do not fit.
	DefaultPassages = 8
	// DefaultDepth is the number of hits each search contributes when
	// Config.Depth is zero.
	DefaultDepth = 50
)

// DefaultFusion returns the fusion of a [Hybrid] search for the zero
// fields of Config.Fusion: reciprocal rank fusion with K = 4, the vector
// search weighted 1 and the keyword search 20. The keyword search leads:
// a question's own words find its passage more often than the vector of a
// dependency-free embedder does, and equal weights let the vector search
// push the keyword search's best hit down. The vector search breaks the
// keyword search's near ties, and its hits fill in where the words find
// nothing; with K this small a keyword hit's lead over the next is not
// undone by the vector search at the top ranks. These were measured with
// the dependency-free Lexical embedder, whose vectors also match words; a
// neural embedder finds what the words miss, and deserves more weight
// (equal weights and K = 60, say): measure on your own questions with
// benchmarks/cmd/eval -retriever -embed-url.
func DefaultFusion() FusionConfig { return FusionConfig{K: 4, Weights: []float64{1, 20}} }

// Search says which searches a [Retriever] runs.
type Search int

const (
	// Hybrid runs the vector search and, if the store implements
	// vectorstore.KeywordQuerier, the keyword search, and fuses them with
	// [Fuse]. Over a store without keyword search it is the vector
	// search alone: a documented fallback, not an error, so that code
	// written for hybrid search runs on any store.
	Hybrid Search = iota
	// Vector runs the vector search alone.
	Vector
	// Keywords runs the keyword search alone; the store must implement
	// vectorstore.KeywordQuerier, and no Embedder is needed.
	Keywords
)

var searchNames = [...]string{Hybrid: "Hybrid", Vector: "Vector", Keywords: "Keywords"}

func (s Search) String() string {
	if s < 0 || int(s) >= len(searchNames) {
		return "Search(" + strconv.Itoa(int(s)) + ")"
	}
	return searchNames[s]
}

// A Widener turns the hits of a query into the passages around them,
// reading the units it needs from src: [window.Expander] (sentence
// windows) and [window.Extractor] (relevant segments) are Wideners.
// The Retriever gives src once per question: its Store, behind its
// Filter, so configure the Expander or Extractor without a Source. The
// windows it returns need not be in any order: the [Retriever] ranks
// them.
type Widener interface {
	Widen(ctx context.Context, src window.Source, hits []vectorstore.Hit) ([]window.Window, error)
}

// Config configures a [Retriever]. Store is required, and Embedder unless
// Search is [Keywords]; the zero value of every other field is its
// default.
type Config struct {
	// Store is searched by vector, by keywords if it implements
	// vectorstore.KeywordQuerier, and read by the Widener.
	Store vectorstore.VectorStore
	// Embedder embeds the question for the vector search: the one that
	// embedded the stored records. Not needed with [Keywords].
	Embedder vectorstore.Embedder
	// Search picks the searches; the zero value is [Hybrid].
	Search Search
	// Fusion configures the fusion of a [Hybrid] search. Its Weights, if
	// not nil, are two: the vector search's, then the keyword search's.
	// A zero K and nil Weights take those of [DefaultFusion].
	Fusion FusionConfig
	// Filter restricts every search, and the units a Widener reads: a
	// record it excludes reaches no passage.
	Filter vectorstore.Filter
	// Passages is the most passages a question returns. Zero means
	// [DefaultPassages].
	Passages int
	// Depth is how many hits each search returns; the best Depth of their
	// fusion are widened into passages. Zero means [DefaultDepth], or
	// Passages if that is larger. More depth lets a passage found fairly
	// well by both searches overtake one found first by one of them, and
	// gives a segment Extractor more hits to value.
	Depth int
	// Widener, if set, turns hits into passages: a [window.Expander] for
	// sentence windows, a [window.Extractor] for relevant segments. Nil
	// makes each hit a passage of its own record.
	Widener Widener
	// Tokenizer, if set, counts the Tokens of passages the Widener did
	// not count (every passage without a Widener).
	Tokenizer tokencount.Tokenizer

	// Reranker, if set, rescores the best RerankDepth passages (by the
	// ranking of [Passage]) after the hits are widened, with the question
	// and each passage's text; they are then ranked by its scores (ties
	// in document order), each passage's Score is the reranker's, and the
	// passages below them are dropped. Its error, or a panic, is the
	// error of the call; a wrong number of scores or a score that is not
	// finite gives an error wrapping [ErrReranker].
	Reranker Reranker
	// RerankDepth is how many passages the Reranker scores, at least
	// Passages. Zero means [DefaultRerankDepth], or Passages if that is
	// larger.
	RerankDepth int
	// RerankBatch is the most passages of one Rerank call; zero sends
	// them all in one call and leaves batching to the Reranker (an
	// openai.Reranker cuts its requests to its BatchSize).
	RerankBatch int

	// MinScore, if not zero, drops the passages whose Score is below it,
	// before Diversity picks among the rest. It applies to the score a
	// passage carries, whose kind depends on the configuration: the
	// Reranker's relevance (a model's own scale, logits or [0, 1]) with
	// a Reranker; otherwise the cosine similarity of [Vector] search
	// (with memory.Store; another store's own score) or the BM25
	// score of [Keywords]. A [Hybrid] search without a Reranker refuses
	// it: a fused score is a sum of rank terms, which moves with K, the
	// weights and the depth, and says nothing on its own about a
	// passage. It may be negative (logits and cosines are signed); NaN
	// and infinities are refused. Zero means no cut; to cut at exactly
	// zero, set MinScoreZero.
	MinScore float64
	// MinScoreZero drops the passages whose Score is below zero, as a
	// MinScore of 0 would if zero did not mean "no cut". MinScore must
	// be 0 with it.
	MinScoreZero bool
	// Diversity spreads the passages over documents and content: a cap
	// per document and maximal marginal relevance. The zero value
	// changes nothing.
	Diversity Diversity

	// Rewriter, if set, turns each question (with the conversation of a
	// [Query]) into what is searched: a standalone question, or several
	// phrasings whose hits are fused. Nil searches the question as it
	// is, which is also what to do offline, without a chat model. Its
	// error, or a panic, is the error of the call.
	Rewriter Rewriter
	// MaxQuestions is the most phrasings the Rewriter may return; more
	// give an error wrapping [ErrRewriter]. Zero means
	// [DefaultMaxQuestions].
	MaxQuestions int
}

// A Retriever owns the path from a question to the passages of a
// prompt's context: it embeds the question once, runs the vector and the
// keyword search with the filter, fuses them, widens the hits into
// windows or segments, and ranks the passages by the strength of their
// evidence (see [Passage]). It is safe for concurrent use if its store,
// embedder, widener and tokenizer are.
type Retriever struct {
	cfg      Config
	keywords vectorstore.KeywordQuerier // nil: no keyword search
}

// New returns a Retriever configured by cfg. A missing Store, a missing
// Embedder (unless Search is [Keywords]), a Search out of range, Keywords
// over a store without keyword search, a negative Passages or Depth, or a
// Fusion that [Fuse] would refuse for two lists give an error wrapping
// [ErrConfig].
func New(cfg Config) (*Retriever, error) {
	kw, _ := cfg.Store.(vectorstore.KeywordQuerier)
	switch {
	case cfg.Store == nil:
		return nil, fmt.Errorf("%w: Store is nil: a store is required", ErrConfig)
	case cfg.Search < Hybrid || cfg.Search > Keywords:
		return nil, fmt.Errorf("%w: Search is %v: must be Hybrid, Vector or Keywords", ErrConfig, cfg.Search)
	case cfg.Embedder == nil && cfg.Search != Keywords:
		return nil, fmt.Errorf("%w: Embedder is nil: required unless Search is Keywords", ErrConfig)
	case kw == nil && cfg.Search == Keywords:
		return nil, fmt.Errorf("%w: Search is Keywords: the store (%T) has no keyword search", ErrConfig, cfg.Store)
	case cfg.Passages < 0:
		return nil, fmt.Errorf("%w: Passages is %d: must be 0 or more", ErrConfig, cfg.Passages)
	case cfg.Depth < 0:
		return nil, fmt.Errorf("%w: Depth is %d: must be 0 or more", ErrConfig, cfg.Depth)
	case cfg.MaxQuestions < 0:
		return nil, fmt.Errorf("%w: MaxQuestions is %d: must be 0 or more", ErrConfig, cfg.MaxQuestions)
	}
	if err := cfg.Fusion.check(2); err != nil {
		return nil, err
	}
	if err := cfg.checkPicking(); err != nil {
		return nil, err
	}
	if cfg.Passages == 0 {
		cfg.Passages = DefaultPassages
	}
	if cfg.Depth == 0 {
		cfg.Depth = max(DefaultDepth, cfg.Passages)
	}
	if cfg.MaxQuestions == 0 {
		cfg.MaxQuestions = DefaultMaxQuestions
	}
	if cfg.RerankDepth == 0 && cfg.Reranker != nil {
		cfg.RerankDepth = max(DefaultRerankDepth, cfg.Passages)
	}
	if cfg.RerankDepth != 0 && cfg.RerankDepth < cfg.Passages {
		return nil, fmt.Errorf("%w: RerankDepth is %d: must be 0 or at least Passages (%d)", ErrConfig, cfg.RerankDepth, cfg.Passages)
	}
	def := DefaultFusion()
	if cfg.Fusion.Weights == nil {
		cfg.Fusion.Weights = def.Weights
	}
	if cfg.Fusion.K == 0 {
		cfg.Fusion.K = def.K
	}
	r := &Retriever{cfg: cfg}
	if cfg.Search != Vector {
		r.keywords = kw
	}
	return r, nil
}

// Config returns the configuration of r with its defaults resolved.
func (r *Retriever) Config() Config {
	cfg := r.cfg
	cfg.Fusion.Weights = slices.Clone(cfg.Fusion.Weights)
	return cfg
}

// Retrieve returns the passages for question, best first, at most
// Config.Passages: it embeds the question (not with [Keywords]) and
// continues as [Retriever.RetrieveVector]. An empty or white-space
// question gives an error wrapping vectorstore.ErrInvalidArgument; an
// error of the embedder, the store, the Widener or the Reranker is
// returned wrapped, a panic in one of them as an error wrapping
// [ErrPanic], and a cancelled ctx stops it with ctx's error.
//
// After widening, the passages go through, in this order: the Reranker
// (the best RerankDepth, re-ranked by its scores), MinScore, and
// Diversity (the per-document cap and maximal marginal relevance, which
// returns passages in the order it picks them); then the first Passages
// are returned. Fewer come back when MinScore or the cap leaves fewer.
//
// Retrieve reads no clock; [Retriever.RetrieveQuery] is the same search
// with the stage timings and a conversation.
func (r *Retriever) Retrieve(ctx context.Context, question string) ([]Passage, error) {
	return r.query(ctx, Query{Question: question}, nil)
}

// RetrieveQuery is [Retriever.Retrieve] for a [Query], with what it
// searched and how long each stage took in its [Result].
func (r *Retriever) RetrieveQuery(ctx context.Context, q Query) (Result, error) {
	t0 := time.Now()
	var st timings
	qs, err := r.questions(ctx, q, &st)
	if err != nil {
		return Result{}, err
	}
	ps, err := r.search(ctx, qs, &st)
	if err != nil {
		return Result{}, err
	}
	return Result{Passages: ps, Questions: qs, Stats: st.stats(time.Since(t0))}, nil
}

// query is Retrieve and RetrieveQuery; st is nil when timings are off.
func (r *Retriever) query(ctx context.Context, q Query, st *timings) ([]Passage, error) {
	qs, err := r.questions(ctx, q, st)
	if err != nil {
		return nil, err
	}
	return r.search(ctx, qs, st)
}

// search embeds the questions (one call) and retrieves for them.
func (r *Retriever) search(ctx context.Context, qs []string, st *timings) ([]Passage, error) {
	if r.cfg.Search == Keywords {
		return r.retrieve(ctx, qs, nil, st)
	}
	t0 := st.start()
	vecs, err := parallel.Call(func() ([][]float32, error) { return r.cfg.Embedder.Embed(ctx, qs) })
	st.stop(stageEmbed, t0)
	if err != nil {
		return nil, fmt.Errorf("retrieve: embedding the question: %w", err)
	}
	if len(vecs) != len(qs) {
		if len(qs) == 1 {
			return nil, fmt.Errorf("retrieve: the embedder returned %d vectors for one question", len(vecs))
		}
		return nil, fmt.Errorf("retrieve: the embedder returned %d vectors for %d questions", len(vecs), len(qs))
	}
	return r.retrieve(ctx, qs, vecs, st)
}

// RetrieveVector is [Retriever.Retrieve] with the question's vector given,
// for a program that has it already (to search several stores, or to
// reuse it): the question is still needed for the keyword search, and is
// searched as is (no [Rewriter]: the vector is the question's). A
// vector whose length is not the store's dimension is refused by the
// store's query (memory.Store with an error wrapping
// vectorstore.ErrDimensionMismatch); an empty one gives an error wrapping
// vectorstore.ErrInvalidArgument. With [Keywords] the vector is not used.
func (r *Retriever) RetrieveVector(ctx context.Context, question string, vector []float32) ([]Passage, error) {
	if err := checkQuestion(ctx, question); err != nil {
		return nil, err
	}
	if r.cfg.Search == Keywords {
		return r.retrieve(ctx, []string{question}, nil, nil)
	}
	if len(vector) == 0 {
		return nil, fmt.Errorf("%w: retrieve: the query vector is empty", vectorstore.ErrInvalidArgument)
	}
	return r.retrieve(ctx, []string{question}, [][]float32{vector}, nil)
}

func checkQuestion(ctx context.Context, question string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if strings.TrimSpace(question) == "" {
		return fmt.Errorf("%w: retrieve: the question is empty", vectorstore.ErrInvalidArgument)
	}
	return nil
}

// retrieve searches for each question, fuses their hits, widens and
// ranks; vectors is nil for Keywords, else one per question. The first
// question is the one the Reranker and the focus read.
func (r *Retriever) retrieve(ctx context.Context, qs []string, vectors [][]float32, st *timings) ([]Passage, error) {
	// The store and the Widener may be the caller's own: a panic in them
	// is an error of this call, as an Embedder's is.
	hits, err := parallel.Call(func() ([]vectorstore.Hit, error) { return r.searchAll(ctx, qs, vectors, st) })
	if err != nil {
		return nil, err
	}
	t0 := st.start()
	ps, err := parallel.Call(func() ([]Passage, error) { return r.widen(ctx, hits) })
	if err != nil {
		return nil, err
	}
	slices.SortFunc(ps, Passage.compare)
	st.stop(stageWiden, t0)
	question := qs[0]
	if r.cfg.Reranker != nil {
		t0 = st.start()
		ps, err = r.rerank(ctx, question, ps)
		st.stop(stageRerank, t0)
		if err != nil {
			return nil, err
		}
	}
	t0 = st.start()
	if r.cfg.MinScore != 0 || r.cfg.MinScoreZero {
		ps = slices.DeleteFunc(ps, func(p Passage) bool { return float64(p.Score) < r.cfg.MinScore })
	}
	ps, err = r.pick(ctx, ps, r.cfg.Passages)
	st.stop(stageDiversity, t0)
	if err != nil {
		return nil, err
	}
	setFocus(question, ps)
	return ps, nil
}

// checkPicking checks the settings of what happens after widening:
// reranking, the cut-off and diversity.
func (cfg Config) checkPicking() error {
	switch {
	case cfg.RerankDepth < 0:
		return fmt.Errorf("%w: RerankDepth is %d: must be 0 or more", ErrConfig, cfg.RerankDepth)
	case cfg.RerankBatch < 0:
		return fmt.Errorf("%w: RerankBatch is %d: must be 0 or more", ErrConfig, cfg.RerankBatch)
	case cfg.Reranker == nil && (cfg.RerankDepth != 0 || cfg.RerankBatch != 0):
		return fmt.Errorf("%w: RerankDepth and RerankBatch need a Reranker", ErrConfig)
	case math.IsNaN(cfg.MinScore) || math.IsInf(cfg.MinScore, 0):
		return fmt.Errorf("%w: MinScore is %v: must be finite", ErrConfig, cfg.MinScore)
	case cfg.MinScoreZero && cfg.MinScore != 0:
		return fmt.Errorf("%w: MinScore is %v: must be 0 with MinScoreZero", ErrConfig, cfg.MinScore)
	case (cfg.MinScore != 0 || cfg.MinScoreZero) && cfg.Search == Hybrid && cfg.Reranker == nil:
		return fmt.Errorf("%w: MinScore is %v with Hybrid search and no Reranker: fused scores are ranks, not a scale to cut at", ErrConfig, cfg.MinScore)
	case cfg.Diversity.Lambda != 0 && cfg.Diversity.Vectors == EmbeddedVectors && cfg.Embedder == nil:
		return fmt.Errorf("%w: Diversity.Vectors is EmbeddedVectors: an Embedder is required", ErrConfig)
	}
	return cfg.Diversity.check()
}
