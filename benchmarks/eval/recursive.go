package eval

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

// The separators of LangChain's RecursiveCharacterTextSplitter: its
// default list for text, and the list of from_language(Language.MARKDOWN)
// (regular expressions). The empty separator, last, splits between
// characters.
var (
	textSeparators     = separators(regexp.QuoteMeta("\n\n"), regexp.QuoteMeta("\n"), regexp.QuoteMeta(" "))
	markdownSeparators = separators(`\n#{1,6} `, "```\n", `\n\*\*\*+\n`, `\n---+\n`, `\n___+\n`, `\n\n`, `\n`, ` `)
)

func separators(patterns ...string) []*regexp.Regexp {
	out := make([]*regexp.Regexp, 0, len(patterns)+1)
	for _, p := range patterns {
		out = append(out, regexp.MustCompile(p))
	}
	return append(out, nil) // nil: between characters
}

// RecursiveSplit cuts text the way LangChain's RecursiveCharacterTextSplitter
// does with a token length function (from_tiktoken_encoder), keep_separator
// and strip_whitespace at their defaults and no overlap: the greedy
// baseline. It splits the text at the first separator of the list that
// occurs in it (for text: blank line, line break, space, then between
// characters; for Markdown the Markdown list, headings first), keeping
// each separator at the start of the piece after it; packs consecutive
// pieces shorter than maxTokens into a chunk until the next would take
// the sum of the pieces' counts over maxTokens; and splits a piece of
// maxTokens or more again with the rest of the list. Chunks are trimmed of
// white space. As in LangChain, a chunk's size is the sum of its pieces'
// counts, not the count of the chunk, so a chunk can count a token or two
// more or less than that sum.
//
// It returns the chunks' byte spans in text, in order. A nil tok or a
// maxTokens below 1 gives an error wrapping ErrConfig.
func RecursiveSplit(tok tokencount.Tokenizer, maxTokens int, format document.Format, text string) ([]segment.Span, error) {
	if tok == nil || maxTokens < 1 {
		return nil, fmt.Errorf("%w: RecursiveSplit needs a Tokenizer and maxTokens >= 1, got %d", ErrConfig, maxTokens)
	}
	seps := textSeparators
	if format == document.Markdown {
		seps = markdownSeparators
	}
	r := recursive{tok: tok, max: maxTokens, text: text}
	r.split(segment.Span{Start: 0, End: len(text)}, seps)
	return r.out, nil
}

type recursive struct {
	tok  tokencount.Tokenizer
	max  int
	text string
	out  []segment.Span
}

func (r *recursive) count(sp segment.Span) int { return r.tok.Count(r.text[sp.Start:sp.End]) }

// split is LangChain's _split_text on r.text[sp].
func (r *recursive) split(sp segment.Span, seps []*regexp.Regexp) {
	sep, rest := seps[len(seps)-1], []*regexp.Regexp(nil)
	for i, s := range seps {
		if s == nil || s.MatchString(r.text[sp.Start:sp.End]) {
			sep, rest = s, seps[i+1:]
			break
		}
	}
	var good []segment.Span
	var counts []int // of the good pieces, which LangChain counts again to merge them
	for _, piece := range r.pieces(sp, sep) {
		if n := r.count(piece); n < r.max {
			good, counts = append(good, piece), append(counts, n)
			continue
		}
		r.merge(good, counts)
		good, counts = nil, nil
		if len(rest) == 0 {
			r.emit(piece)
		} else {
			r.split(piece, rest)
		}
	}
	r.merge(good, counts)
}

// pieces cuts sp before every match of sep (between characters if sep is
// nil), dropping empty pieces.
func (r *recursive) pieces(sp segment.Span, sep *regexp.Regexp) []segment.Span {
	var cuts []int
	if sep == nil {
		for i := range r.text[sp.Start:sp.End] {
			cuts = append(cuts, sp.Start+i)
		}
	} else {
		cuts = append(cuts, sp.Start)
		for _, m := range sep.FindAllStringIndex(r.text[sp.Start:sp.End], -1) {
			cuts = append(cuts, sp.Start+m[0])
		}
	}
	cuts = append(cuts, sp.End)
	var out []segment.Span
	for i := 1; i < len(cuts); i++ {
		if cuts[i] > cuts[i-1] {
			out = append(out, segment.Span{Start: cuts[i-1], End: cuts[i]})
		}
	}
	return out
}

// merge is LangChain's _merge_splits with no overlap: it packs consecutive
// pieces while the sum of their counts (counts[i] is pieces[i]'s) stays
// within r.max.
func (r *recursive) merge(pieces []segment.Span, counts []int) {
	var cur segment.Span
	total, n := 0, 0
	for i, p := range pieces {
		c := counts[i]
		if total+c > r.max && n > 0 {
			r.emit(cur)
			total, n = 0, 0
		}
		if n == 0 {
			cur.Start = p.Start
		}
		cur.End = p.End
		total += c
		n++
	}
	if n > 0 {
		r.emit(cur)
	}
}

// emit appends sp trimmed of white space, unless nothing is left.
func (r *recursive) emit(sp segment.Span) {
	s := r.text[sp.Start:sp.End]
	trimmed := strings.TrimLeftFunc(s, unicode.IsSpace)
	sp.Start += len(s) - len(trimmed)
	trimmed = strings.TrimRightFunc(trimmed, unicode.IsSpace)
	sp.End = sp.Start + len(trimmed)
	if sp.End > sp.Start {
		r.out = append(r.out, sp)
	}
}
