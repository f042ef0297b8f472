// Package hf counts tokens exactly as a Hugging Face tokenizer.json
// counts them: the tokenizer of the model you run locally (Llama, Qwen,
// Mistral, Gemma, DeepSeek) or of the embedder you index with (BERT-style
// WordPiece models such as nomic-embed-text, bge, e5 and all-MiniLM;
// T5 and XLM-R-style Unigram models). Counting by another model's
// tokenizer is off by up to a fifth, and servers truncate what does not
// fit without a word.
//
//	tok, err := hf.LoadFile("tokenizer.json", hf.Options{})
//	if err != nil { ... }
//	n := tok.Count(text)
//
// A *Tokenizer is a tokencount.Tokenizer and a tokencount.Offsetter, so
// it sizes chunks (package chunker) and prompts (package budget) like
// the tiktoken encodings do, and is safe for concurrent use.
//
// # Getting a tokenizer.json
//
// Every model on the Hugging Face Hub that the transformers library can
// load has a tokenizer.json among its files (for example
// meta-llama/Llama-3.2-1B-Instruct, Qwen/Qwen3-8B, google/gemma-3-4b-it,
// nomic-ai/nomic-embed-text-v1.5, BAAI/bge-small-en-v1.5). Download it
// once with the model, ship it with your program or its data, and load it
// from a path or an io.Reader: this package never reaches the network.
// Ollama's GGUF files do not carry a tokenizer.json; take it from the
// model's repository on the Hub.
//
// # What is counted
//
// Count(text) is the length of the library's
// tokenizer.encode(text, add_special_tokens=False): the added tokens of
// the file are matched in the text first, as the library matches them
// (special tokens included, with their lstrip, rstrip, single_word and
// normalized flags), then the rest is normalized, pre-tokenized and run
// through the model. Options.AddSpecialTokens adds the tokens the
// post-processor puts around a single sequence (BERT's [CLS] and [SEP],
// Llama 2's <s>): what an embedding model sees. Truncation and padding in
// the file are ignored, so that a text over a model's limit shows as
// over it; the decoder does not change counts and is not read. Invalid
// UTF-8 is read as one U+FFFD per invalid byte.
//
// # Families
//
// The families, with the components their files use:
//
//   - Byte-level BPE (Llama 3, Qwen 2 and 3, DeepSeek V3, GPT-2, RoBERTa,
//     GPT-4o and gpt-oss's o200k, Mistral's Tekken as transformers converts
//     it): model BPE over a ByteLevel pre-tokenizer, Split pre-tokenizers
//     with the models' regular expressions, the NFC normalizer,
//     ignore_merges.
//   - SentencePiece-style BPE (Llama 2, Mistral 7B, Gemma 2 and 3): model BPE
//     with byte_fallback and fuse_unk, the Prepend and Replace normalizers
//     or the Metaspace pre-tokenizer, Split on a string.
//   - WordPiece (BERT and the embedders built on it): BertNormalizer
//     (clean text, Chinese characters, accents, lower case) and
//     BertPreTokenizer, or Whitespace.
//   - Unigram (T5, mT5, XLM-R and the embedders built on it, such as
//     multilingual-e5 and bge-m3; ALBERT): the Viterbi segmentation with
//     fused unknown characters and byte_fallback, Metaspace, and the
//     Precompiled normalizer (the SentencePiece rules the file carries as
//     a double-array trie, decoded here) or Nmt and NFKC, with the Strip,
//     Replace, NFKD, StripAccents and Lowercase that converted files put
//     around it, and the model's control and user-defined pieces as added
//     tokens.
//   - WordLevel (word-level vocabularies, often trained with the library):
//     one token per piece the pre-tokenizers make, the unknown token for a
//     word not in the vocabulary; a file whose unk_token is not in its
//     vocabulary is refused, as the library fails on an unknown word.
//
// Also read: normalizers NFD, NFKD, Lowercase, Strip, StripAccents and
// Sequence; pre-tokenizers Whitespace, WhitespaceSplit, Digits,
// Punctuation and Sequence; post-processors TemplateProcessing,
// BertProcessing, RobertaProcessing, ByteLevel and Sequence; a model
// without "type" (old files), read as the library reads it. Anything else
// (the ByteLevel normalizer, the CharDelimiterSplit and
// UnicodeScripts pre-tokenizers, BPE dropout, a continuing_subword_prefix
// or end_of_word_suffix on BPE, a Unigram model without unk_id, a
// regular expression that means something else in Go than in the
// library) is refused with an error wrapping ErrUnsupported that names
// it: a count is exact or not given. A file that is not valid gives
// ErrFormat.
//
// # Files compared with the library
//
// The exactness suite (package exactness, run by the project's CI)
// compares counts and token ends with the library on corpora, sentence
// sets in many languages, code, emoji and random Unicode, supplementary
// characters with combining marks, long runs of marks and the letters
// and digits of Unicode 15.1 and 16, with these
// files: the real tokenizer.json of Llama 3, Qwen 3, DeepSeek V3, GPT-4o,
// gpt-oss, Llama 2 and Gemma 3 (as npm packages ship them); Mistral Nemo's
// Tekken vocabulary, converted as transformers' TikTokenConverter
// converts it; bert-base-uncased, built from
// its real vocabulary; albert-base-v2, converted from ALBERT's real
// SentencePiece model (pieces, scores, charsmap) as transformers' current
// AlbertConverter converts it, and the same model in the configuration
// transformers gives T5 and XLM-R today (Precompiled, Strip, Replace,
// Metaspace), in Pegasus' (WhitespaceSplit before Metaspace) and in the
// one of the library's SentencePieceUnigramTokenizer (Nmt, NFKC, Replace,
// Metaspace); Unigram files over Llama 2's pieces with
// NFKC and with a Precompiled normalizer compiled for the test; and a
// WordLevel file the library trains. No npm package ships a T5, XLM-R or
// WordLevel tokenizer.json: those configurations are covered on ALBERT's
// pieces and a trained vocabulary, not on the models' own files.
//
// # Regular expressions
//
// The library runs the patterns of Split and Replace with Oniguruma. The patterns of the
// families above have hand-written matchers here, equivalent to it and
// many times faster than a backtracking engine, including their
// look-ahead (\s+(?!\S)). Another pattern runs on Go's regexp package
// when it means the same there, with \s written out as Oniguruma's class
// (White_Space; Go's is ASCII). A construct that Go reads otherwise or
// does not have is refused by name: \w, \d, \b (ASCII in Go, Unicode in
// Oniguruma), \p{...} (Go's Unicode tables), \pL without braces (a class
// in Go only), \Q...\E, x{,n} (a quantifier in Oniguruma only), flags
// such as (?m) (dot-all there) and (?i), look-around, ^ and $ (line
// anchors there), POSIX brackets and classes inside classes.
//
// # Token ends
//
// AppendTokenEnds reports where each token ends in the original text. A
// token the normalizer built from several characters ends after the
// last of them; one made of inserted characters (Metaspace's "▁") ends
// with the character it was put before; characters the normalizer
// removed belong to the token before them; the last token ends at
// len(text). Where the library's alignment is odd, the ends follow it: its
// Precompiled normalizer charges a removed character to the last
// character it wrote, so after an expansion (ǲ to "Dz") the last
// character of the expansion takes the removed one, and after a removed
// first character the rest of the stretch is aligned one character
// early. The post-processors' trim_offsets (GPT-2's, RoBERTa's), which
// narrows only the offsets the library reports and not the tokens, is not
// applied: the ends stay a partition of the text.
//
// # Module
//
// This package is a module of its own so that its dependency,
// golang.org/x/text (Unicode normalization: NFC for Qwen, NFD for BERT's
// accent stripping, NFKC for Unigram models), stays out of ragkit's core
// module: a program that counts with tiktoken encodings only does not
// link it (and github.com/rivo/uniseg, which the core module has, for
// the grapheme clusters of the Precompiled normalizer). The library's
// Unicode tables come from crates of other
// Unicode versions than Go's and x/text's (15.0): older ones for
// normalization, Unicode 16 for its regular expressions' classes; where
// they disagree (characters assigned or changed in between), tables
// generated by asking the library about every code point make this
// package follow it, for normalization, combining classes (a mark Go
// knows and the library does not is a starter there), lower case,
// punctuation, numbers, word characters and the classes of the Split
// patterns. The library's normalization is not stream-safe: where Go's
// inserts U+034F after 30 combining marks in a row, such a run is
// normalized here by the definition instead. x/text v0.44.0 needs Go 1.26.
package hf
