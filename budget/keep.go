package budget

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/ragkit/ragkit/internal/space"
	"github.com/ragkit/ragkit/segment"
)

// keepCuts are the cuts of an item with protected spans (Item.Keep),
// ordered by what they keep, least first. The text is cut at sentence
// boundaries: the sentences that hold the first span are kept longest,
// then those of the second span (those next to the sentences kept
// already first), and so on; the other sentences follow by their
// distance from the nearest span, so that the text farthest from every
// span goes first. Only when not even the first span's sentences fit are
// they cut at words: the words of the first span from its start, then
// the words around it. Each cut keeps a superset of the text of the cut
// before it, so the search over cuts stays a search over a growing text.
type keepCuts struct {
	text  string
	sents []segment.Span // the text's sentences, in text order
	// order lists sentence indices, kept longest first: sentence cut m
	// keeps sents[order[:first+m]], first being the number of sentences
	// the first span touches.
	order []int
	first int
	// words are the cuts inside the first span's sentences, as single
	// stretches of them, shortest first; they come before the sentence
	// cuts.
	words []segment.Span
	// tokSum and gaps are, for the first m+1 sentences of the order, the
	// estimated tokens of those sentences and the number of markers they
	// need; computed on the first estimate.
	tokSum, gaps []int
}

func newKeepCuts(text string, sents, keep []segment.Span) *keepCuts {
	k := &keepCuts{text: text, sents: sents}
	k.order, k.first = keepOrder(sents, keep)
	lo, hi := k.order[0], k.order[k.first-1] // the first span's sentences, in text order
	k.words = wordStretches(text, segment.Span{Start: sents[lo].Start, End: sents[hi].End}, keep[0])
	return k
}

// keepOrder orders the sentences by how long they are kept: the
// sentences of each span in turn, those next to the sentences taken
// already first (see nearestFirst), then the rest nearest to a span
// first (ties in text order). It is O(n log n) in the
// sentences and spans, however the spans overlap: a sentence already
// taken is skipped, not visited again. It also returns how many
// sentences the first span touches.
func keepOrder(sents, keep []segment.Span) ([]int, int) {
	n := len(sents)
	taken := make([]bool, n)
	next := make([]int, n+1) // next[i]: a lower bound of the first untaken sentence >= i
	for i := range next {
		next[i] = i
	}
	var find func(i int) int
	find = func(i int) int {
		for next[i] != i {
			next[i] = next[next[i]] // path halving
			i = next[i]
		}
		return i
	}
	order := make([]int, 0, n)
	first := 0
	for j, h := range keep {
		lo := sort.Search(n, func(i int) bool { return sents[i].End > h.Start })
		hi := sort.Search(n, func(i int) bool { return sents[i].Start >= h.End })
		if lo == hi { // a span in the space between sentences: the next one
			lo = min(lo, n-1)
			hi = lo + 1
		}
		var batch []int
		for i := find(lo); i < hi; i = find(i) {
			batch = append(batch, i)
			next[i] = i + 1
		}
		order = append(order, nearestFirst(batch, taken)...)
		for _, i := range batch {
			taken[i] = true
		}
		if j == 0 {
			first = len(order)
		}
	}
	spans := mergeSpans(keep)
	rest := make([]int, 0, n-len(order))
	dist := make([]int, n)
	for i, s := range sents {
		if !taken[i] {
			rest = append(rest, i)
			dist[i] = distance(spans, s)
		}
	}
	slices.SortFunc(rest, func(a, b int) int { return cmp.Or(cmp.Compare(dist[a], dist[b]), cmp.Compare(a, b)) })
	return append(order, rest...), first
}

// nearestFirst orders batch, ascending sentence indices not taken, by
// their distance in sentences from the nearest taken sentence, ties in
// text order: a span's sentences next to the ones kept already (a focus
// sentence inside a hit) are kept before those far from them. It is
// linear in the batch: a run of consecutive indices is bounded by taken
// sentences or by none.
func nearestFirst(batch []int, taken []bool) []int {
	dist := make([]int, len(batch))
	for s := 0; s < len(batch); {
		e := s
		for e+1 < len(batch) && batch[e+1] == batch[e]+1 {
			e++
		}
		a, b := batch[s], batch[e]
		left := a > 0 && taken[a-1]
		right := b+1 < len(taken) && taken[b+1]
		for t := s; t <= e; t++ {
			d := len(taken) // no taken neighbour: text order
			if left {
				d = batch[t] - a + 1
			}
			if right {
				d = min(d, b-batch[t]+1)
			}
			dist[t] = d
		}
		s = e + 1
	}
	idx := make([]int, len(batch))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(dist[x], dist[y]) })
	out := make([]int, len(batch))
	for i, k := range idx {
		out[i] = batch[k]
	}
	return out
}

// mergeSpans returns the union of spans as disjoint spans in order.
func mergeSpans(spans []segment.Span) []segment.Span {
	m := slices.Clone(spans)
	slices.SortFunc(m, func(a, b segment.Span) int { return cmp.Compare(a.Start, b.Start) })
	out := m[:0]
	for _, s := range m {
		if len(out) > 0 && s.Start <= out[len(out)-1].End {
			out[len(out)-1].End = max(out[len(out)-1].End, s.End)
			continue
		}
		out = append(out, s)
	}
	return out
}

// distance returns the bytes between s and the nearest of spans, which
// are disjoint and in order; 0 if s overlaps one.
func distance(spans []segment.Span, s segment.Span) int {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].Start >= s.End })
	d := -1
	if i < len(spans) {
		d = spans[i].Start - s.End
	}
	if i > 0 {
		b := max(0, s.Start-spans[i-1].End)
		if d < 0 || b < d {
			d = b
		}
	}
	return d
}

// wordStretches returns the cuts inside the stretch s of sentences,
// shortest first: the words of span h from its first one, then one word
// more on each side in turn, short of the whole stretch.
func wordStretches(text string, s, h segment.Span) []segment.Span {
	ws := segment.Words(text[s.Start:s.End])
	if len(ws) < 2 {
		return nil
	}
	for i := range ws {
		ws[i].Start += s.Start
		ws[i].End += s.Start
	}
	a := sort.Search(len(ws), func(i int) bool { return ws[i].End > h.Start })
	a = min(a, len(ws)-1)
	b := a
	for b+1 < len(ws) && ws[b+1].Start < h.End {
		b++
	}
	var out []segment.Span
	for i := a; i <= b; i++ {
		out = append(out, segment.Span{Start: ws[a].Start, End: ws[i].End})
	}
	for l, r := a, b; l > 0 || r < len(ws)-1; {
		if r < len(ws)-1 {
			r++
			out = append(out, segment.Span{Start: ws[l].Start, End: ws[r].End})
		}
		if l > 0 {
			l--
			out = append(out, segment.Span{Start: ws[l].Start, End: ws[r].End})
		}
	}
	return out[:len(out)-1] // the last is every word of the stretch
}

// n returns the number of cuts: the word cuts, and a sentence cut for
// every number of sentences short of all of them.
func (k *keepCuts) n() int { return len(k.words) + len(k.sents) - k.first }

// est estimates the tokens kept by cut j, markers included at markTok
// each. ends are the token ends of the whole text; without them (a
// tokenizer that counts more tokens than bytes), tokens is the count of
// the whole text, shared by bytes.
func (k *keepCuts) est(j, markTok int, ends []int, tokens int) int {
	toks := func(s segment.Span) int {
		if ends == nil {
			return int(float64(tokens) * float64(s.End-s.Start) / float64(len(k.text)))
		}
		lo, _ := slices.BinarySearch(ends, s.Start+1) // tokens ending at or before Start
		hi, _ := slices.BinarySearch(ends, s.End+1)
		if hi == 0 || ends[hi-1] != s.End {
			hi++ // a token straddles the end
		}
		return hi - lo
	}
	if j < len(k.words) {
		w := k.words[j]
		return toks(w) + markTok*k.marks(w.Start, w.End)
	}
	if k.tokSum == nil {
		k.sums(toks)
	}
	m := j - len(k.words) + k.first - 1
	return k.tokSum[m] + markTok*k.gaps[m]
}

// marks returns how many markers a single stretch text[a:b] needs: one
// for text left out before it, one for text left out after it.
func (k *keepCuts) marks(a, b int) int {
	n := 0
	if space.Skip(k.text, 0, a) < a {
		n++
	}
	if space.Skip(k.text, b, len(k.text)) < len(k.text) {
		n++
	}
	return n
}

// sums fills tokSum and gaps, indexed by the number of sentences kept
// less one, in one pass over the order: a sentence
// taken between two sentences left out splits their run in two, one
// taken between two kept ones joins two runs.
func (k *keepCuts) sums(toks func(segment.Span) int) {
	n := len(k.sents)
	k.tokSum, k.gaps = make([]int, n-1), make([]int, n-1)
	kept := make([]bool, n)
	sum, runs := 0, 1 // runs of sentences left out
	out := func(i int) bool { return i >= 0 && i < n && !kept[i] }
	for m, i := range k.order[:n-1] {
		switch l, r := out(i-1), out(i+1); {
		case l && r:
			runs++
		case !l && !r:
			runs--
		}
		kept[i] = true
		sum += toks(k.sents[i])
		k.tokSum[m], k.gaps[m] = sum, runs
	}
}

// kept returns the text kept by cut j: its stretches of the text in text
// order, with marker where text was left out before, between and after
// them. The marker is set off from a kept stretch by the break the text
// had there: a blank line, a line break or a space.
func (k *keepCuts) kept(j int, marker string) string {
	stretches := k.stretches(j)
	var b strings.Builder
	prev := 0
	for _, s := range stretches {
		if gap := space.Skip(k.text, prev, s.Start); gap < s.Start { // text left out before s
			if prev > 0 {
				b.WriteString(breakOf(k.text[prev:gap]))
			}
			b.WriteString(marker)
			b.WriteString(breakOf(k.text[space.Back(k.text, prev, s.Start):s.Start]))
		} else if prev > 0 {
			b.WriteString(k.text[prev:s.Start])
		}
		b.WriteString(k.text[s.Start:s.End])
		prev = s.End
	}
	if gap := space.Skip(k.text, prev, len(k.text)); gap < len(k.text) {
		b.WriteString(breakOf(k.text[prev:gap]))
		b.WriteString(marker)
	}
	return b.String()
}

// held sets out[i] to whether cut j keeps spans[i] whole (its white
// space at either end aside), with one pass over the cut's stretches and
// a binary search per span.
func (k *keepCuts) held(j int, spans []segment.Span, out []bool) {
	ts := k.stretches(j)
	for i, s := range spans {
		a, b := space.Trim(k.text, s.Start, s.End)
		t := sort.Search(len(ts), func(t int) bool { return ts[t].End >= b }) // the first stretch that may hold b
		out[i] = t < len(ts) && ts[t].Start <= a && a < b
	}
}

// stretches returns the stretches of the text that cut j keeps, in text
// order.
func (k *keepCuts) stretches(j int) []segment.Span {
	if j < len(k.words) {
		return []segment.Span{k.words[j]}
	}
	return k.sentenceStretches(j - len(k.words) + k.first - 1)
}

// sentenceStretches returns the stretches kept by the first m+1
// sentences of the order: in text order, neighbours joined with the space between them.
func (k *keepCuts) sentenceStretches(m int) []segment.Span {
	idx := slices.Clone(k.order[:m+1])
	slices.Sort(idx)
	var out []segment.Span
	for t, i := range idx {
		if t > 0 && idx[t-1] == i-1 {
			out[len(out)-1].End = k.sents[i].End
			continue
		}
		out = append(out, k.sents[i])
	}
	return out
}

// breakOf returns the break that white space ws stands for: a blank line
// if it holds one, a line break if it holds one, else a space.
func breakOf(gap string) string {
	switch {
	case strings.Contains(gap, "\n\n"):
		return "\n\n"
	case strings.Contains(gap, "\n"):
		return "\n"
	}
	return " "
}
