package chunker

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
)

// Errors returned by [New] and [Split]. Returned errors wrap one of these, so
// test for them with [errors.Is].
var (
	// ErrConfig means a setting of the Config is invalid (the message
	// names the field, its value and what is allowed), or the Chunker was
	// not made by New.
	ErrConfig = errors.New("chunker: invalid configuration")

	// ErrEmptyText means the text holds no non-space character, so there
	// is nothing to chunk. Callers that process many documents can skip
	// such a document by testing for it with [errors.Is].
	ErrEmptyText = errors.New("chunker: text is empty or only white space")
	// ErrInvalidUTF8 means the text is not valid UTF-8. Chunk boundaries
	// are grapheme boundaries, which invalid bytes do not have; convert
	// the text first (for example with [strings.ToValidUTF8]).
	ErrInvalidUTF8 = errors.New("chunker: text is not valid UTF-8")
	// ErrGraphemeTooLong means a single grapheme cluster counts more than
	// MaxTokens tokens and Config.KeepGraphemes forbids cutting it, or
	// that a single code point does (a white space character inside a
	// cluster counts with the code point after it).
	ErrGraphemeTooLong = errors.New("chunker: a grapheme cluster is longer than MaxTokens")
	// ErrTokenizer means the Tokenizer misbehaved: it returned a negative
	// count, or counted the same text differently on two calls (a
	// Tokenizer must be deterministic).
	ErrTokenizer = errors.New("chunker: Tokenizer counts are inconsistent")
)

// Strategy chooses how cuts are placed once the chunker knows where it
// may cut.
type Strategy int

const (
	// Balanced, the default, makes the fewest chunks the boundaries allow
	// and then places the cuts so that the chunks are as equal in size as
	// the boundaries allow, preferring strong boundaries. A long text is
	// planned in stretches between anchors, so that an edit changes few
	// chunks. See the package documentation.
	Balanced Strategy = iota
	// Greedy fills each chunk as far as it can before cutting, as most
	// splitters do, which leaves an arbitrarily small last chunk. It
	// makes as many chunks as Balanced (a few percent fewer on a text
	// long enough for stretches) and exists as a baseline to compare
	// with.
	Greedy
)

var strategyNames = [...]string{Balanced: "Balanced", Greedy: "Greedy"}

// String returns the constant's name, such as "Greedy".
func (s Strategy) String() string {
	if s < 0 || int(s) >= len(strategyNames) {
		return "Strategy(" + strconv.Itoa(int(s)) + ")"
	}
	return strategyNames[s]
}

// Config configures a [Chunker]. The zero values of the optional fields
// give plain-text, balanced chunks with no overlap and no floor.
type Config struct {
	// Tokenizer counts tokens; required. Chunks are sized and counted
	// with it. A Tokenizer that also implements [tokencount.Offsetter]
	// (every tokencount encoding does) is tokenized once per Split to
	// size the chunks; any other is sampled by word (see
	// [tokencount.AppendTokenEnds]). A tiktoken encoding's exact counts
	// of the chunks come from that pass and the chunks' edges; any other
	// Tokenizer counts every chunk with Count.
	Tokenizer tokencount.Tokenizer
	// MaxTokens is the hard ceiling: no chunk is ever longer, by the
	// Tokenizer's exact count of the chunk's Text. Required, positive.
	MaxTokens int
	// MinTokens is an optional floor, met wherever the text allows: no
	// chunk is shorter unless the whole text is, or a code block or table
	// that is never split leaves a shorter neighbour. It may be at most
	// half of MaxTokens-OverlapTokens: a higher floor leaves texts whose
	// length falls between k chunks at the ceiling and k+1 chunks at the
	// floor with no plan at all (with MinTokens equal to MaxTokens, nearly
	// every chunk would miss it), so New refuses it. 0, the default, lets
	// the balancing decide.
	MinTokens int
	// OverlapTokens, if positive, makes every chunk after the first begin
	// with whole sentences (or words, where no whole sentence fits)
	// repeated from the end of the previous chunk, at most OverlapTokens
	// tokens of them. Must be below MaxTokens.
	OverlapTokens int
	// Format is how to read the text's structure: document.Text (the
	// default), whose headings are heading-like lines, or
	// document.Markdown.
	Format document.Format
	// Strategy is Balanced (the default) or Greedy.
	Strategy Strategy
	// StretchChunks trades chunk count against edit stability in the
	// Balanced strategy, which plans the text in stretches between anchors
	// (see Edit stability in the package documentation): anchors lie at
	// least StretchChunks chunks apart, and an edit changes the chunks of
	// its own stretch at most. Shorter stretches make an edit change fewer
	// chunks; each stretch rounds its own count of chunks up, so they also
	// make more chunks. 0, the default, is (8 + MaxTokens/32)/2 chunks;
	// math.MaxInt plans the whole text at once, for the fewest chunks and
	// the least stability. Must not be negative. Greedy ignores it.
	StretchChunks int
	// KeepGraphemes makes a grapheme cluster that counts more than
	// MaxTokens on its own an error wrapping [ErrGraphemeTooLong]. By
	// default (false) such a cluster (an emoji family is 18 cl100k_base
	// tokens; a letter can carry thousands of combining marks) is cut
	// between its code points, and the chunks on either side of such a cut
	// report the [Rune] boundary; only a single code point longer than
	// MaxTokens is then an error (a white space character in such a
	// cluster is not cut from the code point after it, or, last, before
	// it). Set it where a chunk must never split
	// what a reader sees as one character.
	KeepGraphemes bool
}

// Boundary is the kind of boundary at which the text was cut before a
// chunk, strongest first.
type Boundary int

const (
	// DocumentStart marks the first chunk: there is no cut before it.
	DocumentStart Boundary = iota
	// Heading is a cut before a heading (of Markdown, or a heading line of
	// plain text), which opens a section.
	Heading
	// Block is a cut between Markdown blocks: before or after fenced code,
	// a table, a list, a block quote or a thematic break, and between
	// the items of a list.
	Block
	// Paragraph is a cut at a blank line.
	Paragraph
	// Line is a cut at a single line break that is a real break: a verse
	// line, a row of a table or a line of code that did not fit whole.
	Line
	// Sentence is a cut between sentences.
	Sentence
	// Clause is a cut after clause punctuation (, ; : and dashes) inside
	// a sentence too long for a chunk.
	Clause
	// Word is a cut between words inside a clause too long for a chunk.
	Word
	// Grapheme is a cut between grapheme clusters inside a word too long
	// for a chunk.
	Grapheme
	// Rune is a cut between the code points of a single grapheme cluster
	// that counts more than MaxTokens on its own (an emoji sequence, a
	// letter with thousands of combining marks); see Config.KeepGraphemes.
	Rune
)

var boundaryNames = [...]string{DocumentStart: "DocumentStart", Heading: "Heading", Block: "Block", Paragraph: "Paragraph",
	Line: "Line", Sentence: "Sentence", Clause: "Clause", Word: "Word", Grapheme: "Grapheme", Rune: "Rune"}

// String returns the constant's name, such as "Sentence".
func (b Boundary) String() string {
	if b < 0 || int(b) >= len(boundaryNames) {
		return "Boundary(" + strconv.Itoa(int(b)) + ")"
	}
	return boundaryNames[b]
}

// A Chunk is a piece of the text given to [Chunker.Split].
type Chunk struct {
	// Index is the chunk's position in the result, from 0.
	Index int
	// Start and End are byte offsets into the text: text[Start:End] == Text.
	Start, End int
	// Text is the chunk, a substring of the input without surrounding
	// white space. White space is trimmed in whole grapheme clusters: a
	// space that carries a combining mark or a joiner (" \u0301") is a
	// character that a chunk may start with, and a chunk starts and ends
	// at grapheme boundaries (see [Rune] for the one exception).
	Text string
	// Tokens is the Tokenizer's exact count of Text; never above MaxTokens.
	Tokens int
	// Boundary is the kind of boundary the text was cut at before this
	// chunk (DocumentStart for the first). With overlap, the chunk begins
	// before that cut, at text[Start:previous.End], the repeated part.
	Boundary Boundary
}

// A Chunker splits texts into chunks. It is immutable once made and safe
// for concurrent use.
type Chunker struct {
	cfg    Config
	margin int // tokens kept free when planning, for estimate errors
}

// New validates cfg and returns a Chunker. An invalid setting returns an
// error wrapping [ErrConfig] that names the field, such as
// "chunker: invalid configuration: MaxTokens is -3: must be positive".
func New(cfg Config) (*Chunker, error) {
	if err := validate(cfg); err != nil {
		return nil, err
	}
	return &Chunker{cfg: cfg, margin: estimateMargin(cfg)}, nil
}

func validate(cfg Config) error {
	switch {
	case cfg.Tokenizer == nil:
		return fmt.Errorf("%w: Tokenizer is nil: required", ErrConfig)
	case cfg.MaxTokens <= 0:
		return fmt.Errorf("%w: MaxTokens is %d: must be positive", ErrConfig, cfg.MaxTokens)
	case cfg.OverlapTokens < 0 || cfg.OverlapTokens >= cfg.MaxTokens:
		return fmt.Errorf("%w: OverlapTokens is %d: must be at least 0 and below MaxTokens (%d)", ErrConfig, cfg.OverlapTokens, cfg.MaxTokens)
	case cfg.MinTokens < 0 || cfg.MinTokens > (cfg.MaxTokens-cfg.OverlapTokens)/2:
		return fmt.Errorf("%w: MinTokens is %d: must be between 0 and (MaxTokens-OverlapTokens)/2 (%d)", ErrConfig, cfg.MinTokens, (cfg.MaxTokens-cfg.OverlapTokens)/2)
	case !cfg.Format.Valid():
		return fmt.Errorf("%w: Format is %v: must be Text or Markdown", ErrConfig, cfg.Format)
	case cfg.Strategy < Balanced || cfg.Strategy > Greedy:
		return fmt.Errorf("%w: Strategy is %v: must be Balanced or Greedy", ErrConfig, cfg.Strategy)
	case cfg.StretchChunks < 0:
		return fmt.Errorf("%w: StretchChunks is %d: must not be negative", ErrConfig, cfg.StretchChunks)
	}
	return nil
}

// estimateMargin is how many tokens the planner keeps free in each chunk
// so that the exact count of a chunk rarely exceeds its estimate by more:
// the edges of a substring can tokenize differently from the same bytes
// inside the whole text. Estimates of other Tokenizers, sampled by word,
// are rougher.
func estimateMargin(cfg Config) int {
	m := 2
	if _, ok := cfg.Tokenizer.(tokencount.Offsetter); !ok {
		m += cfg.MaxTokens / 32
	}
	return m
}

// Config returns the configuration the Chunker was made with; the zero
// Config for a nil Chunker.
func (c *Chunker) Config() Config {
	if c == nil {
		return Config{}
	}
	return c.cfg
}

// Split cuts text into chunks; see the package documentation for how.
// The chunks are in order, none is empty, none is longer than MaxTokens by
// the Tokenizer's exact count, and without overlap they do not overlap and
// together hold every non-space character of text.
//
// Text with no non-space character returns an error wrapping
// [ErrEmptyText], invalid UTF-8 one wrapping [ErrInvalidUTF8] (with the
// offset of the first invalid byte), a code point longer than MaxTokens on
// its own (or, with KeepGraphemes, a grapheme cluster) one wrapping
// [ErrGraphemeTooLong], and a Tokenizer that returns a negative count one
// wrapping [ErrTokenizer]. A Chunker that was not made by New (its zero
// value, or nil) returns an error wrapping [ErrConfig].
func (c *Chunker) Split(text string) ([]Chunk, error) {
	if c == nil {
		return nil, fmt.Errorf("%w: nil Chunker: make one with New", ErrConfig)
	}
	return c.split(text, c.cfg.Format, nil)
}

// SplitDocument cuts doc.Text into chunks as [Chunker.Split] does, reading
// it as doc.Format rather than Config.Format (a Format that is not Valid
// reads as Text, as in [document.Headings]) and taking plain text's
// headings from doc's outline instead of finding them again: a document
// made by [document.Document.WithOutline] is parsed for headings once,
// by whoever made it. The chunks are those Split gives for doc.Text with
// Config.Format set to doc.Format. (Markdown's headings are found in the
// one pass that also finds its code, tables and lists, which the outline
// does not hold, so a Markdown document is read as Split reads it.)
func (c *Chunker) SplitDocument(doc document.Document) ([]Chunk, error) {
	if c == nil {
		return nil, fmt.Errorf("%w: nil Chunker: make one with New", ErrConfig)
	}
	format := doc.Format
	if format != document.Markdown {
		format = document.Text
	}
	var o *document.Outline
	if format == document.Text {
		o = doc.Outline()
	}
	return c.split(doc.Text, format, o)
}

// split is Split of text read as format, with plain text's headings from
// o if it is not nil.
func (c *Chunker) split(text string, format document.Format, o *document.Outline) ([]Chunk, error) {
	if err := validate(c.cfg); err != nil {
		return nil, err // a Chunker not made by New
	}
	if !utf8.ValidString(text) {
		return nil, fmt.Errorf("%w: first invalid byte at offset %d", ErrInvalidUTF8, firstInvalid(text))
	}
	first, last := trimText(text)
	if first >= last {
		return nil, ErrEmptyText
	}
	if last-first <= oneChunkBytes(c.cfg.MaxTokens) {
		// A text this short may well fit in one chunk: one count proves
		// it, where planning would cost several times as much.
		n, err := count(c.cfg.Tokenizer, text[first:last])
		if err != nil {
			return nil, err
		}
		if n <= c.cfg.MaxTokens {
			return []Chunk{{Start: first, End: last, Text: text[first:last], Tokens: n, Boundary: DocumentStart}}, nil
		}
	}
	s := newSplit(c, text, first, last)
	s.format, s.outline = format, o
	defer s.release()
	return s.run()
}

// oneChunkBytes is the length under which Split counts a text before
// planning, in case it fits in one chunk: eight bytes a token, twice what
// English prose takes, so that a text that fits is rarely planned and one
// that does not costs a count of at most a few chunks.
func oneChunkBytes(maxTokens int) int { return 8 * min(maxTokens, math.MaxInt/8) }

// count returns tok's count of text. A negative count breaks every promise
// about sizes, so it is an error.
func count(tok tokencount.Tokenizer, text string) (int, error) {
	n := tok.Count(text)
	if n < 0 {
		return 0, fmt.Errorf("%w: %d tokens for %q", ErrTokenizer, n, clip(text))
	}
	return n, nil
}

func firstInvalid(text string) int {
	for i, r := range text {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(text[i:]); n == 1 {
				return i
			}
		}
	}
	return len(text)
}
