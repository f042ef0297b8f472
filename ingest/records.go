package ingest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/internal/chunks"
	"github.com/ragkit/ragkit/vectorstore"
)

// A Chunk is a chunk of a document ready to embed and store: the chunk, the
// text its vector is made from, and the header that keyword search reads.
type Chunk struct {
	// Chunk is the chunk as it was cut: offsets, text and token count.
	chunker.Chunk
	// Header is the chunk's contextual header, empty if it has none;
	// Records keep it as Notes.Keywords.
	Header string
	// EmbedText is the text whose vector the chunk's record holds: its
	// Text, or its header and Text.
	EmbedText string
	// EmbedTokens is the embedder's count of EmbedText, where
	// Config.MaxBatchTokens needs it.
	EmbedTokens int
}

// Plain returns chunks without headers: each embeds its own Text.
func Plain(chunks []chunker.Chunk) []Chunk {
	out := make([]Chunk, len(chunks))
	for i, c := range chunks {
		out[i] = Chunk{Chunk: c, EmbedText: c.Text, EmbedTokens: c.Tokens}
	}
	return out
}

// FromHeaders returns the chunks of a [contextheader.Decorator] as chunks
// ready to embed, each with its header, for [Records].
func FromHeaders(cs []contextheader.Chunk) []Chunk {
	out, _ := fromHeaders(cs)
	return out
}

// fromHeaders returns the chunks of a contextheader.Decorator as ingest's,
// and their section paths.
func fromHeaders(hs []contextheader.Chunk) ([]Chunk, [][]string) {
	out := make([]Chunk, len(hs))
	sections := make([][]string, len(hs))
	for i, h := range hs {
		out[i] = Chunk{Chunk: h.Chunk, Header: h.Header, EmbedText: h.EmbedText, EmbedTokens: h.EmbedTokens}
		sections[i] = h.Section
	}
	return out, sections
}

// sections returns the section paths of chunks in o.
func sections(o *document.Outline, chunks []Chunk) [][]string {
	out := make([][]string, len(chunks))
	for i, c := range chunks {
		out[i] = o.Path(c.Start, c.End)
	}
	return out
}

// Records returns the records of doc's chunks with their vectors (vectors[i]
// is the vector of chunks[i]), ready for VectorStore.Upsert or
// ReplaceDocument. Each record has an ID made from doc.ID and the chunk's
// content (the same chunk of the same document gets the same ID on every
// run and machine, and two equal chunks two IDs), DocID doc.ID, the
// chunk's index, offsets and Text, a copy of doc.Metadata (the caller's
// own, untouched), and the chunk's provenance, so that labels, citations
// and filters at query time need no copy of the document:
//
//   - Title: doc.Title; Source: doc.Source;
//   - Section: the chunk's section path in doc's outline
//     (Outline.Path(Start, End)), nil outside any section;
//   - Location: where the chunk is in the source, doc.Locate(Start, End)
//     (pages, lines, rows, from doc.Marks);
//   - Notes.Gap: the text between the chunk and the one before it, where
//     it is not a single space, so that windows rebuild the document's
//     text exactly;
//   - Notes.Keywords: the chunk's header, where it has one, so that
//     keyword search finds the chunk by its header's words as the vector
//     search does.
//
// A chunk whose offsets do not lie in doc.Text, or whose Text is not
// doc.Text[Start:End], gives an error wrapping ErrChunk; a count of vectors
// other than of chunks one wrapping ErrEmbed. The records carry no
// Notes.Embed, which only an [Indexer] sets: an Indexer given the same
// documents later embeds their chunks once more.
func Records(doc document.Document, chunks []Chunk, vectors [][]float32) ([]vectorstore.Record, error) {
	if len(vectors) != len(chunks) {
		return nil, fmt.Errorf("%w: %d vectors for %d chunks", ErrEmbed, len(vectors), len(chunks))
	}
	if err := checkChunks(doc.Text, chunks); err != nil {
		return nil, err
	}
	return records(doc, chunks, sections(doc.Outline(), chunks), vectors), nil
}

// checkChunks reports a chunk that does not lie in text.
func checkChunks(text string, cs []Chunk) error {
	span := func(c *Chunk) (int, int, string) { return c.Start, c.End, c.Text }
	if err := chunks.Check(text, cs, span); err != nil {
		return fmt.Errorf("%w: %w", ErrChunk, err)
	}
	return nil
}

// records makes the records of Records from chunks that lie in doc.Text,
// with their section paths (sections[i] is chunks[i]'s).
func records(doc document.Document, chunks []Chunk, sections [][]string, vectors [][]float32) []vectorstore.Record {
	ids := chunkIDs(doc.ID, chunks)
	recs := make([]vectorstore.Record, len(chunks))
	for i, c := range chunks {
		recs[i] = vectorstore.Record{
			ID: ids[i], DocID: doc.ID, Index: i,
			Start: c.Start, End: c.End, Text: c.Text,
			Vector: vectors[i], Metadata: maps.Clone(doc.Metadata),
			Title: doc.Title, Section: sections[i], Source: doc.Source,
			Location: doc.Locate(c.Start, c.End),
		}
		if len(recs[i].Section) == 0 {
			recs[i].Section = nil
		}
		if i > 0 && chunks[i-1].End <= c.Start {
			if gap := doc.Text[chunks[i-1].End:c.Start]; gap != " " {
				recs[i].Notes.Gap = gap
			}
		}
		recs[i].Notes.Keywords = c.Header
	}
	return recs
}

// chunkIDs returns the record IDs of a document's chunks: the document's
// ID, "#", and 16 hex digits of a SHA-256 of the document's ID, the
// chunk's Text, and how many chunks of the same Text come before it in
// the document.
func chunkIDs(docID string, chunks []Chunk) []string {
	seen := make(map[string]uint64, len(chunks))
	ids := make([]string, len(chunks))
	for i, c := range chunks {
		n := seen[c.Text]
		seen[c.Text] = n + 1
		sum := digest(docID, c.Text, n)
		ids[i] = docID + "#" + hex.EncodeToString(sum[:8])
	}
	return ids
}

// key returns the cache key of a vector: the hex SHA-256 of the embedder's
// name and the embed text, so that two models never share vectors.
func key(embedderName, embedText string) string {
	sum := digest(embedderName, embedText, 0)
	return hex.EncodeToString(sum[:])
}

// digest hashes two strings and a number, each string prefixed by its
// length so that no two pairs of strings give the same input.
func digest(a, b string, n uint64) [sha256.Size]byte {
	h := sha256.New()
	var buf [8]byte
	for _, s := range [2]string{a, b} {
		binary.LittleEndian.PutUint64(buf[:], uint64(len(s)))
		h.Write(buf[:])
		h.Write([]byte(s))
	}
	binary.LittleEndian.PutUint64(buf[:], n)
	h.Write(buf[:])
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// summarySource identifies what a document's summary is made from.
func summarySource(model, prompt string, chars int, text string) string {
	return hashParts(model, prompt, strconv.Itoa(chars), text)
}

// hashParts returns 32 hex digits of a SHA-256 of parts, each prefixed by
// its length so that no two lists give the same input.
func hashParts(parts ...string) string {
	h := sha256.New()
	var buf [8]byte
	for _, p := range parts {
		binary.LittleEndian.PutUint64(buf[:], uint64(len(p)))
		h.Write(buf[:])
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// fingerprint identifies everything a document's records are made from,
// as far as the Indexer can see: the document and Config.Version and
// EmbedderName, which name the rest.
func fingerprint(cfg *Config, doc document.Document) string {
	parts := []string{cfg.Version, cfg.EmbedderName, doc.ID, doc.Title, doc.Text, strconv.Itoa(int(doc.Format)), doc.Summary}
	for _, k := range slices.Sorted(maps.Keys(doc.Metadata)) {
		parts = append(parts, k, doc.Metadata[k])
	}
	return hashParts(parts...)
}
