package tokencount

import (
	"hash/maphash"
	"math"
)

// Long pieces (a run of one letter, of spaces, of emoji, a word of a
// thousand random letters) are merged in overlapping windows rather than
// whole, so that time stays linear and memory bounded by the window
// whatever the piece.
//
// Windows are exact, not an approximation, by two properties of tiktoken's
// merge (the lowest rank merges first, the leftmost on ties; a merge joins
// two adjacent parts whose bytes together are a token):
//
//   - Any run of consecutive tokens in the encoding of a text is the
//     encoding of the bytes it covers: no merge crossed its edges, and the
//     merges inside happen in the same order without the rest.
//   - If the encoding of a text ends with token t and the encoding of
//     another text starts with the same t, joined on t they are the
//     encoding of the joined text: a merge across either edge of t would
//     have been the lowest-ranked pair in one of the two texts as well.
//
// So, holding the encoding of the piece up to the end of one window, the
// next window, which starts inside it, is merged; the first token the two
// agree on (same start, same end) joins them into the encoding up to the
// end of the next window, and the tokens up to it never change again. The
// next window starts a little before the end of the current one, further
// back while the two do not agree. If they share no token at all, the
// tokens already sent may not be final after all: the whole piece is
// merged again in windows four times as long, up to one window for the
// whole piece, the merge without windows. No input we know of needs that.

const (
	// window is the length of the windows a long piece is merged in: long
	// enough that the overlaps cost little, short enough that a window's
	// merge stays in the processor's first-level cache.
	window = 1024
	// overlap is how far before the end of the current window the next
	// one starts, at first: several tokens of most text, so that the two
	// windows agree on one. It doubles while they do not.
	overlap = 64
	// memoSlots is the size of the per-call memo of windows, which makes
	// periodic pieces (one letter, "abab...", repeated emoji) cheap: their
	// windows start at a few phases only.
	memoSlots = 64
)

type memoEntry struct {
	key  string
	ends []uint16
}

var memoSeed = maphash.MakeSeed()

// sink receives token ends: it appends them to dst, offset by base, or,
// for Count, only counts them.
type sink struct {
	dst   []int
	base  int
	n     int
	count bool
}

func (k *sink) add(end int) {
	k.n++
	if !k.count {
		k.dst = append(k.dst, k.base+end)
	}
}

// mergeLong sends the token ends of a piece of any length to k. The piece
// is merged as bytes: the caller has made it valid UTF-8 and ruled out that
// it is one token.
func (b *BPE) mergeLong(piece string, k *sink) {
	m := mergers.Get().(*merger)
	m.filter = b.absent.bits(b)
	m.encodeLong(b, piece, k, window, overlap)
	m.filter = nil
	for i := range m.memo {
		m.memo[i].key = "" // keep no reference to the caller's text
	}
	mergers.Put(m)
}

// encodeLong runs the windowed merge over s with windows of size w, the
// next starting ov bytes before the end of the previous, or more. It
// reports whether it had to start again with longer windows.
func (m *merger) encodeLong(b *BPE, s string, k *sink, w, ov int) (restarted bool) {
	count, size := k.n, len(k.dst)
	for !m.windows(b, s, k, w, ov) {
		k.n, k.dst = count, k.dst[:size]
		w, ov = 4*w, 4*ov
		restarted = true
	}
	return restarted
}

// windows sends the tokens of s to k, merged in windows of size w, and
// reports whether two windows always agreed on a token. It always does
// when w >= len(s).
func (m *merger) windows(b *BPE, s string, k *sink, w, ov int) bool {
	n := len(s)
	// The tokens sent to k and those in cur are the encoding of s[:we];
	// cur holds the boundaries of the tokens after pos, the end of the
	// last token sent.
	pos, we := 0, min(n, w)
	m.cur = m.window(b, s, pos, we, m.cur[:0])
	for we < n {
		back := ov
		for {
			ns := lastAtOrBefore(m.cur, max(we-back, pos))
			ne := min(n, max(ns+w, we+w/4))
			m.nxt = m.window(b, s, ns, ne, m.nxt[:0])
			if i, j, ok := agree(m.cur, m.nxt); ok {
				for _, e := range m.cur[1 : i+1] {
					k.add(e)
				}
				pos, we = m.cur[i], ne
				m.cur = append(m.cur[:0], m.nxt[j:]...)
				break
			}
			if ns == pos {
				return false
			}
			back *= 2
		}
	}
	for _, e := range m.cur[1:] {
		k.add(e)
	}
	return true
}

// window appends to dst the token boundaries of the encoding of s[from:to]
// as offsets in s: from, then the end of each token. Windows are looked
// up in the memo first, where an earlier window of the same call with the
// same bytes left its token ends.
func (m *merger) window(b *BPE, s string, from, to int, dst []int) []int {
	dst = append(dst, from)
	w := s[from:to]
	if len(w) > math.MaxUint16 {
		for _, e := range m.merge(b, w) {
			dst = append(dst, from+int(e))
		}
		return dst
	}
	e := &m.memo[maphash.String(memoSeed, w)%memoSlots]
	if e.key != w {
		ends := m.merge(b, w)
		if cap(e.ends) < len(ends) {
			e.ends = make([]uint16, 0, len(ends)+len(ends)/4)
		}
		e.key, e.ends = w, e.ends[:len(ends)]
		for i, end := range ends {
			e.ends[i] = uint16(end)
		}
	}
	for _, end := range e.ends {
		dst = append(dst, from+int(end))
	}
	return dst
}

// lastAtOrBefore returns the last boundary in bs at or before x, or bs[0].
func lastAtOrBefore(bs []int, x int) int {
	for i := len(bs) - 1; i > 0; i-- {
		if bs[i] <= x {
			return bs[i]
		}
	}
	return bs[0]
}

// agree finds the first token that two lists of boundaries share: i and
// j such that a[i-1], a[i] equal b[j-1], b[j]. b starts inside a.
func agree(a, b []int) (i, j int, ok bool) {
	i = 0
	for j = 1; j < len(b); j++ {
		for i < len(a) && a[i] < b[j-1] {
			i++
		}
		if i+1 >= len(a) {
			return 0, 0, false
		}
		if a[i] == b[j-1] && a[i+1] == b[j] {
			return i + 1, j, true
		}
	}
	return 0, 0, false
}
