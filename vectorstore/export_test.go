package vectorstore

// Crc32c exposes the format's checksum to the external tests.
var Crc32c = crc32c

// ForceFanOut makes every query of m share its scan among all of m's
// workers however small the store, so that tests of small stores cover
// the parallel scan.
func ForceFanOut(m *Memory) { m.minWork = 1 }

// Terms returns the terms the keyword index makes of text.
func Terms(text string, keepStops bool) []string {
	return TermsAfter("", text, keepStops)
}

// TermsAfter returns the terms of text by an analyzer that analysed prev
// first, as the index's pooled analyzers have analysed other texts.
func TermsAfter(prev, text string, keepStops bool) []string {
	a := analyzer{keepStops: keepStops}
	a.analyze(prev)
	a.analyze(text)
	out := make([]string, len(a.ends))
	for i := range out {
		out[i] = string(a.term(i))
	}
	return out
}
