package segment

import (
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/space"
)

// Text written without capitals (financial filings extracted to lower case,
// chat logs, speech transcripts) has no capital letter after a period, and
// the rules that read a lower-case word after a terminator as the sentence
// going on ("at 5 p.m. iPhones", "“Why?” she asked") would then find
// almost no boundary. A paragraph is read as lower-case text when its first
// cased letter is lower case and, among the words that follow a terminator
// and white space, at most a third are capitalised (a paragraph of ordinary
// prose opens with a capital, and its sentences too). There a lower-case
// word after a terminator may open a sentence: after '!' and '?' it does
// (unless a closing quote stands between, as in a dialogue tag), after a
// period the abbreviation rules decide, an abbreviation ending one only
// before a determiner or pronoun.
// The boundaries found this way are weaker evidence than a capital letter,
// which the spans cannot express; a caller that cuts text, like a chunker,
// gets sentences where it would otherwise fall back to commas.

// lowerCase reports whether the current paragraph is lower-case text. It is
// worked out once per paragraph, the first time a rule asks, which in
// ordinary prose is rare (an abbreviation before a lower-case word).
func (sc *scanner) lowerCase() bool {
	if sc.lowerMode == 0 {
		sc.lowerMode = -1
		if isLowerCaseText(sc.text[sc.pStart:sc.pEnd]) {
			sc.lowerMode = 1
		}
	}
	return sc.lowerMode > 0
}

// isLowerCaseText applies the test described above to one paragraph.
func isLowerCaseText(s string) bool {
	if r, ok := firstCased(s); !ok || !unicode.IsLower(r) {
		return false
	}
	upper, lower := 0, 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(s) && (s[j] == '.' || s[j] == '!' || s[j] == '?' || s[j] == '"' || s[j] == '\'' || s[j] == ')') {
			j++
		}
		k := space.Skip(s, j, len(s))
		if k > j && k < len(s) {
			switch r, _ := utf8.DecodeRuneInString(s[k:]); {
			case unicode.IsUpper(r) || unicode.IsTitle(r):
				upper++
			case unicode.IsLower(r):
				lower++
			}
		}
		i = max(j, k) - 1
	}
	return lower > 0 && upper*2 <= lower
}

// firstCased returns the first letter of s that has case.
func firstCased(s string) (rune, bool) {
	for _, r := range s {
		if unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) {
			return r, true
		}
	}
	return 0, false
}

// lowerFunctionWord is functionWord for a lower-case word: an English
// determiner or pronoun, or a sentence starter of another language.
func (sc *scanner) lowerFunctionWord(w word) bool {
	var buf [24]byte
	b := lower(buf[:], sc.text[w.pos:w.end])
	if b == nil {
		return false
	}
	if sc.punkt == nil {
		return sc.lang.starters[string(b)]
	}
	return functionWords[string(b)]
}
