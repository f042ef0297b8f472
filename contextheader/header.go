package contextheader

import (
	"slices"
	"strings"
	"unicode"

	"github.com/ragkit/ragkit/segment"
)

// A piece is one part of one chunk's header, ready to render.
type piece struct {
	label string
	text  string
	path  []string // a Section part's headings, which are cut whole
	prio  int
}

// joinHeader renders the pieces that have text, one per line.
func joinHeader(ps []piece) string {
	var b strings.Builder
	for _, p := range ps {
		if p.text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.label)
		b.WriteString(p.text)
	}
	return b.String()
}

// fit returns the header of ps within budget tokens by exact count, and
// whether it had to be cut. Parts are cut lowest priority first (among
// equal priorities, the later part first): each is cut to the longest
// prefix that lets the header fit, at a sentence end, or at a word end if
// not even its first sentence fits, and dropped if not even its first
// word fits; then the next part is cut. A section path loses its
// outermost headings first, and its innermost heading is cut at a word.
// ps is modified.
func (d *Decorator) fit(ps []piece, budget int) (string, int, bool) {
	h := joinHeader(ps)
	n := d.cfg.Tokenizer.Count(h)
	if n <= budget {
		return h, n, false
	}
	for _, i := range cutOrder(ps) {
		if ps[i].text == "" {
			continue
		}
		whole := ps[i]
		ps[i].text = ""
		h = joinHeader(ps)
		if n = d.cfg.Tokenizer.Count(h); n > budget {
			continue // dropping this part is not enough: cut the next one too
		}
		for _, cands := range shorter(whole) {
			if ch, cn, ok := d.longest(ps, i, cands, budget); ok {
				return ch, cn, true
			}
		}
		return h, n, true
	}
	return h, n, true
}

// longest finds, by binary search, the longest of cands (shortest first)
// that makes the header of ps fit with ps[i] set to it, counting each try
// exactly. It leaves ps[i] at the result, or empty.
func (d *Decorator) longest(ps []piece, i int, cands []string, budget int) (string, int, bool) {
	best, bestN, found := "", 0, -1
	lo, hi := 0, len(cands)-1
	for lo <= hi {
		mid := (lo + hi) / 2
		ps[i].text = cands[mid]
		h := joinHeader(ps)
		if n := d.cfg.Tokenizer.Count(h); n <= budget {
			best, bestN, found = h, n, mid
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	if found < 0 {
		ps[i].text = ""
		return "", 0, false
	}
	ps[i].text = cands[found]
	return best, bestN, true
}

// cutOrder returns the indices of ps in the order they give way.
func cutOrder(ps []piece) []int {
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if ps[a].prio != ps[b].prio {
			return ps[a].prio - ps[b].prio
		}
		return b - a
	})
	return order
}

// shorter returns the ways to shorten p, in the order to try them: each
// a list of texts, shortest first, shorter than p's text. For text, its
// sentence prefixes, then the word prefixes of its first sentence. For a
// section path, its innermost headings without the outer ones, then the
// word prefixes of the innermost heading.
func shorter(p piece) [][]string {
	if p.path != nil {
		var tails []string
		for i := len(p.path) - 1; i > 0; i-- {
			tails = append(tails, strings.Join(p.path[i:], PathSeparator))
		}
		return [][]string{tails, wordPrefixes(p.path[len(p.path)-1])}
	}
	ends := sentenceEnds(p.text)
	first := p.text
	if len(ends) > 0 {
		first = p.text[:ends[0]]
	}
	var sentences []string
	for _, e := range ends {
		if e < len(p.text) {
			sentences = append(sentences, p.text[:e])
		}
	}
	return [][]string{sentences, wordPrefixes(first)}
}

func sentenceEnds(s string) []int {
	spans := segment.Sentences(s)
	ends := make([]int, len(spans))
	for i, sp := range spans {
		ends[i] = sp.End
	}
	return ends
}

// wordPrefixes returns the prefixes of s that end after a word holding a
// letter or digit, shortest first, without s itself.
func wordPrefixes(s string) []string {
	var out []string
	for _, w := range segment.Words(s) {
		if w.End < len(s) && strings.IndexFunc(s[w.Start:w.End], isWordRune) >= 0 {
			out = append(out, s[:w.End])
		}
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
