package contextheader

import (
	"errors"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/space"
	"github.com/ragkit/ragkit/segment"
)

// Placeholders of the prompt templates.
const (
	// DocumentPlaceholder marks where the start of the document goes.
	DocumentPlaceholder = "{document}"
	// ChunkPlaceholder marks where the chunk's text goes.
	ChunkPlaceholder = "{chunk}"
)

// DefaultSummaryPrompt asks for a summary that names what a chunk cut from
// the document would not: its subject, period and organisation. It is
// plain English with no example, so that the model answers in the
// document's language rather than in an example's.
const DefaultSummaryPrompt = `Write one or two sentences that say what the document below is about. Name its subject, the period it covers and the organisation it comes from, where the document states them. Answer with the sentences only, in the language of the document.

<document>
{document}
</document>`

// DefaultChunkContextPrompt asks for a short context that situates one
// chunk in its document, in the manner of Anthropic's contextual
// retrieval. The document comes first, so that the prompts of a
// document's chunks share everything up to the chunk.
const DefaultChunkContextPrompt = `<document>
{document}
</document>

Here is a chunk from the document above:

<chunk>
{chunk}
</chunk>

Write one short sentence that situates this chunk within the document, to improve search retrieval of the chunk: name the document's subject and the part of it the chunk belongs to. Answer with the sentence only, in the language of the document.`

// prompt is a template split at its placeholders: head {document} mid
// {chunk} tail (mid is empty and unused for a document prompt).
type prompt struct{ head, mid, tail string }

// errPrompt says what a prompt template must hold.
const errPrompt = "must contain " + DocumentPlaceholder + " once (and " + ChunkPlaceholder + " once after it, for chunk context)"

func parsePrompt(t string, chunk bool) (prompt, error) {
	if strings.Count(t, DocumentPlaceholder) != 1 {
		return prompt{}, errors.New(errPrompt)
	}
	head, rest, _ := strings.Cut(t, DocumentPlaceholder)
	if !chunk {
		return prompt{head: head, tail: rest}, nil
	}
	if strings.Count(t, ChunkPlaceholder) != 1 || !strings.Contains(rest, ChunkPlaceholder) {
		return prompt{}, errors.New(errPrompt)
	}
	mid, tail, _ := strings.Cut(rest, ChunkPlaceholder)
	return prompt{head: head, mid: mid, tail: tail}, nil
}

func (p prompt) document(doc string) string { return p.head + doc + p.tail }

func (p prompt) chunk(doc, chunk string) string { return p.head + doc + p.mid + chunk + p.tail }

// excerpt returns the start of text, at most chars characters, cut back
// to the end of the last sentence that fits; to a word end if not even
// one sentence fits, and to a character if not even one word does.
func excerpt(text string, chars int) string {
	first, last := space.Trim(text, 0, len(text))
	text = text[first:last]
	limit := runeOffset(text, chars)
	if limit == len(text) {
		return text
	}
	// Sentence ends depend on what follows them, so look a little past the
	// limit; a boundary well before the end of the window is final, and a
	// word that runs past the limit is not taken for one that ends there.
	window := text[:runeOffset(text, chars+200)]
	if end := lastEndWithin(segment.Sentences(window), limit); end > 0 {
		return text[:end]
	}
	if end := lastEndWithin(segment.Words(window), limit); end > 0 {
		return text[:end]
	}
	return text[:limit]
}

// runeOffset returns the byte offset after the first n characters of s.
func runeOffset(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// lastEndWithin returns the largest span end at most limit, or 0.
func lastEndWithin(spans []segment.Span, limit int) int {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].End > limit })
	if i == 0 {
		return 0
	}
	return spans[i-1].End
}
