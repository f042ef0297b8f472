// Package contextheader gives each chunk of a document the context it
// lacks, as a short header to embed with it: the document's title, the
// section path of headings above the chunk, metadata, a summary of the
// document. A chunk cut from a long document often does not say what it
// is about (an environmental review that gives an application number but
// never names the project, a table of quarterly figures that never
// repeats the company or the year, a policy paragraph that never names
// the policy), so a question that names the subject does not find it.
// With the header, it does.
//
// A [Decorator] is made once from a [Config] with [New] and decorates the
// chunks of any number of documents with [Decorator.Decorate], which
// takes a [document.Document] and its chunks (from a chunker.Chunker) and returns
// a [Chunk] for each:
//
//	d, err := contextheader.New(contextheader.Config{Tokenizer: tok})
//	...
//	doc := document.Document{ID: "travel", Title: "Acme travel policy", Text: text, Format: document.Markdown}
//	chunks, err := c.Split(doc.Text)
//	decorated, err := d.Decorate(ctx, doc, chunks)
//
// Each Chunk keeps the chunker's chunk unchanged (offsets, Text, Tokens)
// and adds Header, EmbedText (the header, Config.Separator, then the
// chunk's text) and the exact token counts of both, by the Tokenizer's
// Count of the final strings. Embed EmbedText; show and cite Text.
//
// # Header parts
//
// A header is made of [Part]s, one line each, in the order of
// Config.Parts:
//
//   - [Title]: Document.Title.
//   - [Section]: the section path, "Travel policy > Ground transport >
//     Ride-hailing": the headings that enclose the chunk's start (or, for
//     a chunk that opens with headings, its first text after them), found
//     by [document.Headings] and [document.Outline]. For Markdown these are ATX and
//     setext headings, never lines in code blocks; for plain text, lines
//     that look like headings (numbered, in capitals, or short lines on
//     their own; see [document.Headings] for the rule). A first heading that
//     repeats the title is left out when the header has a Title part.
//   - [Metadata]: Document.Metadata through the part's Template, such as
//     "{department}, {year}".
//   - [Summary]: the document's summary, from the Summarizer (see below)
//     or Document.Summary.
//   - [ChunkContext]: a context written for each chunk (see below).
//   - [Custom]: what the part's Func returns for the document and chunk.
//   - [Table]: for a chunk that starts inside a Markdown table, the
//     table's header line and delimiter line, so that its rows keep their
//     column names; the chunk's own text and offsets are unchanged.
//
// The default, Title, Section then Table, is deterministic and needs no model;
// a document with neither gets no header, and its EmbedText is its Text.
//
// # Token limits
//
// A header never counts more than Config.MaxHeaderTokens, by exact count.
// When it would, its parts give way lowest [Part.Priority] first (by
// default Summary, then ChunkContext, Custom, Metadata, Section and Title
// last): the part is cut to the longest prefix that lets the header fit,
// ending at a sentence, or at a word if not even its first sentence fits;
// a part that cannot keep a word is dropped, and the next part gives way.
// A section path loses its outermost headings first, then its innermost
// heading is cut at a word. Nothing marks a cut in the header, since the
// header is written for the embedder; [Chunk.HeaderCut] reports it. The
// chunk's text is never cut.
//
// Set Config.MaxEmbedTokens to the embedder's input limit, and chunk with
// MaxTokens from [Decorator.ChunkMaxTokens] (the limit less the largest
// header, the separator and a margin): then header and chunk together
// never exceed the embedder's window. Decorate checks every EmbedText by
// exact count all the same, because counts are not additive across the
// join, and cuts a header further where the join costs more; a chunk that
// does not fit even without a header is an error ([ErrChunkTooLong]).
//
// # Summaries
//
// A [Summary] part costs at most one [Summarizer] call per document,
// never one per chunk, even when goroutines decorate and summarise the
// same document at once: they share the call under way. The package renders the whole prompt:
// Config.SummaryPrompt ([DefaultSummaryPrompt], plain English with no
// example in it, asks for one or two sentences naming the document's
// subject, period and organisation, in the document's language) with the
// start of the document in place of [DocumentPlaceholder], up to
// Config.SummaryChars characters and cut back to a sentence end. A
// Summarizer that also implements [DocumentSummarizer], as the offline
// [Extractive] summarizer does, is given that excerpt itself instead of
// the prompt.
//
// Summaries are cached in Config.Cache under a SHA-256 digest of
// Config.SummarizerModel and exactly what the Summarizer was given (prompt
// and excerpt), so re-indexing an unchanged document makes no call, and a
// changed document, prompt, excerpt length or model makes a new one. Back
// the [Cache] with a file or a database to keep summaries across runs;
// the default is a [MemoryCache] of the Decorator's own.
//
// [Decorator.Summaries] summarises many documents concurrently, with at
// most Config.Concurrency calls in flight across all of the Decorator's
// work, telling Config.Progress as each document is done. A document that
// fails is reported, as a [*DocumentError] inside a [*BatchError], with
// its index, ID and cause, and the others keep their summaries. A
// cancelled context stops new calls. Call Summaries first, then Decorate
// each document: Decorate finds the summaries in the cache.
//
// A document whose Summary field is set needs no call: its summary is
// used as given. With summaries kept in a store of the caller's, a
// Summary part works without any Summarizer, and a document that comes
// without a summary is then an error ([ErrInvalidDocument]).
//
// # Chunk contexts
//
// The [ChunkContext] part, off unless listed in Config.Parts, asks the
// Summarizer for a short text that situates each chunk in its document,
// in the manner of Anthropic's contextual retrieval. It costs one call
// per chunk: a corpus of many long documents makes as many calls as it
// has chunks, which is why the per-document Summary is the one to reach
// for first. The calls are cached like summaries and bounded like them.
// The prompt ([DefaultChunkContextPrompt]) puts the start of the document
// first, up to Config.ChunkContextChars characters, and the chunk after
// it, so that the prompts of one document's chunks are byte-identical up
// to the chunk, and a provider that caches prompt prefixes (OpenAI does
// so by itself for long prompts; Anthropic when the adapter asks) charges
// the document once.
//
// # Errors
//
// Configuration errors wrap [ErrConfig]. Bad input
// wraps [ErrInvalidDocument] or [ErrChunk]. A failing
// Summarizer or Cache gives errors wrapping [ErrSummarizer] or [ErrCache]
// and the cause itself (a summary that is empty or not valid UTF-8 wraps
// ErrSummarizer too), and one that panics an error wrapping [ErrPanic];
// none of these is cached, and the document can be decorated again.
//
// [DocumentError] and [BatchError] name the documents that failed in a
// call over many; package ingest reports its failures with them too.
//
// # Cost
//
// With the deterministic header, Decorate scans the document once for its
// headings, builds each distinct header once, and counts each chunk's
// embed text once with the Tokenizer: linear in the document.
// benchmarks/README.md in the repository has the measured cost (against
// chunking the same documents) and what headers do for retrieval on a
// corpus of context-poor documents.
package contextheader
