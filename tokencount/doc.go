// Package tokencount counts tokens exactly as OpenAI's tiktoken encodings
// do, offline and in linear time, and estimates them where exactness is not
// needed.
//
// Everything else in ragkit sizes text with a [Tokenizer]: a chunk's limit,
// a prompt's budget. A count that a caller relies on must be the
// tokenizer's count of the final string, so the encodings here are exact:
// [Encoding] and [ForModel] return a [*BPE] whose Count equals
// len(EncodeOrdinary(text)) of github.com/pkoukk/tiktoken-go on every
// input (a differential test over every corpus in testdata and a fuzz test
// prove it), in time linear in the text: a hand-written pre-tokenizer for
// each encoding's split pattern in place of a backtracking regular
// expression, byte pair merges in time linear in the length of a piece
// and in memory that does not grow with it (one enormous word is merged
// in overlapping windows, exactly), and a bounded, lock-free cache from
// piece to token ends, so that text in steady state is counted without
// allocating. The vocabularies are those of
// github.com/pkoukk/tiktoken-go-loader, stored in this package as raw
// token bytes that need no decoding (go generate writes them, and a test
// checks them against the loader's): there is no network access, ever.
// Each encoding is built once per process, on first use, in one pass over
// a hash table laid out ahead of time, and is safe for concurrent use. The
// measured figures, against tiktoken-go among others, are in
// benchmarks/README.md:
// https://github.com/ragkit/ragkit/blob/main/benchmarks/README.md#token-counting.
//
//	enc, err := tokencount.ForModel("gpt-4o") // o200k_base
//	if err != nil { ... }
//	n := enc.Count(text)
//
// # Ordinary text
//
// Text is counted as ordinary text. Special-token markup that appears in
// a document, such as "<|endoftext|>", is counted as the characters it is
// made of (7 tokens in cl100k_base), never as the single special token:
// that is how chat APIs treat user content, and it keeps documents from
// injecting control tokens. The empty string has 0 tokens. Invalid UTF-8
// is not an error: each invalid byte counts as U+FFFD, as tiktoken-go reads
// it, so counts stay equal to tiktoken-go's on any byte string.
//
// # Token offsets in one pass
//
// An [Offsetter] reports where each token ends, so that sizing any
// substring becomes arithmetic over one pass instead of a new count per
// candidate: the tokens that end inside (a, b] are a synthetic count of
// text[a:b]. [AppendTokenEnds] provides offsets for any Tokenizer.
//
// A synthetic count is close to the exact count of the substring, not
// equal to it, because a substring's edges tokenize on their own: a word
// cut off from the space before it is a different token (" word" is one
// token inside the text, "word" at the start of a chunk may be two), and a
// piece cut in the middle is merged anew. Only the pieces at the two edges
// can differ, so the error does not grow with the substring's length: with
// both ends between words, as a chunker cuts, most synthetic counts are
// exact and none is off by more than a few tokens; with ends at arbitrary
// characters fewer are exact (benchmarks/README.md gives the measured
// distribution).
// Use synthetic counts to search, and Count to verify the result.
//
// # Estimates
//
// [Heuristic] estimates counts without any vocabulary, within a few
// percent of cl100k_base on English prose, Markdown and code
// (benchmarks/README.md gives the measured error). Use it where the model's tokenizer is unknown
// or a limit need not hold exactly.
//
// # Yardstick
//
// Package [github.com/ragkit/ragkit/tokencount/tiktoken] counts with
// tiktoken-go itself. It is what the tests compare against, and is there
// for callers who want to cross-check; it is a package of its own so that
// a program that only counts does not link tiktoken-go and its
// dependencies.
package tokencount
