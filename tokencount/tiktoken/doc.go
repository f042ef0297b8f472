// Package tiktoken counts tokens with github.com/pkoukk/tiktoken-go
// itself, offline: the yardstick that the encodings of package
// [tokencount] are tested against, for callers who want to cross-check
// them. Its [Encoding] returns a [tokencount.Tokenizer] whose Count is
// len(EncodeOrdinary(text)), and which also reports token ends
// ([tokencount.Offsetter]).
//
// It is a package of its own so that a program that only counts, with
// [tokencount.Encoding] or [tokencount.ForModel], does not link
// tiktoken-go and what it brings along (a backtracking regular expression
// engine, a UUID package, and the HTTP client it downloads vocabularies
// with). It counts, and builds each encoding on first use, at tiktoken-go's
// speed, not package tokencount's: benchmarks/README.md in the repository
// measures both (https://github.com/ragkit/ragkit/blob/main/benchmarks/README.md#token-counting).
//
// tiktoken-go downloads its vocabulary files unless told otherwise, so on
// first use Encoding installs tiktoken-go-loader's offline loader, which
// reads the vocabularies embedded in the binary, with
// tiktoken.SetBpeLoader, once per process. That setting is global to
// tiktoken-go: a program that also uses tiktoken-go directly and needs
// another loader must set it after its first call to Encoding.
package tiktoken
