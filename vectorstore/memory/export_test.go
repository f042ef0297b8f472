package memory

import "fmt"

// Crc32c exposes the format's checksum to the external tests.
var Crc32c = crc32c

// ForceFanOut makes every query of m share its scan among all of m's
// workers however small the store, so that tests of small stores cover
// the parallel scan.
func ForceFanOut(m *Store) { m.minWork = 1 }

// Terms returns the words the keyword index makes of text before
// stemming: pieces of the case-folded text.
func Terms(text string, keepStops bool) []string {
	return TermsAfter("", text, keepStops)
}

// TermsOf returns the terms the keyword index of a Store configured
// with cfg makes of text.
func TermsOf(text string, cfg KeywordConfig) []string {
	a := analyzer{keepStops: cfg.KeepStopWords, noStem: cfg.NoStemming}
	a.analyze(text)
	out := make([]string, len(a.ends))
	for i := range out {
		out[i] = string(a.term(i))
	}
	return out
}

// TermsAfter returns the terms of text, before stemming, by an analyzer
// that analysed prev first, as the index's pooled analyzers have analysed
// other texts.
func TermsAfter(prev, text string, keepStops bool) []string {
	a := analyzer{keepStops: keepStops, noStem: true}
	a.analyze(prev)
	a.analyze(text)
	out := make([]string, len(a.ends))
	for i := range out {
		out[i] = string(a.term(i))
	}
	return out
}

// CheckIndex verifies the approximate index's bookkeeping: every slot is
// in exactly one list, at the position the index records for it. It
// returns the number of lists, 0 while the index is not trained.
func CheckIndex(m *Store) (int, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	ix := m.ivf
	if ix == nil || !ix.active() {
		return 0, nil
	}
	n := len(m.st.recs)
	if len(ix.list) != n || len(ix.pos) != n {
		return 0, fmt.Errorf("index covers %d and %d slots, store has %d", len(ix.list), len(ix.pos), n)
	}
	seen := 0
	for l, mem := range ix.members {
		for p, s := range mem {
			if int(s) >= n || ix.list[s] != int32(l) || ix.pos[s] != int32(p) {
				return 0, fmt.Errorf("list %d position %d holds slot %d, indexed at list %d position %d", l, p, s, ix.list[s], ix.pos[s])
			}
			seen++
		}
	}
	if seen != n {
		return 0, fmt.Errorf("lists hold %d slots, store has %d", seen, n)
	}
	return ix.lists(), nil
}
