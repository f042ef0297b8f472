package tokencount

import "unicode/utf8"

// Test data and checks of the internal tests, for the tests of package
// tokencount_test that compare with package tiktoken: it imports
// tokencount, so they cannot be internal tests.
var (
	Seeds     = seeds
	Shapes    = shapes
	Window    = window
	CheckEnds = checkEnds
	Clip      = clip
)

// PartialTokens returns the tokens of the encoding name whose bytes are
// not valid UTF-8 (a character cut in two).
func PartialTokens(name string) []string {
	b, err := encoding(name)
	if err != nil {
		panic(err)
	}
	var toks []string
	b.vocab.all(func(tok string, _ uint32) {
		if !utf8.ValidString(tok) {
			toks = append(toks, tok)
		}
	})
	return toks
}
