// Package chunks checks chunks that a caller's function gave for a
// document, for the packages that take them (contextheader, ingest). It
// knows no chunk type of its own: span reads a chunk's offsets and text,
// so that this leaf imports nothing of ragkit.
package chunks

import "fmt"

// Check reports the first chunk that does not lie in text: offsets out of
// range or out of order, or a Text that is not text[Start:End]. span
// returns a chunk's Start, End and Text. The error names the chunk;
// callers wrap it with their sentinel.
func Check[C any](text string, cs []C, span func(*C) (start, end int, t string)) error {
	for i := range cs {
		start, end, t := span(&cs[i])
		if start < 0 || start > end || end > len(text) || text[start:end] != t {
			return fmt.Errorf("chunk %d (offsets %d to %d, text of %d bytes) does not lie in the document's %d bytes",
				i, start, end, len(t), len(text))
		}
	}
	return nil
}
