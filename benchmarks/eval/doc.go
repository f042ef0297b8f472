// Package eval measures retrieval: how often, and how tightly, a way of
// cutting, embedding and searching documents finds the passage that
// answers a question. It scores the configurations of ragkit's techniques
// against each other on corpora with gold answers, so that a claim such
// as "balanced chunks retrieve better" is a number anyone can reproduce.
//
// Run it from the benchmarks module with the command:
//
//	go run ./cmd/eval                             # every corpus, sizes 64 and 256, k = 5
//	go run ./cmd/eval -corpus reports -sizes 128  # one corpus, one size
//	go run ./cmd/eval -format json -per-question  # for the report
//	go run ./cmd/eval -search vector,keywords,hybrid  # each configuration with each search
//	go run ./cmd/eval -retriever -search vector,keywords,hybrid  # chunks, windows, segments through retrieve.Retriever
//
// # Corpora
//
// A [Corpus] is documents and questions, each question with its gold
// answer: the exact text of one span of one document. [NewCorpus] finds
// each span and refuses a corpus in which an answer is not found exactly
// once in its document, or is found in any other document, so that every
// answer has one place and a retrieved span either holds it or does not.
// [Corpora] lists the built-in ones ([Load] reads them, or a directory
// laid out as [LoadDir] says):
//
//   - "reports": 33 documents written for this evaluation (in
//     testdata/reports), in six kinds whose documents share their
//     structure: planning staff reports of four towns whose environmental
//     review sections name only an application number; quarterly reports
//     of three companies, two quarters each, with the same section names
//     and tables that never repeat the company or the quarter; six policies
//     of one firm whose sections never name the policy; five incident
//     reviews whose root-cause sections never name the service; minutes of
//     two school boards (plain text); release notes of four versions of
//     one product. 84 questions, most answered by a passage that does not
//     say what it is about, so that finding it takes the document's
//     context: the corpus measures what contextual headers and windows
//     are for.
//   - "room": E. M. Forster's A Room with a View, the public-domain text in
//     the repository's testdata/corpora, as one document, with 23
//     questions about its story: long-form prose, not reports.
//
// # Configurations
//
// A [Method] is one configuration: a name, how a document is cut into
// units and what of each unit is embedded (Method.Units, returning
// [Unit] values), how a question finds units (Method.Search, by default
// the k nearest by the question's vector in the [Index]'s store), and how
// the units found become the spans handed to a model (Method.Retrieve, by
// default each unit's own span). [Evaluator.Evaluate] cuts every
// document, embeds the units with the configured Embedder in batches,
// stores them in a fresh memory.Store (each record with its byte
// offsets), asks every question and scores the first k spans retrieved.
//
// The configurations available now are plain chunks ([Chunks]) cut two
// ways, at a size in tokens: [Greedy], the recursive-separator splitter
// most pipelines use ([RecursiveSplit], LangChain's
// RecursiveCharacterTextSplitter with a token length function, written
// here with byte offsets), and [Balanced], ragkit's chunker. [Standard]
// gives both at each size. [Headers] embeds balanced chunks with their
// contextual headers (package contextheader: title and section path, or
// with an extractive summary of the document too). [Techniques] lists
// every configuration the report (cmd/report) compares. A technique is
// a Method of a few lines: contextual headers set Unit.Embed to header and
// chunk text while the unit's span stays the chunk; sentence windows cut
// sentences as units and widen each hit to its neighbours in Retrieve
// (Index.Store has Range); segment extraction asks Search for more hits
// and picks runs of units in Retrieve. [WithSearch] gives any method
// keyword search (BM25 over the units' texts) or hybrid search (vector and
// keyword search fused by reciprocal rank fusion) in place of the vector
// search; [Searches] names them, and the command's -search flag runs them.
//
// The command's default sizes are 64 and 256 tokens: the documents of
// "reports" are 300 to 1,000 tokens long (600 at the median), so at 512
// most would be one or two chunks and chunking would hardly matter; 64 is
// about a paragraph and 256 a few sections, the range in which a chunk
// loses its document's context and in which the chunkers differ. The
// answers are 10 to 63 tokens long.
//
// # Metrics
//
// For a question, G is its answer span and R1, ..., Rk the spans retrieved
// for it, best first (at most k: the rest of what a method returns is not
// scored). Every metric is computed per question and averaged over the
// questions of a corpus, each question weighing the same ([Summarize]).
//
// Holding. Spans hold G when every byte of G that is not white space lies
// in one of them. The rank of a question is the least r such that R1..Rr
// hold G, or 0 (a failure) if all k do not. A unit that covers only part
// of the answer does not hold it on its own: an answer cut in two by a
// chunk boundary is found at the rank of the second of its two units, and
// not found if only one is among the k. Its partial retrieval still
// counts in token recall.
//
//   - hit@1: the share of questions of rank 1.
//   - hit@k: the share of questions of rank 1 to k (k is 5 by default).
//   - MRR: the mean of 1/rank, with 0 for a failure (so it is MRR@k).
//   - failures: the number of questions of rank 0, that is, questions ×
//     (1 - hit@k): the retrieval failures of Anthropic's contextual
//     retrieval study.
//   - split: the number of questions whose answer no single unit holds.
//   - in context: with a method's ContextTokens budget, the share of
//     questions whose answer the first spans hold that fit in the budget
//     together (tokens of their texts), as a prompt's context section that
//     drops the lowest-ranked passages keeps them; methods compared at the
//     same budget are compared at equal tokens. [RetrieverMethods] sets it
//     to k times the size.
//
// Hit@1, hit@k and MRR are computed from the ranks by ragkit's package
// evaluate (evaluate.Summarize), the one implementation of each metric.
//
// Tokens. Each document is tokenized once with the configured tokenizer
// (cl100k_base by default); token i covers the bytes from the end of token
// i-1 to its own end. The tokens of a span are those that share at least
// one byte with it, so an answer that starts inside a word counts that
// word's token. T(G) is the answer's tokens and T(R) the union of the
// tokens of R1..Rk: a token retrieved twice counts once, and tokens of
// other documents count in T(R) but never in the intersection. Following
// the token-level metrics of Chroma's chunking evaluation (Smith and
// Troynikov, 2024):
//
//   - recall = |T(G) ∩ T(R)| / |T(G)|;
//   - precision = |T(G) ∩ T(R)| / |T(R)|, 0 when nothing was retrieved;
//   - IoU = |T(G) ∩ T(R)| / |T(G) ∪ T(R)|.
//
// Precision Ω measures the units alone, whatever the search: it is the IoU
// that perfect retrieval would score, retrieval of exactly the units that
// share a non-white-space byte with the answer (all of them, whatever
// their rank, and nothing else). With units that cover the text it is
// |T(G)| / |T(U)| for those units U: the share of the retrieved text that
// is answer when nothing is missed. Smaller units raise it; a method whose
// Retrieve widens units is still given the Ω of its units.
//
// # Another Embedder
//
// Config.Embedder takes any vectorstore.Embedder; by default the command
// uses lexical.Embedder, which matches words and not meanings, so its
// figures are a floor for a neural embedder. A model served behind an
// OpenAI-compatible embeddings API (Ollama, vLLM, llama.cpp's server, LM
// Studio, OpenAI) is one flag away, through ragkit's llm/openai adapter:
//
//	go run ./cmd/eval -embed-url http://localhost:11434/v1 -embed-model nomic-embed-text
//
// Any other Embedder is evaluated from a small program of your own:
//
//	tok, _ := tokencount.Encoding(tokencount.Cl100kBase)
//	ev, err := eval.New(eval.Config{Embedder: myEmbedder, BatchSize: 32})
//	...
//	reports, err := eval.Load("reports")
//	...
//	results := ev.Run(ctx, []*eval.Corpus{reports}, eval.Standard(tok, []int{64, 256}))
//	eval.WriteMarkdown(os.Stdout, results)
//
// Units and questions are embedded in batches of Config.BatchSize texts
// per Embed call; an error from the Embedder fails that configuration
// (ErrEmbed) and the others still run. Mind the model's input limit: the
// units must fit in it (llm/openai refuses a longer text rather than cut
// it; see its EmbedderConfig.MaxTextTokens).
package eval
