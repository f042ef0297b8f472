package contextheader

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/segment"
)

// A piece is one part of one chunk's header, ready to render.
type piece struct {
	label string
	text  string
	path  []string // a Section part's headings, which are cut whole
	whole bool     // a part kept or dropped whole, never cut (a Table)
	prio  int
	// big says that the part alone counts more than MaxHeaderTokens, so
	// that every header that holds it whole is over budget; cuts are then
	// its ways to shorten it, found once per document (see measure).
	big  bool
	cuts [][]string
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
	h, n := d.count(ps, budget)
	if n <= budget {
		return h, n, false
	}
	for _, i := range cutOrder(ps) {
		if ps[i].text == "" {
			continue
		}
		whole := ps[i]
		ps[i].text, ps[i].big = "", false
		if h, n = d.count(ps, budget); n > budget {
			continue // dropping this part is not enough: cut the next one too
		}
		cuts := whole.cuts
		if !whole.big {
			cuts = shorter(whole)
		}
		for _, cands := range cuts {
			if ch, cn, ok := d.longest(ps, i, cands, budget); ok {
				return ch, cn, true
			}
		}
		return h, n, true
	}
	return h, n, true
}

// count joins the pieces and counts the header, or, when a piece is big
// (over any budget fit is given on its own), returns "" and budget+1
// without joining or counting a text that may be megabytes long.
func (d *Decorator) count(ps []piece, budget int) (string, int) {
	for _, p := range ps {
		if p.big {
			return "", budget + 1
		}
	}
	h := joinHeader(ps)
	return h, d.cfg.Tokenizer.Count(h)
}

// measure finds out, once per document, whether p (a title, metadata or
// a summary, the same for every chunk) counts more than MaxHeaderTokens on
// its own, and if so its ways to shorten it, so that fit, done per
// section, never segments or counts the whole of a large part: it is
// marked big, and fit cuts it from these.
//
// Only the start of the text is read: prefixes of 256, 512, ... bytes are
// counted until one is over the budget, and the ways to shorten it are
// those of twice that prefix, since no longer prefix fits in a header.
// The cost is in the header's size, not the text's.
func (d *Decorator) measure(p piece) piece {
	budget := d.cfg.MaxHeaderTokens
	probe := []piece{p}
	n := 256
	for ; n < len(p.text); n *= 2 {
		probe[0].text = p.text[:runeStart(p.text, n)]
		if d.cfg.Tokenizer.Count(joinHeader(probe)) > budget {
			break
		}
	}
	if n >= len(p.text) && d.cfg.Tokenizer.Count(joinHeader([]piece{p})) <= budget {
		return p
	}
	window := p
	window.text = p.text[:runeStart(p.text, min(2*n, len(p.text)))]
	p.big, p.cuts = true, shorter(window)
	return p
}

// runeStart returns i, or the start of the character that holds byte i.
func runeStart(s string, i int) int {
	for i < len(s) && i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
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
	if p.whole {
		return nil
	}
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
