package chunker

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/internal/listmark"
	"github.com/ragkit/ragkit/internal/markdown"
	"github.com/ragkit/ragkit/internal/space"
	"github.com/ragkit/ragkit/segment"
)

// addCands lists the candidate cuts of the blocks and inside prose
// blocks, in order, between a first and a last candidate at the ends of
// the text.
func (s *split) addCands() {
	// Room for the candidates of most texts (prose makes one every 30 to
	// 80 bytes), so that a long text's list is not regrown and copied
	// again and again, which made the bytes allocated per byte of text
	// grow with the text.
	if n := (s.last-s.first)/32 + 16; cap(s.cands) < n {
		s.cands = make([]cand, 0, n)
	}
	s.cands = append(s.cands, cand{end: s.first, start: s.first, rank: rStart, unit: s.blocks[0].unit()})
	for i := range s.blocks {
		b := &s.blocks[i]
		if i > 0 {
			s.cands = append(s.cands, cand{end: s.blocks[i-1].end, start: b.start, rank: b.gap, unit: b.unit()})
		}
		if b.prose() {
			s.addProseBlock(b)
		}
	}
	s.cands = append(s.cands, cand{end: s.last, start: s.last, rank: rStart, unit: uNone})
}

// maxProse bounds the text of a prose block that is segmented into
// sentences and lines at once. A longer block (a paragraph of megabytes,
// such as a text with no blank line) is read in parts cut at a line break
// (or a space) that the planner may cut at as at a wrap, so that the
// buffers of one part, not of the whole block, are in memory.
const maxProse = 1 << 16

// addProseBlock adds the candidates inside the prose block b, part by part.
func (s *split) addProseBlock(b *block) {
	part := *b
	for {
		part.end = s.partEnd(part.start, b.end)
		n := len(s.cands)
		s.addProse(&part)
		s.addClauses(n-1, part.end)
		if part.end == b.end {
			return
		}
		next := space.Skip(s.text, part.end, b.end)
		s.cands = append(s.cands, cand{end: part.end, start: next, rank: rWrap, unit: uProse})
		part = block{start: next, end: b.end, kind: markdown.KindParagraph}
	}
}

// partEnd returns where the part of a prose block that starts at start
// ends: at end, or after maxProse bytes at the end of a line, or of a word.
func (s *split) partEnd(start, end int) int {
	if end-start <= maxProse+maxProse/2 {
		return end
	}
	t := start + maxProse
	i := strings.IndexAny(s.text[t:end], "\n\r")
	if i < 0 || i > maxProse/2 {
		if i = strings.IndexByte(s.text[t:end], ' '); i < 0 {
			return end // one huge word: refinement reads it in windows
		}
	}
	return space.Back(s.text, start, t+i)
}

// lineInfo describes one line of a prose block.
type lineInfo struct {
	start, end int // trimmed
	ind        int // leading white space before start, in bytes
	width      int // characters from start to end
	hardBreak  bool
}

// addProse appends the candidates inside the prose block b: the real
// line breaks and the sentence boundaries, in order. Where both fall at
// the same place the line break, the stronger, wins.
func (s *split) addProse(b *block) {
	text := s.text
	breaks := s.realBreaks(b)
	sents := segment.AppendSentences(s.sents[:0], text[b.start:b.end])
	s.sents = sents
	marker := b.start // the end of a list item's marker, which no sentence ends
	if b.kind == markdown.KindItem {
		marker += markdown.MarkerLen(text[b.start:b.end])
	}
	// A long block's dense cuts are thinned, as refinement's are.
	th := thinner{last: b.start, minGap: s.minGap(uProse, b.end-b.start), fn: func(c cand) error {
		s.cands = append(s.cands, c)
		return nil
	}}
	add := func(c cand) { _ = th.add(c) }
	last := b.start // the start of the last boundary seen
	k := 0
	for i := 1; i < len(sents); i++ {
		end, start := b.start+sents[i-1].End, b.start+sents[i].Start
		if end > start || start >= b.end || end <= marker || space.Skip(text, end, start) != start {
			continue // not a clean boundary: ignore it
		}
		for k < len(breaks) && breaks[k].start < start {
			add(breaks[k])
			last = breaks[k].start
			k++
		}
		if k < len(breaks) && breaks[k].start == start {
			add(breaks[k])
			last = start
			k++
			continue
		}
		if start <= last {
			continue // out of order: a faulty span
		}
		add(cand{end: end, start: start, rank: rSentence, unit: uProse})
		last = start
	}
	for _, c := range breaks[k:] {
		add(c)
	}
	_ = th.flush(b.end)
}

// realBreaks returns, as candidates, the line breaks of the prose block b
// that are real breaks rather than the wraps of a paragraph.
//
// In plain text a break is real when the next line starts a list item,
// when the indentation changes, when the paragraph reads as verse (at
// least three lines, three quarters of them starting with a capital),
// or when the next line's first word would have fit on the line (a
// wrapping editor would have put it there) unless the line stops
// mid-sentence (it ends without punctuation and the next line goes on in
// lower case), as in text wrapped by hand.
//
// In Markdown a single line break inside a paragraph is soft by
// definition; only hard breaks (two trailing spaces or a backslash) and
// verse are real.
func (s *split) realBreaks(b *block) []cand {
	lines := s.blockLines(b)
	out := s.breaks[:0]
	if len(lines) < 2 {
		s.lines, s.breaks = lines, out
		return out
	}
	text := s.text
	md := s.format == document.Markdown
	maxW, upper := 0, 0
	for i := range lines {
		if !md {
			lines[i].width = utf8.RuneCountInString(text[lines[i].start:lines[i].end])
		}
		maxW = max(maxW, lines[i].width)
		if i > 0 && startsUpper(text[lines[i].start:lines[i].end]) {
			upper++
		}
	}
	verse := len(lines) >= 3 && upper*4 >= (len(lines)-1)*3
	for i := 1; i < len(lines); i++ {
		prev, l := &lines[i-1], &lines[i]
		real := verse || prev.hardBreak
		if !real && !md {
			next, line := text[l.start:l.end], text[prev.start:prev.end]
			real = prev.ind != l.ind || listmark.Item(next) ||
				(endsPunct(line) || !startsLower(next)) && firstWordFits(next, maxW-prev.width-1)
		}
		if real {
			out = append(out, cand{end: prev.end, start: l.start, rank: rLine, unit: uProse})
		}
	}
	s.lines, s.breaks = lines, out
	return out
}

// blockLines returns the non-blank lines of block b.
func (s *split) blockLines(b *block) []lineInfo {
	text := s.text
	lines := s.lines[:0]
	md := s.format == document.Markdown
	// The first line's indentation lies before the block.
	ls := b.start
	for ls > 0 && (text[ls-1] == ' ' || text[ls-1] == '\t') {
		ls--
	}
	for i := ls; i < b.end; {
		end, next := s.lineAt(i)
		end = min(end, b.end)
		cs := space.Skip(text, i, end)
		if cs < end {
			te := space.Back(text, cs, end)
			l := lineInfo{start: cs, end: te, ind: cs - i}
			if md {
				l.hardBreak = strings.HasPrefix(text[te:end], "  ") || text[te-1] == '\\'
			}
			lines = append(lines, l)
		}
		i = next
	}
	return lines
}

// startsUpper reports whether s starts with a capital letter, after any
// opening quotes or brackets.
func startsUpper(s string) bool {
	if s != "" && ('a' <= s[0] && s[0] <= 'z' || 'A' <= s[0] && s[0] <= 'Z') {
		return s[0] <= 'Z' // the commonest case, without the tables
	}
	for _, r := range s {
		if unicode.IsLetter(r) {
			return unicode.IsUpper(r) || unicode.IsTitle(r)
		}
		if !unicode.IsPunct(r) {
			return false
		}
	}
	return false
}

// startsLower reports whether s starts with a lower-case letter.
func startsLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r)
}

// endsPunct reports whether s ends with sentence or clause punctuation.
func endsPunct(s string) bool {
	if s == "" {
		return false
	}
	switch s[len(s)-1] {
	case '.', '!', '?', ':', ';', ',':
		return true
	}
	return false
}

// firstWordFits reports whether the characters before the first white
// space of s are at most width. It stops reading at width+1 characters:
// a line of code or a table row can be one long word.
func firstWordFits(s string, width int) bool {
	n := 0
	for i := 0; i < len(s); n++ {
		if n > width {
			return false
		}
		if b := s[i]; b < utf8.RuneSelf {
			if asciiSpace[b] {
				break
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			break
		}
		i += w
	}
	return n <= width
}

// asciiSpace marks the ASCII bytes that unicode.IsSpace accepts.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// addClauses adds clause cuts inside the long sentences (and lines) of a
// prose block whose candidates are s.cands[from:], the first being the
// cut before the block, which ends at end. They cost the planner much
// more than a sentence boundary, so it takes them only where the chunk
// sizes would otherwise be far apart or where they save a chunk.
//
// Sentences with more bytes than 1.5 times a chunk's tokens (about 3/8
// of a chunk) get clause cuts that count towards the fewest chunks;
// sentences with more bytes than half a chunk's tokens get optional ones,
// which only the balancing uses: they even out chunks made of long
// sentences without making the chunks fewer, and so more often cut.
func (s *split) addClauses(from, end int) {
	long, optional := satAdd(s.capacity, s.capacity/2), s.capacity/2
	pieces := s.cands[from:]
	extra := s.extra[:0]
	for i := range pieces {
		a, b := pieces[i].start, pieceEnd(pieces, i, end)
		if b-a <= optional {
			continue
		}
		n := len(extra)
		extra = append(extra, marker(from+i+1))
		_ = s.eachGap(uProse, a, b, s.minGap(uProse, b-a), func(g cand) error {
			g.unit, g.opt = uWords, b-a <= long
			extra = append(extra, g)
			return nil
		})
		if len(extra) == n+1 {
			extra = extra[:n]
			continue
		}
		pieces[i].unit = uWords
	}
	s.extra = extra
	s.insertRuns(from, extra)
}

func pieceEnd(pieces []cand, i, end int) int {
	if i+1 < len(pieces) {
		return pieces[i+1].end
	}
	return end
}

// New candidates are added to the list in one way: collected in runs, each
// led by a marker whose end field is the index in s.cands that the run goes
// before (markers in increasing order), and inserted by insertRuns in one
// pass. (While finish repairs chunks, candList takes its insertions.)

// marker returns the marker of a run that goes before s.cands[before].
func marker(before int) cand { return cand{end: before, rank: numRanks} }

// insertRuns inserts the runs of extra into s.cands[from:], in a pass over
// that part of the list only.
func (s *split) insertRuns(from int, extra []cand) {
	if len(extra) == 0 {
		return
	}
	if cap(s.spare) < len(s.cands)-from {
		s.spare = make([]cand, 0, cap(s.cands))
	}
	tail := append(s.spare[:0], s.cands[from:]...)
	out, i := s.cands[:from], from
	for _, x := range extra {
		if x.rank == numRanks {
			out = append(out, tail[i-from:x.end-from]...)
			i = x.end
			continue
		}
		out = append(out, x)
	}
	s.cands = append(out, tail[i-from:]...)
	s.spare = tail
}
