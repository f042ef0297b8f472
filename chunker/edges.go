package chunker

import (
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/ragkit/ragkit/internal/space"
)

// Chunks are trimmed of white space, and white space is trimmed in whole
// grapheme clusters. A white space character can belong to a cluster with
// characters that are not white space: a space followed by a combining
// mark or a joiner (" \u0301", " \u200c") is one cluster, and so is a
// prepended mark followed by a space ("\u0600 "). Trimming by character
// (space.Skip and space.Back, and the spans of segment, which leave the
// space out of such a cluster) would cut it. Every edge of a chunk passes
// through cutAt, which moves such an edge to the cluster's boundary, so
// the cluster stays whole at the edge of a chunk, space and all.

// cutAt returns the edges of the cut from end to start (text[end:start]
// is white space, or empty) moved to grapheme boundaries: the chunk before
// ends at end2 and the one after starts at start2, end2 <= start2.
func cutAt(text string, end, start int) (end2, start2 int) {
	if end == start {
		return end, start // a cut inside non-space text, at its own level
	}
	start = clusterStart(text, start)
	end = clusterEnd(text, end)
	if end > start {
		// One cluster holds the whole gap: it begins with a mark that
		// joins the space after it and ends with one that the space
		// carries. It goes with the chunk before.
		start = max(end, space.Skip(text, end, len(text)))
		start = clusterStart(text, start)
	}
	return end, start
}

// clusterStart returns start, or, where the white space character before
// it opens a grapheme cluster that goes on past start, that character's
// offset.
func clusterStart(text string, start int) int {
	if start <= 0 || start >= len(text) || text[start] < utf8.RuneSelf {
		return start // no ASCII character extends a cluster
	}
	r, w := utf8.DecodeLastRuneInString(text[:start])
	if !space.Rune(r) {
		return start
	}
	if c, _, _, _ := uniseg.FirstGraphemeClusterInString(text[start-w:], -1); len(c) > w {
		return start - w
	}
	return start
}

// clusterEnd returns end, or, where the character before it is a
// prepended mark (U+0600 and the like) that joins the white space at end
// into one cluster, the end of that cluster.
func clusterEnd(text string, end int) int {
	if end <= 0 || end >= len(text) || text[end-1] < utf8.RuneSelf {
		return end // no ASCII character joins what follows it
	}
	_, w := utf8.DecodeLastRuneInString(text[:end])
	if c, _, _, _ := uniseg.FirstGraphemeClusterInString(text[end-w:], -1); len(c) > w {
		return end - w + len(c)
	}
	return end
}

// trimText returns the bounds of text without its surrounding white space,
// in whole grapheme clusters.
func trimText(text string) (first, last int) {
	first, last = space.Trim(text, 0, len(text))
	if first >= last {
		return first, last
	}
	return clusterStart(text, first), clusterEnd(text, last)
}
