// Package stem is the Porter2 ("English") stemmer of the Snowball
// project, as PostgreSQL's english text search configuration, Lucene's
// EnglishAnalyzer and Tantivy use it: "expects" and "expected" become
// "expect", "speakers" becomes "speaker", so keyword search matches the
// forms of a word.
//
// It reads lower-case ASCII words; a word with any other byte is returned
// unchanged. It is linear in the word and allocates only for a word it
// changes.
package stem

// English returns the Porter2 stem of word, a lower-case word.
func English(word string) string {
	if len(word) <= 2 || !lowerASCII(word) {
		return word
	}
	var buf [48]byte
	b := Bytes(append(buf[:0], word...))
	if string(b) == word {
		return word
	}
	return string(b)
}

// Bytes stems the lower-case word b in place and returns the stem, a
// sub-slice of b: no step makes a word longer. A word
// with a byte other than a to z and the apostrophe is returned as it is.
func Bytes(b []byte) []byte {
	if len(b) <= 2 || !lowerASCII(string(b)) {
		return b
	}
	if s, ok := exceptions1[string(b)]; ok {
		return append(b[:0], s...)
	}
	w := stemmer{b: b}
	w.prelude()
	if len(w.b) <= 2 {
		return w.result()
	}
	w.markRegions()
	w.step0()
	w.step1a()
	if len(w.b) <= 7 && exceptions2[string(w.b)] {
		return w.result()
	}
	w.step1b()
	w.step1c()
	w.step2()
	w.step3()
	w.step4()
	w.step5()
	return w.result()
}

func lowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && c != '\'' {
			return false
		}
	}
	return true
}

var exceptions1 = map[string]string{
	"skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie",
	"idly": "idl", "gently": "gentl", "ugly": "ugli", "early": "earli", "only": "onli", "singly": "singl",
	"sky": "sky", "news": "news", "howe": "howe", "atlas": "atlas", "cosmos": "cosmos", "bias": "bias", "andes": "andes",
}

var exceptions2 = map[string]bool{
	"inning": true, "outing": true, "canning": true, "herring": true,
	"earring": true, "proceed": true, "exceed": true, "succeed": true,
}

// stemmer holds a word being stemmed; Y marks a y that is a consonant.
type stemmer struct {
	b      []byte
	p1, p2 int // the starts of R1 and R2
}

// result returns the stem, its consonant ys lower case again.
func (w *stemmer) result() []byte {
	for i, c := range w.b {
		if c == 'Y' {
			w.b[i] = 'y'
		}
	}
	return w.b
}

func vowel(c byte) bool {
	return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y'
}

// prelude drops a leading apostrophe and marks consonant ys.
func (w *stemmer) prelude() {
	if w.b[0] == '\'' {
		w.b = w.b[1:]
	}
	for i, c := range w.b {
		if c == 'y' && (i == 0 || vowel(w.b[i-1])) {
			w.b[i] = 'Y'
		}
	}
}

// markRegions sets R1, the region after the first non-vowel that follows
// a vowel (after gener, commun or arsen for words that start so), and R2,
// the same region within R1.
func (w *stemmer) markRegions() {
	w.p1 = len(w.b)
	switch {
	case w.hasPrefix("gener"), w.hasPrefix("arsen"):
		w.p1 = 5
	case w.hasPrefix("commun"):
		w.p1 = 6
	default:
		w.p1 = w.regionAfter(0)
	}
	w.p2 = w.regionAfter(w.p1)
}

func (w *stemmer) regionAfter(i int) int {
	for ; i+1 < len(w.b); i++ {
		if vowel(w.b[i]) && !vowel(w.b[i+1]) {
			return i + 2
		}
	}
	return len(w.b)
}

func (w *stemmer) hasPrefix(p string) bool {
	return len(w.b) >= len(p) && string(w.b[:len(p)]) == p
}

func (w *stemmer) ends(s string) bool {
	return len(w.b) >= len(s) && string(w.b[len(w.b)-len(s):]) == s
}

// longest returns the longest of suffixes that the word ends with, or "".
func (w *stemmer) longest(suffixes []string) string {
	best := ""
	for _, s := range suffixes {
		if len(s) > len(best) && w.ends(s) {
			best = s
		}
	}
	return best
}

// replace replaces the suffix of n bytes by r. No step makes the word
// longer than it was given, so the word's buffer always has room.
func (w *stemmer) replace(n int, r string) {
	k := len(w.b) - n
	w.b = w.b[:k+len(r)]
	copy(w.b[k:], r)
}

func (w *stemmer) inR1(suffix string) bool { return len(w.b)-len(suffix) >= w.p1 }
func (w *stemmer) inR2(suffix string) bool { return len(w.b)-len(suffix) >= w.p2 }

// vowelBefore reports a vowel in the word before its last n bytes.
func (w *stemmer) vowelBefore(n int) bool {
	for _, c := range w.b[:len(w.b)-n] {
		if vowel(c) {
			return true
		}
	}
	return false
}

// shortSyllableAt reports whether the word ends, at end, in a short
// syllable: a non-vowel, a vowel and a non-vowel other than w, x and Y; or,
// at the start of the word, a vowel and a non-vowel.
func (w *stemmer) shortSyllableAt(end int) bool {
	b := w.b[:end]
	n := len(b)
	if n == 2 {
		return vowel(b[0]) && !vowel(b[1])
	}
	return n >= 3 && !vowel(b[n-3]) && vowel(b[n-2]) && !vowel(b[n-1]) &&
		b[n-1] != 'w' && b[n-1] != 'x' && b[n-1] != 'Y'
}

// short reports a short word: one that ends in a short syllable and has
// an empty R1.
func (w *stemmer) short() bool { return w.p1 >= len(w.b) && w.shortSyllableAt(len(w.b)) }

func (w *stemmer) step0() {
	if s := w.longest([]string{"'", "'s", "'s'"}); s != "" {
		w.replace(len(s), "")
	}
}

func (w *stemmer) step1a() {
	switch s := w.longest([]string{"sses", "ied", "ies", "us", "ss", "s"}); s {
	case "sses":
		w.replace(4, "ss")
	case "ied", "ies":
		if len(w.b) > 4 {
			w.replace(3, "i")
		} else {
			w.replace(3, "ie")
		}
	case "s":
		// delete if a vowel comes before the letter before the s
		if len(w.b) >= 3 && w.vowelBefore(2) {
			w.replace(1, "")
		}
	}
}

var doubles = map[string]bool{"bb": true, "dd": true, "ff": true, "gg": true, "mm": true, "nn": true, "pp": true, "rr": true, "tt": true}

func (w *stemmer) step1b() {
	s := w.longest([]string{"eed", "eedly", "ed", "edly", "ing", "ingly"})
	switch s {
	case "":
		return
	case "eed", "eedly":
		if w.inR1(s) {
			w.replace(len(s), "ee")
		}
		return
	}
	if !w.vowelBefore(len(s)) {
		return
	}
	w.replace(len(s), "")
	switch {
	case w.ends("at"), w.ends("bl"), w.ends("iz"):
		w.replace(0, "e")
	case len(w.b) >= 2 && doubles[string(w.b[len(w.b)-2:])]:
		w.replace(1, "")
	case w.short():
		w.replace(0, "e")
	}
}

func (w *stemmer) step1c() {
	n := len(w.b)
	if n > 2 && (w.b[n-1] == 'y' || w.b[n-1] == 'Y') && !vowel(w.b[n-2]) {
		w.b[n-1] = 'i'
	}
}

var step2Suffixes = []string{
	"tional", "enci", "anci", "abli", "entli", "izer", "ization", "ational", "ation", "ator",
	"alism", "aliti", "alli", "fulness", "ousli", "ousness", "iveness", "iviti", "biliti", "bli",
	"ogi", "fulli", "lessli", "li",
}

var step2Replace = map[string]string{
	"tional": "tion", "enci": "ence", "anci": "ance", "abli": "able", "entli": "ent",
	"izer": "ize", "ization": "ize", "ational": "ate", "ation": "ate", "ator": "ate",
	"alism": "al", "aliti": "al", "alli": "al", "fulness": "ful", "ousli": "ous", "ousness": "ous",
	"iveness": "ive", "iviti": "ive", "biliti": "ble", "bli": "ble", "ogi": "og", "fulli": "ful", "lessli": "less",
}

func (w *stemmer) step2() {
	s := w.longest(step2Suffixes)
	if s == "" || !w.inR1(s) {
		return
	}
	before := byte(0)
	if len(w.b) > len(s) {
		before = w.b[len(w.b)-len(s)-1]
	}
	switch s {
	case "ogi":
		if before == 'l' {
			w.replace(3, "og")
		}
	case "li":
		switch before {
		case 'c', 'd', 'e', 'g', 'h', 'k', 'm', 'n', 'r', 't':
			w.replace(2, "")
		}
	default:
		w.replace(len(s), step2Replace[s])
	}
}

var step3Suffixes = []string{"tional", "ational", "alize", "icate", "iciti", "ical", "ful", "ness", "ative"}

var step3Replace = map[string]string{
	"tional": "tion", "ational": "ate", "alize": "al", "icate": "ic", "iciti": "ic", "ical": "ic", "ful": "", "ness": "",
}

func (w *stemmer) step3() {
	s := w.longest(step3Suffixes)
	if s == "" || !w.inR1(s) {
		return
	}
	if s == "ative" {
		if w.inR2(s) {
			w.replace(5, "")
		}
		return
	}
	w.replace(len(s), step3Replace[s])
}

var step4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
	"ism", "ate", "iti", "ous", "ive", "ize", "ion",
}

func (w *stemmer) step4() {
	s := w.longest(step4Suffixes)
	if s == "" || !w.inR2(s) {
		return
	}
	if s == "ion" {
		if n := len(w.b) - 4; n >= 0 && (w.b[n] == 's' || w.b[n] == 't') {
			w.replace(3, "")
		}
		return
	}
	w.replace(len(s), "")
}

func (w *stemmer) step5() {
	n := len(w.b)
	switch {
	case w.ends("e"):
		if w.inR2("e") || w.inR1("e") && !w.shortSyllableAt(n-1) {
			w.replace(1, "")
		}
	case w.ends("l"):
		if w.inR2("l") && n >= 2 && w.b[n-2] == 'l' {
			w.replace(1, "")
		}
	}
}

// IsStop reports whether w is one of the very common English words that
// say little about a text's topic on their own ("the", "of", "and"). Both
// the keyword index and the offline embedder leave them out unless told
// to keep them, so they share this one list.
func IsStop(w []byte) bool { return stopWords[string(w)] }

// stopWords are very common English words that say little about a text's
// topic on their own.
var stopWords = func() map[string]bool {
	m := make(map[string]bool)
	for _, w := range []string{
		"a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at",
		"be", "been", "before", "being", "but", "by", "can", "could", "did", "do", "does",
		"for", "from", "had", "has", "have", "he", "her", "here", "hers", "him", "his", "how",
		"i", "if", "in", "into", "is", "it", "its", "just", "me", "more", "most", "my", "no",
		"nor", "not", "now", "of", "on", "only", "or", "other", "our", "out", "over", "own",
		"she", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then",
		"there", "these", "they", "this", "those", "through", "to", "too", "under", "up",
		"upon", "us", "very", "was", "we", "were", "what", "when", "where", "which", "while",
		"who", "whom", "why", "will", "with", "would", "you", "your",
	} {
		m[w] = true
	}
	return m
}()
