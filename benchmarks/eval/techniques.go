package eval

import "github.com/ragkit/ragkit/tokencount"

// Techniques returns every configuration the report compares, for each
// size in turn: the plain chunks of [Standard] (greedy, then balanced),
// then balanced chunks with contextual headers ([Headers]: title and
// section path, then with the extractive summary too).
func Techniques(tok tokencount.Tokenizer, sizes []int) ([]Method, error) {
	var out []Method
	for _, n := range sizes {
		out = append(out, Standard(tok, []int{n})...)
		for _, summary := range []bool{false, true} {
			m, err := Headers(tok, n, summary)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
	}
	return out, nil
}
