package memory

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
