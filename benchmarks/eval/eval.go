package eval

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

var (
	// ErrCorpus means a corpus could not be read or failed its checks: a
	// missing document, an answer not found exactly once, an answer that
	// also occurs in another document.
	ErrCorpus = errors.New("eval: invalid corpus")
	// ErrConfig means a [Config] was refused.
	ErrConfig = errors.New("eval: invalid configuration")
	// ErrMethod means a [Method] failed or returned something unusable: a
	// unit or span outside its document, an empty unit, an unknown
	// document.
	ErrMethod = errors.New("eval: method failed")
	// ErrEmbed means the Embedder failed or returned the wrong number of
	// vectors.
	ErrEmbed = errors.New("eval: embedding failed")
)

// A Span is a byte range of a document: Text[Start:End] of the document
// DocID, End exclusive.
type Span struct {
	DocID      string
	Start, End int
}

// A Unit is one retrievable piece of a document, as a [Method] cuts it:
// its byte span, the text its vector is made from, and labels for the
// store.
type Unit struct {
	Start, End int
	// Embed is the text to embed; empty means the unit's own text. A
	// contextual header makes it differ: header and chunk are embedded,
	// the chunk alone is what retrieval returns.
	Embed    string
	Metadata map[string]string
	// Notes are the library's bookkeeping the unit's record carries (the
	// header keyword search reads, the gap windows rebuild text with).
	Notes vectorstore.Notes
}

// A Query is a question as a method's Search sees it: its text, for
// keyword search, and its vector by the evaluation's Embedder.
type Query struct {
	Text   string
	Vector []float32
}

// An Index is what a method searches: one corpus's units, embedded and
// stored. Store holds one record per unit, with ID "DocID#Index", the
// unit's position in its document as Index, its byte offsets as Start and
// End, its own text as Text, its Metadata and its Notes.
type Index struct {
	Corpus   *Corpus
	Store    *memory.Store
	Embedder vectorstore.Embedder
	units    map[string][]Span
}

// Units returns the units of a document, in order.
func (ix *Index) Units(docID string) []Span { return ix.units[docID] }

// A Method is one retrieval configuration under evaluation: how documents
// are cut into units and what of each is embedded (Units), how a question
// finds units (Search), and how the units found become the text handed to
// a model (Retrieve). Search and Retrieve are optional; each is a few
// lines for a new technique:
//
//   - contextual headers: Units embeds header + chunk as Unit.Embed;
//   - sentence windows: Units cuts sentences, Retrieve widens each hit to
//     its neighbours (Index.Store has Range) and returns the wider spans;
//   - segment extraction: Search asks for more hits, Retrieve picks runs;
//   - keyword or hybrid search: Search uses Query.Text.
type Method struct {
	// Name identifies the method in results, such as "balanced-256".
	Name string
	// Units cuts a document into units, in document order. Required.
	Units func(ctx context.Context, doc Document) ([]Unit, error)
	// Search returns the hits for a query, best first. Nil means the k
	// units nearest to Query.Vector in Index.Store.
	Search func(ctx context.Context, ix *Index, q Query, k int) ([]vectorstore.Hit, error)
	// Retrieve turns hits into the retrieved spans, best first; at most k
	// of them are scored. Nil means each hit's own span.
	Retrieve func(ctx context.Context, ix *Index, hits []vectorstore.Hit) ([]Span, error)
	// Ask, if set, replaces Search and Retrieve: it returns the spans for
	// a query, best first, in one step, as a retrieve.Retriever does.
	Ask func(ctx context.Context, ix *Index, q Query, k int) ([]Span, error)
	// ContextTokens, if positive, is the budget of the answer-in-context
	// metric: the retrieved spans, best first, are kept while their
	// tokens (the Tokenizer's count of their texts) sum to at most
	// ContextTokens, and InContext says whether those kept hold the
	// answer. Methods compared at equal tokens share the budget.
	ContextTokens int
}

// DefaultK is the number of hits per question when Config.K is zero.
const DefaultK = 5

// Config configures an [Evaluator]. The zero value evaluates with the
// default Lexical embedder, cl100k_base and k = 5.
type Config struct {
	// Embedder embeds units and questions; nil means the zero
	// lexical.Embedder. Any vectorstore.Embedder works: a client of a
	// local or hosted embedding model.
	Embedder vectorstore.Embedder
	// Tokenizer counts the tokens of the token-level metrics; nil means
	// cl100k_base. It does not size units: methods bring their own.
	Tokenizer tokencount.Tokenizer
	// K is the number of hits retrieved per question, and of spans
	// scored; zero means DefaultK.
	K int
	// BatchSize is the most texts per Embed call; zero means 64.
	BatchSize int
}

// An Evaluator runs methods over corpora and scores them. The zero value
// is ready to use, with the zero Config.
type Evaluator struct{ cfg Config }

// New returns an Evaluator. A negative K or BatchSize gives an error
// wrapping ErrConfig, as does a Tokenizer that cannot be loaded.
func New(cfg Config) (*Evaluator, error) {
	if cfg.K < 0 {
		return nil, fmt.Errorf("%w: K is %d", ErrConfig, cfg.K)
	}
	if cfg.BatchSize < 0 {
		return nil, fmt.Errorf("%w: BatchSize is %d", ErrConfig, cfg.BatchSize)
	}
	cfg, err := resolve(cfg)
	if err != nil {
		return nil, err
	}
	return &Evaluator{cfg: cfg}, nil
}

func resolve(cfg Config) (Config, error) {
	if cfg.Embedder == nil {
		cfg.Embedder = &lexical.Embedder{}
	}
	if cfg.Tokenizer == nil {
		tok, err := tokencount.Encoding(tokencount.Cl100kBase)
		if err != nil {
			return cfg, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		cfg.Tokenizer = tok
	}
	if cfg.K <= 0 {
		cfg.K = DefaultK
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 64
	}
	return cfg, nil
}

// Config returns the configuration with its defaults resolved.
func (e *Evaluator) Config() Config {
	cfg, err := resolve(e.config())
	if err != nil {
		return e.config()
	}
	return cfg
}

func (e *Evaluator) config() Config {
	if e == nil {
		return Config{}
	}
	return e.cfg
}

// Run evaluates every method on every corpus, corpus by corpus, and
// returns one Result per pair; a pair that failed has its Err set and
// does not stop the others.
func (e *Evaluator) Run(ctx context.Context, corpora []*Corpus, methods []Method) []Result {
	var out []Result
	for _, c := range corpora {
		for _, m := range methods {
			r, err := e.Evaluate(ctx, c, m)
			if err != nil {
				r = Result{Corpus: c.Name, Method: m.Name, Err: err}
			}
			out = append(out, r)
		}
	}
	return out
}

// Evaluate cuts, embeds and stores the corpus's documents with m, asks
// every question, and scores what m retrieved (see the package
// documentation for the metrics).
func (e *Evaluator) Evaluate(ctx context.Context, c *Corpus, m Method) (Result, error) {
	cfg, err := resolve(e.config())
	if err != nil {
		return Result{}, err
	}
	if c == nil || len(c.Questions) == 0 {
		return Result{}, fmt.Errorf("%w: no questions", ErrCorpus)
	}
	if m.Name == "" || m.Units == nil {
		return Result{}, fmt.Errorf("%w: method %q has no name or no Units", ErrMethod, m.Name)
	}
	ix, err := build(ctx, cfg, c, m)
	if err != nil {
		return Result{}, err
	}
	defer ix.Store.Close()
	qs, err := e.ask(ctx, cfg, ix, m)
	if err != nil {
		return Result{}, err
	}
	r := Result{Corpus: c.Name, Method: m.Name, K: cfg.K, Units: ix.Store.Len(), ContextTokens: m.ContextTokens,
		Summary: Summarize(qs), PerQuestion: qs}
	return r, nil
}

// ask runs every question of ix's corpus through m and scores it.
func (e *Evaluator) ask(ctx context.Context, cfg Config, ix *Index, m Method) ([]QuestionResult, error) {
	texts := make([]string, len(ix.Corpus.Questions))
	for i, q := range ix.Corpus.Questions {
		texts[i] = q.Text
	}
	vecs, err := embedAll(ctx, cfg, texts)
	if err != nil {
		return nil, err
	}
	scorer, err := NewScorer(cfg.Tokenizer, ix.Corpus.Documents)
	if err != nil {
		return nil, err
	}
	out := make([]QuestionResult, len(texts))
	for i, q := range ix.Corpus.Questions {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		spans, err := spansFor(ctx, ix, m, Query{Text: q.Text, Vector: vecs[i]}, cfg.K)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: question %s: %w", ErrMethod, m.Name, q.ID, err)
		}
		out[i], err = scorer.Score(q.Gold(), spans, ix.Units(q.DocID))
		if err != nil {
			return nil, fmt.Errorf("%w: %s: question %s: %w", ErrMethod, m.Name, q.ID, err)
		}
		out[i].ID = q.ID
		if m.ContextTokens > 0 {
			out[i].InContext = scorer.holds(scorer.withinTokens(cfg.Tokenizer, spans, m.ContextTokens), q.Gold())
		}
	}
	return out, nil
}

func spansFor(ctx context.Context, ix *Index, m Method, q Query, k int) ([]Span, error) {
	if m.Ask != nil {
		spans, err := m.Ask(ctx, ix, q, k)
		return spans[:min(k, len(spans))], err
	}
	search, expand := m.Search, m.Retrieve
	if search == nil {
		search = vectorSearch
	}
	if expand == nil {
		expand = hitSpans
	}
	hits, err := search(ctx, ix, q, k)
	if err != nil {
		return nil, err
	}
	spans, err := expand(ctx, ix, hits)
	if err != nil {
		return nil, err
	}
	return spans[:min(k, len(spans))], nil
}

// withinTokens returns the longest first spans whose texts count at most
// limit tokens in all, as a prompt's budget that drops the lowest ranked
// passages keeps them.
// The Scorer holds the corpus's texts by document.
func (s *Scorer) withinTokens(tok tokencount.Tokenizer, spans []Span, limit int) []Span {
	used := 0
	for i, sp := range spans {
		used += tok.Count(s.texts[sp.DocID][sp.Start:sp.End])
		if used > limit {
			return spans[:i]
		}
	}
	return spans
}

func vectorSearch(ctx context.Context, ix *Index, q Query, k int) ([]vectorstore.Hit, error) {
	return ix.Store.Query(ctx, q.Vector, k, vectorstore.Filter{})
}

func hitSpans(_ context.Context, _ *Index, hits []vectorstore.Hit) ([]Span, error) {
	spans := make([]Span, len(hits))
	for i, h := range hits {
		spans[i] = Span{DocID: h.DocID, Start: h.Start, End: h.End}
	}
	return spans, nil
}

// build cuts every document with m, embeds the units and stores them.
func build(ctx context.Context, cfg Config, c *Corpus, m Method) (*Index, error) {
	ix := &Index{Corpus: c, Store: new(memory.Store), Embedder: cfg.Embedder, units: make(map[string][]Span)}
	var records []vectorstore.Record
	var texts []string
	for _, doc := range c.Documents {
		units, err := m.Units(ctx, doc)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: document %q: %w", ErrMethod, m.Name, doc.ID, err)
		}
		for i, u := range units {
			r, text, err := record(doc, i, u)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %w", ErrMethod, m.Name, err)
			}
			records = append(records, r)
			texts = append(texts, text)
			ix.units[doc.ID] = append(ix.units[doc.ID], Span{DocID: doc.ID, Start: u.Start, End: u.End})
		}
	}
	vecs, err := embedAll(ctx, cfg, texts)
	if err != nil {
		return nil, err
	}
	for i := range records {
		records[i].Vector = vecs[i]
	}
	if err := ix.Store.Upsert(ctx, records...); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrMethod, m.Name, err)
	}
	return ix, nil
}

// record checks unit i of doc and returns its record and the text to embed.
func record(doc Document, i int, u Unit) (vectorstore.Record, string, error) {
	if u.Start < 0 || u.End <= u.Start || u.End > len(doc.Text) {
		return vectorstore.Record{}, "", fmt.Errorf("document %q: unit %d [%d, %d) is empty or outside the text (%d bytes)", doc.ID, i, u.Start, u.End, len(doc.Text))
	}
	text := doc.Text[u.Start:u.End]
	embedText := u.Embed
	if embedText == "" {
		embedText = text
	}
	if strings.TrimSpace(embedText) == "" {
		return vectorstore.Record{}, "", fmt.Errorf("document %q: unit %d has nothing to embed", doc.ID, i)
	}
	r := vectorstore.Record{
		ID: fmt.Sprintf("%s#%d", doc.ID, i), DocID: doc.ID, Index: i,
		Start: u.Start, End: u.End, Text: text, Metadata: u.Metadata, Notes: u.Notes,
	}
	return r, embedText, nil
}

// embedAll embeds texts in batches of cfg.BatchSize.
func embedAll(ctx context.Context, cfg Config, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += cfg.BatchSize {
		batch := texts[start:min(start+cfg.BatchSize, len(texts))]
		vecs, err := cfg.Embedder.Embed(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("%w: texts %d to %d: %w", ErrEmbed, start, start+len(batch)-1, err)
		}
		if len(vecs) != len(batch) {
			return nil, fmt.Errorf("%w: %d vectors for %d texts", ErrEmbed, len(vecs), len(batch))
		}
		out = append(out, vecs...)
	}
	return out, nil
}
