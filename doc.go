// Package ragkit is the context side of retrieval-augmented generation:
// cutting documents into balanced, well-formed chunks, giving each chunk the
// context it lacks, expanding search hits into readable windows, and fitting
// all of it into a model's context window on purpose rather than by accident.
// Callers bring their own LLM and database; ragkit brings the parts that
// every RAG system otherwise gets wrong by hand.
//
// This package holds only this overview and a runnable example of the
// whole flow. The work is done by its sub-packages, each usable alone:
//
//   - [github.com/ragkit/ragkit/tokencount]: the Tokenizer interface;
//     exact offline counting for cl100k_base, o200k_base, p50k_base and
//     r50k_base, equal to tiktoken-go's on every input, linear in the
//     text; ForModel for model names; token end offsets in one pass; a
//     vocabulary-free heuristic. [github.com/ragkit/ragkit/tokencount/tiktoken]
//     wraps tiktoken-go itself as a yardstick;
//     [github.com/ragkit/ragkit/tokencount/tokentest] has fake tokenizers
//     for tests.
//   - github.com/ragkit/ragkit/tokencount/hf: exact counts for any model's
//     Hugging Face tokenizer.json, offline, in a module of its own.
//   - [github.com/ragkit/ragkit/segment]: rule-based boundaries as byte
//     spans: paragraphs, lines, sentences, words and graphemes.
//   - [github.com/ragkit/ragkit/document]: the one document model:
//     Document, its Format, and the Outline of its headings and section
//     paths, computed once for every package that needs them.
//   - [github.com/ragkit/ragkit/loader]: a folder or an fs.FS read into
//     documents by the parser of each file's type (Markdown, text, CSV,
//     JSON, man pages, reStructuredText, AsciiDoc, source code; more
//     through Config.Parsers), with every file not read reported and why.
//   - github.com/ragkit/ragkit/formats: parsers for HTML, DOCX and XLSX,
//     in a module of its own.
//   - github.com/ragkit/ragkit/formats/pdf: PDF in reading order, on
//     PDFium compiled to WebAssembly and run by wazero, pure Go.
//   - [github.com/ragkit/ragkit/chunker]: balanced token-aware chunking of
//     plain text and Markdown: every chunk within MaxTokens by exact count,
//     sizes near equal, cut at the strongest boundary available, stable
//     under small edits.
//   - [github.com/ragkit/ragkit/contextheader]: contextual chunk headers
//     (title, section path, metadata, a document summary) embedded with
//     each chunk within a token cap, with at most one Summarizer call per
//     document and an offline extractive summarizer.
//   - [github.com/ragkit/ragkit/vectorstore]: the contract every store
//     implements: Record with its provenance, Hit, filters over metadata
//     and provenance, the Embedder and VectorStore interfaces.
//     [github.com/ragkit/ragkit/vectorstore/memory] is the in-memory store
//     (exact vector search, stemmed BM25 keyword search, both at once over
//     the same records, an index of metadata values and persistence);
//     [github.com/ragkit/ragkit/vectorstore/lexical] an offline embedder;
//     [github.com/ragkit/ragkit/vectorstore/storetest] the conformance
//     suite every store passes.
//   - github.com/ragkit/ragkit/vectorstore/pgvector: a VectorStore in
//     PostgreSQL with pgvector, in a module of its own (pgx v5) so that
//     this one needs no database driver.
//   - [github.com/ragkit/ragkit/window]: sentence windows around search
//     hits, merged per document and capped by exact token counts; relevant
//     segment extraction; small units cut from a document.
//   - [github.com/ragkit/ragkit/budget]: priority-ordered assembly of a
//     prompt under per-section token budgets, with an exact final count
//     and a report of what was kept, cut and dropped.
//   - [github.com/ragkit/ragkit/ingest]: end-to-end indexing: chunk, add
//     headers, embed in batches, replace each document's records in one
//     step; a re-index embeds only the chunks that changed, with stable
//     record IDs, per-document failures and pruning.
//   - [github.com/ragkit/ragkit/retrieve]: the query side's owner, a
//     Retriever from a question to passages: vector and keyword search
//     fused, a filter, hits widened into windows or segments, passages
//     ranked by their strongest evidence with their title and section
//     path, reranking and diversity, and the items of a prompt's budget in
//     one call.
//   - [github.com/ragkit/ragkit/evaluate]: evaluation on the user's own
//     documents: question sets in JSON Lines, retrieval metrics of any
//     Retriever (hit@k, MRR, nDCG@k, span recall, context precision,
//     answer in passages and in the prompt, tokens) with bootstrap
//     intervals, and configurations compared in a table.
//   - github.com/ragkit/ragkit/bert: BERT-family embedders and
//     cross-encoders run in process from a Hugging Face model folder, in a
//     module of its own.
//   - [github.com/ragkit/ragkit/llm/openai]: a client of OpenAI-compatible
//     servers (OpenAI, Ollama, vLLM, llama.cpp, LM Studio) on net/http
//     alone: an Embedder, a Summarizer and streaming chat, with retries and
//     a key that is never printed.
//   - github.com/ragkit/ragkit/cmd/ragkit: the ragkit command, which reads,
//     chunks, counts, indexes, asks and evaluates over a folder of any
//     format.
//
// Measured figures (speed, chunk balance, retrieval) and the commands that
// reproduce them are in benchmarks/README.md in the repository.
//
// The program examples/quickstart in the repository runs the whole flow on
// an embedded corpus with no network and no model (go run
// ./examples/quickstart), and with a real model through an OpenAI-compatible
// API when asked to.
//
// # The flow of data
//
//	folder    ──loader──▶ documents (ID, title, format, metadata); skipped files reported
//	document  ──document──▶ its outline: headings and section paths, computed once
//	          ──chunker──▶ []chunker.Chunk: balanced, within MaxTokens, cut before headings, exact counts
//	          ──contextheader──▶ embed text = header + chunk (the chunk's own text unchanged)
//	          ──Embedder──▶ vectors ──▶ VectorStore.Upsert   (ingest: all of these; records carry
//	                                     title, section path and summary; re-embeds only changes)
//	question  ──retrieve.Retriever──▶ vector + keyword search, fused and filtered; hits widened
//	                                   into windows or segments, reranked, diversified; passages
//	                                   best first with their provenance
//	          ──budget──▶ the prompt: sections by priority, each within its budget,
//	                      the whole within the model's limit, with a report
//
// # Principles
//
// Counts a caller relies on (a chunk's tokens, a prompt's total) are the
// tokenizer's exact count of the final string, never a sum of parts: token
// counts are not additive across concatenation. Spans and chunks point into
// the caller's text by byte offset. The same input and configuration give
// the same output. Bad input returns an error wrapping an exported sentinel
// (use errors.Is), never a panic. Anything that may call out takes a
// context.Context. There is no network access: tokenizer data is embedded.
// Configured values (tokenizers, chunkers, stores, assemblers) are safe for
// concurrent use.
package ragkit
