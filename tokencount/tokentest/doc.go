// Package tokentest provides tokenizers for testing code that sizes text
// with a [tokencount.Tokenizer], in the spirit of [testing/iotest] and
// [net/http/httptest].
//
// A chunker or an assembler must keep its promises with any tokenizer, not
// only with the well-behaved tiktoken encodings, so its tests need
// tokenizers that are cheap to reason about ([FixedWidth], [Runes],
// [Words]), tokenizers that break the assumptions estimates rest on
// ([Edge], [Lumpy], [Crowded], [Growing], [Hidden]), ad-hoc ones ([Func]),
// and a wrapper that counts the work reaching a tokenizer ([Counting]).
//
// None of these counts tokens as any model does; use package tokencount's
// encodings for that.
package tokentest
