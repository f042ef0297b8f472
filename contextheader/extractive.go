package contextheader

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/space"
	"github.com/ragkit/ragkit/segment"
)

// The defaults of [ExtractiveConfig]'s fields.
const (
	defaultExtractiveSentences = 1
	defaultExtractiveChars     = 300
)

// ExtractiveConfig configures an [Extractive] summarizer. The zero value
// gives one sentence of at most 300 characters.
type ExtractiveConfig struct {
	// Sentences is how many sentences to pick; zero means 1.
	// Negative is an error.
	Sentences int
	// MaxChars caps the summary's length in characters; zero means 300.
	// Sentences that would take the summary
	// over it are left out, and a first sentence longer than it is cut
	// at a word. Negative is an error.
	MaxChars int
}

// Extractive is a [Summarizer] that needs no model: it copies sentences
// out of the document. It picks the document's first informative
// sentence (one of six words or more that ends in a full stop, question
// or exclamation mark and is mostly letters: not a heading, a label, a
// table row or a line of code), and, if configured for more, the next
// informative sentences that mention a name or a number (a capitalised
// word inside the sentence, a word with a digit). One sentence is the
// default because a header competes with its chunk: every further
// sentence adds words that have nothing to do with the chunk.
//
// What it is: a deterministic, offline, fast way to put the words that
// name a document (its subject, organisation, dates, reference numbers)
// into every chunk's header, which is what lexical and neural retrieval
// of context-poor chunks need most; the same text always gives the same
// summary. What it is not: a summary written for people. It does not
// paraphrase, shorten sentences, resolve pronouns or understand the text,
// and it relies on capitalisation and punctuation, so it does little for
// scripts without case and for text without sentences (tables, code,
// lists); an opening sentence of boilerplate becomes the summary. Use a
// language model through a Summarizer for summaries worth reading.
//
// It implements [DocumentSummarizer], so a [Decorator] gives it the start
// of the raw document rather than a prompt. Its Summarize method reads
// its text as the document too, which makes it unsuitable for the
// ChunkContext part: it would copy sentences from the prompt. The zero
// Extractive (and a nil *Extractive) is the default configuration. It is
// safe for concurrent use.
type Extractive struct {
	cfg ExtractiveConfig
}

// NewExtractive returns an extractive summarizer; a negative field is an
// error wrapping [ErrConfig].
func NewExtractive(cfg ExtractiveConfig) (*Extractive, error) {
	if cfg.Sentences < 0 || cfg.MaxChars < 0 {
		return nil, fmt.Errorf("%w: ExtractiveConfig fields must not be negative (Sentences %d, MaxChars %d)",
			ErrConfig, cfg.Sentences, cfg.MaxChars)
	}
	return &Extractive{cfg: cfg}, nil
}

// Config returns the configuration with its defaults resolved.
func (e *Extractive) Config() ExtractiveConfig {
	var cfg ExtractiveConfig
	if e != nil {
		cfg = e.cfg
	}
	if cfg.Sentences <= 0 {
		cfg.Sentences = defaultExtractiveSentences
	}
	if cfg.MaxChars <= 0 {
		cfg.MaxChars = defaultExtractiveChars
	}
	return cfg
}

// Summarize returns the summary of text, read as a document.
func (e *Extractive) Summarize(ctx context.Context, text string) (string, error) {
	return e.SummarizeDocument(ctx, text)
}

// SummarizeDocument returns the summary of document. A document that is
// not valid UTF-8, or empty or white space, is an error wrapping
// [ErrInvalidDocument]. A document without an
// informative sentence is summarised by its first words.
func (e *Extractive) SummarizeDocument(ctx context.Context, document string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if err := checkText(document); err != nil {
		return "", err
	}
	cfg := e.Config()
	cands := informative(document)
	if len(cands) == 0 {
		return cutChars(space.OneLine(document), cfg.MaxChars), nil
	}
	return joinWithin(pick(cands, cfg.Sentences), cfg.MaxChars), nil
}

// A candidate is an informative sentence and the names and numbers in it.
type candidate struct {
	text  string
	named bool // it mentions a name or a number
}

// informative returns the document's informative sentences in order.
func informative(doc string) []candidate {
	var out []candidate
	for _, sp := range segment.Sentences(doc) {
		s := dropHeadingLines(doc[sp.Start:sp.End])
		words := strings.Fields(s)
		if len(words) < 6 || !sentenceLike(s) {
			continue
		}
		out = append(out, candidate{text: strings.Join(words, " "), named: named(words)})
	}
	return out
}

// dropHeadingLines drops the lines at the start of a sentence that end
// without punctuation: headings and labels that the sentence segmenter
// kept with the sentence after them.
func dropHeadingLines(s string) string {
	for {
		line, rest, ok := strings.Cut(s, "\n")
		if !ok {
			return s
		}
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") && endsSentence(l) {
			return s
		}
		s = rest
	}
}

func endsSentence(s string) bool {
	s = strings.TrimRight(s, "\"')]”’»*_")
	r, _ := utf8.DecodeLastRuneInString(s)
	return r == '.' || r == '!' || r == '?'
}

// sentenceLike reports a sentence that ends as one and is mostly
// letters: not a table row, a heading or code.
func sentenceLike(s string) bool {
	if !endsSentence(s) || strings.ContainsAny(s, "|`{}<>") {
		return false
	}
	letters, other := 0, 0
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letters++
		case !unicode.IsSpace(r):
			other++
		}
	}
	return letters >= 2*other
}

// named reports whether a sentence mentions a name or a number: a word
// that starts with a capital (except the first word, capitalised anyway)
// or that holds a digit, without its surrounding punctuation.
func named(words []string) bool {
	for i, w := range words {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if w == "" {
			continue
		}
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsUpper(r) && i > 0 || strings.ContainsFunc(w, unicode.IsDigit) {
			return true
		}
	}
	return false
}

// pick returns the first n candidates that mention a name or a number,
// the first candidate always included.
func pick(cands []candidate, n int) []candidate {
	out := cands[:1:1]
	for _, c := range cands[1:] {
		if len(out) == n {
			break
		}
		if c.named {
			out = append(out, c)
		}
	}
	return out
}

// joinWithin joins the sentences while they fit in maxChars characters;
// a first sentence that does not fit is cut at a word.
func joinWithin(cands []candidate, maxChars int) string {
	s := cutChars(cands[0].text, maxChars)
	n := utf8.RuneCountInString(s)
	for _, c := range cands[1:] {
		if m := utf8.RuneCountInString(c.text) + 1; n+m <= maxChars {
			s += " " + c.text
			n += m
		}
	}
	return s
}

// cutChars cuts s, a text on one line, to at most n characters, at a
// space if it has one there.
func cutChars(s string, n int) string {
	limit := runeOffset(s, n)
	if limit == len(s) || s[limit] == ' ' {
		return strings.TrimSpace(s[:limit])
	}
	if i := strings.LastIndexByte(s[:limit], ' '); i > 0 {
		return s[:i]
	}
	return s[:limit]
}
