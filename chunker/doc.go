// Package chunker cuts documents into chunks for retrieval-augmented
// generation: chunks that are all near the same size, never over a token
// limit by the tokenizer's exact count, and cut at the strongest boundary
// the text offers.
//
// A [Chunker] is made once from a [Config] with [New] and splits any number
// of texts with [Chunker.Split], concurrently if need be:
//
//	tok, _ := tokencount.Encoding("cl100k_base")
//	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 512})
//	...
//	chunks, err := c.Split(document)
//
// Each [Chunk] is a substring of the document, given by byte offsets, with
// its exact token count and the kind of [Boundary] it was cut at.
// [Chunker.SplitDocument] splits a [document.Document] instead, read as
// its own Format, with the headings of the outline it carries (see
// [document.Document.WithOutline]) rather than finding them again.
//
// # Settings
//
// [Config] holds the knobs, each zero value a documented default:
// Tokenizer (required) and MaxTokens, the limit every chunk keeps by exact
// count; MinTokens, a floor met wherever the text allows; OverlapTokens,
// whole sentences repeated from the end of the chunk before; Format (plain
// text or Markdown, whose structure gives stronger boundaries); Strategy,
// balanced (the default) or [Greedy]; StretchChunks, which trades a few
// more chunks for fewer changed ones when a document is edited; and
// KeepGraphemes, which makes a grapheme cluster too long for MaxTokens an
// error rather than cutting it.
//
// # Boundaries
//
// The chunker cuts only at boundaries, and prefers strong ones. From the
// strongest:
//
//   - before a heading, the section it opens staying with it: Markdown's
//     headings, and in plain text the lines that document.Headings reads
//     as headings ("2.1 Scope", "ENVIRONMENTAL REVIEW"); then, in
//     Markdown, between blocks: fenced code, lists and their items, tables,
//     block quotes;
//   - paragraphs (blank lines);
//   - single line breaks that are real breaks: verse, lists, tables of
//     contents in plain text, hard breaks in Markdown; not the wraps inside
//     a paragraph of prose;
//   - sentences, found by the segment package;
//   - clause punctuation (, ; : and dashes) inside long sentences;
//   - words, then grapheme clusters, only inside a unit that does not fit
//     in a chunk on its own;
//   - code points, only inside a grapheme cluster that counts more than
//     MaxTokens on its own (an emoji family, a letter with thousands of
//     combining marks); [Config.KeepGraphemes] makes such a cluster an
//     error ([ErrGraphemeTooLong]) instead.
//
// A fenced code block or table that fits in MaxTokens is never split; one
// that does not fit is split at its lines.
//
// # Plain text and Markdown
//
// [Text], the default [Format], reads paragraphs at blank lines; two or
// more blank lines are a stronger break than one. A single line break is a
// real break when the next line starts a list item, when the indentation
// changes, when the paragraph reads as verse (three lines or more, three
// quarters of them starting with a capital), or when the next line's first
// word would have fit on the line unless the line stops mid-sentence; the
// line breaks of hard-wrapped prose are read as spaces.
//
// [Markdown] is read by a small line-based block scanner that knows ATX and
// setext headings, fenced and indented code, GitHub tables, bullet and
// ordered lists with nesting by indentation, block quotes, HTML blocks and
// thematic breaks. It does not parse inline syntax, link reference
// definitions or front matter (which read as paragraphs), and it reads a
// fence opened inside a block quote as quote text. Inside a Markdown
// paragraph a single line break is a space, unless it is a hard break.
//
// # Input
//
// Text must be valid UTF-8 ([ErrInvalidUTF8], with the offset of the first
// bad byte): chunk boundaries are grapheme boundaries, which invalid bytes
// do not have. A text with no non-space character is [ErrEmptyText]. White
// space is what [unicode.IsSpace] says; chunks are trimmed of it and,
// without overlap, together cover everything else.
//
// # Tokenizers
//
// Any [tokencount.Tokenizer] works. One that is also a
// [tokencount.Offsetter], as every tokencount encoding is, gives the
// estimates in one pass with near-exact sizes. Any other is sampled word by
// word (see [tokencount.AppendTokenEnds]), which is rougher: the planner
// then keeps a wider margin, and the exact count of every chunk still
// guarantees the limit. With a tiktoken encoding ([tokencount.Encoding])
// a chunk's exact count comes from that one pass and a count of its two
// edges: the encoding's pre-tokenizer always ends a piece where a space
// follows a printable ASCII character, so the tokens between two such
// places are the same in the chunk as in the whole text. Any other Tokenizer counts
// every chunk whole.
//
// # Overlap
//
// With OverlapTokens, chunks are planned at MaxTokens-OverlapTokens, and
// then each chunk after the first is extended backwards over whole
// sentences (or stronger units) from the end of the previous chunk, as
// many as fit in OverlapTokens by exact count; where not even one sentence
// fits, over words. Offsets stay true: the repeated text is
// text[chunk.Start:previous.End]. A chunk whose overlap would take it over
// MaxTokens gets a shorter overlap, or none. A unit that fits in MaxTokens
// but not with the overlap (a long code block, say) is a chunk without
// overlap rather than being split.
//
// What overlap guarantees: the repeated text never exceeds OverlapTokens by
// exact count, and it starts at a sentence (or stronger) boundary when one
// lies within OverlapTokens of the cut, else at a word. Where the end of
// the previous chunk has no word start within OverlapTokens (text whose
// only cuts are graphemes, such as a run of emoji or one enormous word),
// the chunk has no overlap. Chunks are planned at MaxTokens-OverlapTokens
// either way, so such text gets chunks of about that size.
//
// # How it works
//
// The sections below are the chunker's planning: how it balances sizes,
// keeps chunks stable under edits and what it costs. A caller needs none
// of it to use the package.
//
// # Balance
//
// Greedy splitters fill each chunk to the maximum and leave the remainder
// as the last chunk, often a crumb of a few tokens that is useless to
// retrieval. The default [Balanced] strategy instead makes the fewest chunks
// the boundaries allow and then places the cuts so that the chunks are as
// even as the boundaries allow, in stretches between anchors that keep an
// edit from moving the cuts of the whole text (see Edit stability below). It works in four steps, linear or n log n in
// the text on every input:
//
//  1. Candidates. The text is scanned once for its structure (paragraphs,
//     real line breaks, Markdown blocks) and sentences, which gives a list
//     of candidate cuts, each with its boundary. Clause cuts are added in
//     long sentences; words and graphemes only where a unit is too long
//     for a chunk. Inside a long unit, or a paragraph of many kilobytes,
//     candidates closer than a thirty-second of a chunk are thinned out,
//     and long units and paragraphs are read in windows, so that the
//     candidates and the buffers stay proportional to the chunks, not to
//     the bytes, on any shape of text.
//  2. Sizes. The text is tokenized once, in windows of a quarter of a
//     megabyte, and the token ends give each candidate a prefix count, so that the
//     size of any chunk between two candidates is a subtraction. The size
//     is an estimate: the edges of a substring can tokenize differently
//     from the same bytes in the whole text, by a token or two.
//  3. Plan. A greedy pass that cuts at the farthest candidate that fits
//     finds the fewest chunks K (it is optimal for this packing problem).
//     The same pass from both ends bounds where the k-th cut of any K-chunk
//     solution can lie, a band about one chunk of slack wide. Dynamic
//     programming over these bands then picks the K-1 cuts that minimise
//     the sum over chunks of the squared relative deviation from the mean
//     size, plus a steeper price for chunks more than 20% short, plus a
//     price per cut that grows as the boundary weakens (a paragraph break
//     is worth moving a cut by about 12% of a chunk rather than cutting
//     between sentences). The cost of a chunk is convex in its size, so
//     the best predecessor of a candidate moves forward monotonically and
//     each layer is solved by divide and conquer. Clause cuts in sentences
//     of moderate length are optional: they are offered to this step to
//     even out chunks made of long sentences, but do not count when K is
//     found, so they are taken only where they pay.
//  4. Verify. Every chunk is counted with the Tokenizer's exact Count, which
//     is the Tokens field. A chunk over MaxTokens, which an estimate let
//     through, is repaired before it is returned: its end moves back to an
//     earlier candidate, and the next chunk starts there; where the next
//     planned chunk cannot take that tail, it ends earlier too, so tails
//     never pile up. The planner keeps a margin of two tokens per chunk so
//     that repairs are rare.
//
// # Edit stability
//
// An index of chunks is kept up to date by embedding again only the chunks
// whose text changed, so a small edit to a document should change few of
// its chunks. A plan balanced over the whole text would spread every edit:
// deleting a sentence shortens one chunk, and the planner evens the loss
// out over its neighbours, or over the whole text where it now fits in one
// chunk fewer. So [Balanced] plans the text in stretches. Before step 3
// it picks anchors among the candidates at a sentence boundary or
// stronger: a candidate is an anchor when its key (its rank, strongest
// first, then a hash of the bytes around it) is the greatest within a
// reach of (8 + MaxTokens/32)/2 chunks on either side, and it lies that
// far from both ends of the text. Whether a candidate is an anchor depends
// on the text within that reach only, never on its place in the document,
// so an edit elsewhere does not move it. Steps 3 and 4 then work on each
// stretch between two anchors on its own: the chunks of every stretch that
// the edit did not touch (and whose anchors it did not move) are the same,
// byte for byte. The price is that each stretch rounds its own count of
// chunks, about half a chunk a stretch, so a long text has a few percent
// more chunks than the fewest, and sizes are as even as the boundaries
// allow within each stretch rather than over the whole text.
//
// Config.StretchChunks sets the reach in chunks. Stability and the count
// of chunks pull against each other: an edit that lets its stretch fit in
// one chunk fewer, or that moves an anchor, plans a whole stretch again,
// so shorter stretches change fewer chunks per edit; and each stretch
// rounds its count up, so shorter stretches make more chunks. The default
// keeps the count within a few percent of the fewest; an index edited
// often may prefer 3 or 4; math.MaxInt plans the whole text at once, for
// the fewest chunks. benchmarks/README.md in the repository gives the
// measured churn (chunks changed
// by one-sentence edits) and chunk counts for several values.
//
// The [Greedy] strategy stops after the greedy pass of step 3 over the
// whole text: it makes as many chunks or a few fewer, cut at the same
// kinds of boundaries, with uneven sizes. It is
// there as a baseline.
//
// MinTokens, if set, is a floor the plan meets wherever the boundaries
// allow: chunks under it are priced out, and if the plan still holds one,
// the units beside it are cut at the next weaker level and the plan is
// made again. It cannot be met when the whole text is shorter, nor next to
// a code block or table that fits in MaxTokens (they are never split).
// New refuses a MinTokens above half of MaxTokens-OverlapTokens, which
// many texts could not meet at all.
//
// # Performance
//
// With a tiktoken encoding Split tokenizes the text once, plus the edges
// of its chunks (a few tokens each) and any overlap; with another
// Tokenizer about twice (once to plan, once to count each chunk). Add the
// sentence segmentation and the planning, and little else; a text short
// enough to fit in one chunk is counted once, before any planning. Time and memory are
// linear in the text whatever its shape (a text without blank lines, one
// enormous word, a line break every other byte, a MaxTokens of 1), and what
// Split allocates per byte of text is bounded on every shape.
// benchmarks/README.md in the repository gives the measured speeds, the
// memory per byte by shape, and a comparison with langchaingo's splitters
// (stating the tokenizer they were given).
package chunker
