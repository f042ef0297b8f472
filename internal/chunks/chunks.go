// Package chunks checks chunks that a caller's function gave for a
// document, for the packages that take them (contextheader, ingest).
package chunks

import (
	"fmt"

	"github.com/ragkit/ragkit/chunker"
)

// Check reports the first chunk that does not lie in text: offsets out of
// range or out of order, or a Text that is not text[Start:End]. The error
// names the chunk; callers wrap it with their sentinel.
func Check(text string, chunks []chunker.Chunk) error {
	for i, c := range chunks {
		if c.Start < 0 || c.Start > c.End || c.End > len(text) || text[c.Start:c.End] != c.Text {
			return fmt.Errorf("chunk %d (offsets %d to %d, text of %d bytes) does not lie in the document's %d bytes",
				i, c.Start, c.End, len(c.Text), len(text))
		}
	}
	return nil
}
