package eval

import (
	"github.com/ragkit/ragkit/tokencount"
)

// Techniques returns every configuration the report compares, for each
// size in turn: the plain chunks of [Standard] (greedy, then balanced);
// balanced chunks with contextual headers ([Headers]: title and section
// path, then with the extractive summary too); balanced chunks found by
// keyword search and by hybrid search ([WithSearch]); the headers with
// the summary found by hybrid search; sentence windows ([Windows]) and
// segment extraction ([Segments], Balanced and Recall presets) with the
// budget of k chunks of the size; and sentence windows under headers
// ([HeaderWindows]).
func Techniques(tok tokencount.Tokenizer, sizes []int, k int) ([]Method, error) {
	var out []Method
	for _, n := range sizes {
		balanced := Balanced(tok, n)
		out = append(out, Greedy(tok, n), balanced)
		headers, err := Headers(tok, n, false)
		if err != nil {
			return nil, err
		}
		summary, err := Headers(tok, n, true)
		if err != nil {
			return nil, err
		}
		out = append(out, headers, summary)
		for _, s := range []struct {
			m      Method
			search string
		}{{balanced, "keywords"}, {balanced, "hybrid"}, {summary, "hybrid"}} {
			m, err := WithSearch(s.m, s.search)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
		hw, err := HeaderWindows(tok, n)
		if err != nil {
			return nil, err
		}
		out = append(append(out, WindowMethods(tok, []int{n}, k)...), hw)
	}
	return out, nil
}
