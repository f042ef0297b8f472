package contextheader

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/internal/batch"
	"github.com/ragkit/ragkit/internal/parallel"
	"github.com/ragkit/ragkit/tokencount"
)

// Errors returned by [New], [Decorator.Decorate] and [Decorator.Summaries].
// Returned errors wrap one of these, so test for them with [errors.Is].
var (
	// ErrConfig means a field of [Config] is missing or out of range, a
	// [Part] is malformed or a prompt template does not hold its
	// placeholders exactly once each, in order; the message names the
	// field or the part. It is also the error of a Decorator not made by
	// New, of New for a [ChunkContext] part without a Summarizer, and of
	// [Decorator.Summaries] without one.
	ErrConfig = errors.New("contextheader: invalid configuration")
	// ErrInvalidDocument means a document cannot be decorated as given:
	// its text has no non-space character, or its text, title, metadata
	// or summary (or a Custom part's text) is not valid UTF-8, or it has
	// no Summary where a [Summary] part needs one and there is no
	// Summarizer to write it; the message says which.
	ErrInvalidDocument = errors.New("contextheader: invalid document")
	// ErrChunk means a chunk does not lie in its document: its offsets are
	// out of range or its Text is not the document's text at them.
	ErrChunk = errors.New("contextheader: chunk does not match the document")
	// ErrChunkTooLong means a chunk alone, without any header, counts
	// more than Config.MaxEmbedTokens: chunk with
	// [Decorator.ChunkMaxTokens] to prevent it.
	ErrChunkTooLong = errors.New("contextheader: chunk is longer than MaxEmbedTokens")
	// ErrSummarizer means the Summarizer failed, or returned a summary
	// that is empty or not valid UTF-8 (which is not cached); the error
	// also wraps the Summarizer's own error.
	ErrSummarizer = errors.New("contextheader: Summarizer failed")
	// ErrCache means the Cache failed; the error also wraps the Cache's
	// own error.
	ErrCache = errors.New("contextheader: Cache failed")
	// ErrPanic means a function of the caller's (a Summarizer, a Cache,
	// a Custom part's Func; in package ingest also a SplitFunc or an
	// Embedder) panicked. The panic is recovered, the document that
	// caused it fails with an error wrapping ErrPanic, and the other
	// documents and the Decorator are left sound.
	ErrPanic = parallel.ErrPanic
)

// PathSeparator joins the headings of a section path.
const PathSeparator = " > "

// The defaults of [Config]'s fields, as their documentation gives them.
const (
	defaultSeparator         = "\n\n"
	defaultMaxHeaderTokens   = 128
	defaultSummaryChars      = 5000
	defaultChunkContextChars = 32000
	defaultConcurrency       = 4
)

// A Chunk is a chunk of a document with its contextual header.
type Chunk struct {
	// Chunk is the chunk as it was given, unchanged: offsets, text and
	// token count. Show Text to people; embed EmbedText.
	chunker.Chunk
	// Section holds the titles of the headings that enclose the chunk's
	// start, outermost first (nil if none); for a chunk that opens with
	// headings, its first text after them. Chunks of one section share
	// the slice; do not modify it.
	Section []string
	// Header is the contextual header, without the separator; empty if
	// the document has nothing to put in it.
	Header string
	// HeaderTokens is the Tokenizer's count of Header; never above
	// MaxHeaderTokens.
	HeaderTokens int
	// EmbedText is Header, the separator and the chunk's Text; just Text
	// when Header is empty.
	EmbedText string
	// EmbedTokens is the Tokenizer's count of EmbedText; never above
	// MaxEmbedTokens when that is set.
	EmbedTokens int
	// HeaderCut reports that the header was cut to fit MaxHeaderTokens or
	// MaxEmbedTokens (see the package documentation).
	HeaderCut bool
}

// Kind is the kind of a header [Part].
type Kind int

const (
	// Title is the document's Title.
	Title Kind = iota
	// Section is the section path: the breadcrumb of the headings that
	// enclose the chunk (see [document.Outline.Path]), joined by [PathSeparator].
	// Its first heading is left out when it repeats the title and the
	// header has a Title part.
	Section
	// Metadata is the document's Metadata rendered through the part's
	// Template.
	Metadata
	// Summary is the document's summary: Document.Summary, or one
	// Summarizer call per document (cached).
	Summary
	// ChunkContext is a short text that situates the chunk in its
	// document, written by the Summarizer for each chunk: one call per
	// chunk (cached). See the package documentation for its cost.
	ChunkContext
	// Custom is the text the part's Func returns.
	Custom
	// Table is, for a chunk that starts inside a Markdown table (after
	// its first line), the table's header row: its header line and its
	// delimiter line, so that the chunk's rows keep their column names.
	// It is kept or dropped whole, never cut. Other chunks, and
	// documents that are not Markdown, have no Table part.
	Table
)

var kindNames = [...]string{
	Title:        "Title",
	Section:      "Section",
	Metadata:     "Metadata",
	Summary:      "Summary",
	ChunkContext: "ChunkContext",
	Custom:       "Custom",
	Table:        "Table",
}

// String returns the constant's Go name, or Kind(N) for a value out of
// range.
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "Kind(" + strconv.Itoa(int(k)) + ")"
	}
	return kindNames[k]
}

// defaultPriority is each kind's priority when Part.Priority is zero:
// the short parts that name the document are kept longest, the long
// model-written ones are cut first.
var defaultPriority = [...]int{
	Title:        60,
	Section:      50,
	Table:        45,
	Metadata:     40,
	Custom:       30,
	ChunkContext: 20,
	Summary:      10,
}

// A Part is one line of the header.
type Part struct {
	// Kind says what the part holds.
	Kind Kind
	// Label, if set, precedes the part's text ("Section: "). A part with
	// no text has no label either.
	Label string
	// Template renders a Metadata part: each {key} is replaced by the
	// document's Metadata[key]; everything else is literal. The part is
	// left out when every key it names is missing or empty. Empty means
	// every field as "key: value", sorted by key, joined by "; ".
	Template string
	// Func returns a Custom part's text; required for Custom, ignored
	// otherwise.
	Func func(doc document.Document, c chunker.Chunk) string
	// Priority decides which parts give way first when the header must
	// be cut: lower priorities are cut first, and among equal priorities
	// the part listed later. Zero means the kind's default: Title 60,
	// Section 50, Table 45, Metadata 40, Custom 30, ChunkContext 20,
	// Summary 10.
	Priority int
}

func (p Part) priority() int {
	if p.Priority != 0 {
		return p.Priority
	}
	return defaultPriority[p.Kind]
}

// A Summarizer writes a short text from a prompt, usually by calling a
// language model. contextheader renders the whole prompt (instruction and
// document) and passes it as text; an adapter sends it as the user
// message and returns the reply. It must be safe for concurrent use.
type Summarizer interface {
	Summarize(ctx context.Context, text string) (string, error)
}

// A DocumentSummarizer summarises a document's text itself, with no
// prompt. When the Config's Summarizer also implements it, document
// summaries call SummarizeDocument with the start of the raw document
// instead of calling Summarize with the rendered prompt, as [io.Copy]
// uses an [io.WriterTo]. [Extractive] implements it. Chunk contexts
// always use Summarize.
type DocumentSummarizer interface {
	SummarizeDocument(ctx context.Context, document string) (string, error)
}

// Config configures a [Decorator]. Only Tokenizer is required; every
// other field's zero value means the default.
type Config struct {
	// Tokenizer counts the tokens of headers and embed texts; required.
	Tokenizer tokencount.Tokenizer
	// Parts are the header's parts, one line each (two for a Table),
	// in this order. Nil means the deterministic default, which needs no
	// model: Title, Section, then Table.
	Parts []Part
	// Separator goes between the header and the chunk's text; empty
	// means "\n\n", a blank line.
	Separator string
	// MaxHeaderTokens caps every header by the Tokenizer's exact count.
	// Zero means 128, or a quarter of MaxEmbedTokens
	// when that is set and smaller. Negative, or over 1<<30, is an error.
	MaxHeaderTokens int
	// MaxEmbedTokens, if set, is the embedder's input limit: no EmbedText
	// counts more (the header is cut further where needed, and a chunk
	// that is too long by itself is an error). Chunk with
	// [Decorator.ChunkMaxTokens] to leave room for the header. Zero means
	// no limit; negative, or over 1<<30, is an error.
	MaxEmbedTokens int

	// Summarizer writes summaries and chunk contexts; required when Parts
	// holds a ChunkContext part, and by a Summary part for every document
	// whose Summary field is empty. Without it, a Summary part takes the
	// summaries callers give in Document.Summary, from a store of their
	// own, and a document without one is an error.
	Summarizer Summarizer
	// SummarizerModel names the model (and version) behind Summarizer.
	// It is part of every cache key, so that two models never share
	// cached summaries. Empty is a name like any other.
	SummarizerModel string
	// SummaryPrompt is the document-summary prompt: [DocumentPlaceholder]
	// once, where the start of the document goes. Empty means
	// [DefaultSummaryPrompt].
	SummaryPrompt string
	// SummaryChars is how much of the document's start a summary is made
	// from, in characters, cut back to a sentence boundary. Zero means
	// 5,000; negative is an error.
	SummaryChars int
	// ChunkContextPrompt is the chunk-context prompt: [DocumentPlaceholder]
	// once and then [ChunkPlaceholder] once. Everything before the chunk
	// is the same for all chunks of a document, so providers that cache
	// prompt prefixes charge for the document once. Empty means
	// [DefaultChunkContextPrompt].
	ChunkContextPrompt string
	// ChunkContextChars is how much of the document's start, in
	// characters, goes into each chunk-context prompt, cut back to a
	// sentence boundary. Zero means 32,000; negative
	// is an error.
	ChunkContextChars int
	// Cache keeps summaries and chunk contexts between calls and runs.
	// Nil means a [MemoryCache] of the Decorator's own.
	Cache Cache
	// Concurrency bounds the Summarizer calls in flight. Zero means
	// 4; negative, or over 1<<16, is an error.
	Concurrency int
	// Progress, if set, is called after each document of
	// [Decorator.Summaries] and each chunk context of
	// [Decorator.Decorate] is done (cached, written or failed), with the
	// counts so far. Within one call of Summaries or Decorate, it is
	// never called concurrently, and Done counts up by one from 1 to
	// Total; calls of two Decorate calls at once may interleave.
	Progress func(Stats)
}

// Stats counts the Summarizer work of one call of [Decorator.Summaries]
// (documents) or [Decorator.Decorate] (chunk contexts), for
// Config.Progress.
type Stats struct {
	Done  int // summaries or chunk contexts done: cached, written or failed
	Total int // summaries or chunk contexts to do in the call
}

// A Decorator adds contextual headers to the chunks of documents. It is
// made with [New], immutable, and safe for concurrent use.
type Decorator struct {
	cfg       Config
	sepTokens int
	hasKind   [len(kindNames)]bool
	summary   prompt // the document-summary prompt, split at its placeholder
	context   prompt // the chunk-context prompt, split at its placeholders
	templates []template
	slots     chan struct{} // one per Summarizer call in flight

	mu      sync.Mutex
	flights map[string]*flight // by cache key: the summaries being made
}

// New validates cfg, resolves its defaults and returns a Decorator.
// Errors wrap [ErrConfig].
func New(cfg Config) (*Decorator, error) {
	if cfg.Tokenizer == nil {
		return nil, fmt.Errorf("%w: Tokenizer is nil: required", ErrConfig)
	}
	if err := resolve(&cfg); err != nil {
		return nil, err
	}
	d := &Decorator{cfg: cfg, sepTokens: cfg.Tokenizer.Count(cfg.Separator), slots: make(chan struct{}, cfg.Concurrency), flights: map[string]*flight{}}
	var err error
	if d.summary, err = parsePrompt(cfg.SummaryPrompt, false); err != nil {
		return nil, fmt.Errorf("%w: SummaryPrompt is %.40q: %w", ErrConfig, cfg.SummaryPrompt, err)
	}
	if d.context, err = parsePrompt(cfg.ChunkContextPrompt, true); err != nil {
		return nil, fmt.Errorf("%w: ChunkContextPrompt is %.40q: %w", ErrConfig, cfg.ChunkContextPrompt, err)
	}
	if err := d.parseParts(); err != nil {
		return nil, err
	}
	if d.hasKind[ChunkContext] && cfg.Summarizer == nil {
		return nil, fmt.Errorf("%w: Summarizer is nil: required with a ChunkContext part", ErrConfig)
	}
	if cfg.MaxEmbedTokens > 0 && cfg.MaxEmbedTokens-d.reserve() < 1 {
		return nil, fmt.Errorf("%w: MaxEmbedTokens is %d: must leave room for a chunk after MaxHeaderTokens %d and the separator",
			ErrConfig, cfg.MaxEmbedTokens, cfg.MaxHeaderTokens)
	}
	return d, nil
}

// Bounds of the settings that size work: far above any real model's
// limits, and low enough that sums of them cannot overflow (a cap near
// math.MaxInt made ChunkMaxTokens overflow) and that the Summarizer's
// slots are not a huge allocation.
const (
	maxTokens      = 1 << 30
	maxConcurrency = 1 << 16
)

// resolve checks cfg's numbers and fills in its defaults.
func resolve(cfg *Config) error {
	for _, f := range []struct {
		name string
		v    *int
		def  int
		max  int
	}{
		{"MaxEmbedTokens", &cfg.MaxEmbedTokens, 0, maxTokens},
		{"MaxHeaderTokens", &cfg.MaxHeaderTokens, defaultMaxHeader(cfg.MaxEmbedTokens), maxTokens},
		{"SummaryChars", &cfg.SummaryChars, defaultSummaryChars, math.MaxInt},
		{"ChunkContextChars", &cfg.ChunkContextChars, defaultChunkContextChars, math.MaxInt},
		{"Concurrency", &cfg.Concurrency, defaultConcurrency, maxConcurrency},
	} {
		if *f.v < 0 || *f.v > f.max {
			return fmt.Errorf("%w: %s is %d: must be 0 to %d", ErrConfig, f.name, *f.v, f.max)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	if cfg.Separator == "" {
		cfg.Separator = defaultSeparator
	}
	if cfg.SummaryPrompt == "" {
		cfg.SummaryPrompt = DefaultSummaryPrompt
	}
	if cfg.ChunkContextPrompt == "" {
		cfg.ChunkContextPrompt = DefaultChunkContextPrompt
	}
	if cfg.Parts == nil {
		cfg.Parts = []Part{{Kind: Title}, {Kind: Section}, {Kind: Table}}
	}
	if cfg.Cache == nil {
		cfg.Cache = new(MemoryCache)
	}
	for _, s := range []string{cfg.Separator, cfg.SummaryPrompt, cfg.ChunkContextPrompt, cfg.SummarizerModel} {
		if !utf8.ValidString(s) {
			return fmt.Errorf("%w: Separator, prompts and SummarizerModel must be valid UTF-8", ErrConfig)
		}
	}
	return nil
}

func defaultMaxHeader(maxEmbed int) int {
	if maxEmbed > 0 && maxEmbed/4 < defaultMaxHeaderTokens {
		return max(maxEmbed/4, 1)
	}
	return defaultMaxHeaderTokens
}

func (d *Decorator) parseParts() error {
	d.templates = make([]template, len(d.cfg.Parts))
	for i, p := range d.cfg.Parts {
		switch {
		case p.Kind < 0 || int(p.Kind) >= len(kindNames):
			return fmt.Errorf("%w: Parts[%d].Kind is %v: must be one of the Kind constants", ErrConfig, i, p.Kind)
		case p.Kind == Custom && p.Func == nil:
			return fmt.Errorf("%w: Parts[%d].Func is nil: a Custom part needs one", ErrConfig, i)
		case !utf8.ValidString(p.Label) || !utf8.ValidString(p.Template):
			return fmt.Errorf("%w: Parts[%d].Label or Template is not valid UTF-8: must be", ErrConfig, i)
		case strings.ContainsAny(p.Label, "\r\n"):
			return fmt.Errorf("%w: Parts[%d].Label is %q: must be one line", ErrConfig, i, p.Label)
		}
		d.hasKind[p.Kind] = true
		if p.Kind == Metadata {
			d.templates[i] = parseTemplate(p.Template)
		}
	}
	return nil
}

// Config returns the Decorator's configuration with its defaults
// resolved.
func (d *Decorator) Config() Config {
	if d == nil {
		return Config{}
	}
	return d.cfg
}

// reserve is what a chunk must leave free of MaxEmbedTokens: the largest
// header, the separator and a margin, because token counts are not
// additive across the joins.
func (d *Decorator) reserve() int {
	const margin = 2
	return d.cfg.MaxHeaderTokens + d.sepTokens + margin
}

// ChunkMaxTokens returns the MaxTokens to give the chunker so that every
// chunk fits in Config.MaxEmbedTokens together with its header: the limit
// minus MaxHeaderTokens, the separator's tokens and a margin of two
// tokens, because token counts are not additive across concatenation.
// [Decorator.Decorate] still checks every EmbedText by exact count, and
// cuts a header further in the rare case that the joins cost more. The
// error wraps [ErrConfig] when MaxEmbedTokens is not set.
func (d *Decorator) ChunkMaxTokens() (int, error) {
	if err := d.check(); err != nil {
		return 0, err
	}
	if d.cfg.MaxEmbedTokens == 0 {
		return 0, fmt.Errorf("%w: MaxEmbedTokens is 0: ChunkMaxTokens needs it set", ErrConfig)
	}
	return d.cfg.MaxEmbedTokens - d.reserve(), nil
}

// check reports a Decorator that was not made by New.
func (d *Decorator) check() error {
	if d == nil || d.cfg.Tokenizer == nil {
		return fmt.Errorf("%w: Decorator not made by New", ErrConfig)
	}
	return nil
}

// A DocumentError reports a document that could not be summarised,
// or decorated, and why.
type DocumentError struct {
	// Index is the document's position among the documents given to
	// [Decorator.Summaries] (0 for [Decorator.Decorate]).
	Index int
	// ID is the document's ID.
	ID string
	// Err is the cause; it wraps one of the package's errors or the
	// context's.
	Err error
}

func (e *DocumentError) Error() string {
	return batch.DocumentMessage(e.Index, e.ID, e.Err)
}

// Unwrap returns the cause.
func (e *DocumentError) Unwrap() error { return e.Err }

// A BatchError is the error of [Decorator.Summaries] when some documents
// failed; the others got their summaries, returned with it. Its message names no package, since the causes do.
type BatchError struct {
	// Failed lists the documents that failed, in document order.
	Failed []*DocumentError
}

func (e *BatchError) Error() string {
	return batch.Message(e.Failed)
}

// Unwrap returns the documents' errors, so that [errors.Is] and
// [errors.As] look into each of them.
func (e *BatchError) Unwrap() []error {
	return batch.Errors(e.Failed)
}
