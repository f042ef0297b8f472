// Package segment cuts text into units at five levels, paragraphs,
// sentences, lines, words and graphemes, and returns them as byte spans
// ([Span]) into the input, for callers that must keep offsets, such as a
// chunker that cuts at the strongest boundary available.
//
// Every function returns spans in order, non-overlapping, each trimmed of
// surrounding white space, that together cover every byte of the input that
// is not white space. Nothing is copied: text[s.Start:s.End] is the unit.
// Invalid UTF-8 is carried through (a bad byte counts as a non-space
// character), and empty input gives no spans. Each function has an Append
// variant ([AppendSentences]) that reuses a caller's slice and allocates
// nothing once it is large enough.
//
// # Levels
//
// [Paragraphs] are runs of lines separated by blank lines (lines that are
// empty or hold only white space) or by U+2029. [Lines] are the non-blank
// lines. "\r\n" is one line break, exactly like "\n"; a lone "\r", "\v",
// "\f", U+0085 and U+2028 also end lines. [Words] and [Graphemes] follow
// the Unicode word and grapheme cluster boundaries of UAX #29 (through
// github.com/rivo/uniseg, with a faster path for ASCII that gives the same
// spans), without the white space between them.
//
// [Sentences] finds sentence boundaries with rules, by default for English;
// a [Segmenter] configured with [Config] handles other languages, extra
// abbreviations and other treatments of line breaks.
//
// # Sentence rules
//
// A paragraph break always ends a sentence. Inside a paragraph, a sentence
// ends at a terminator ('.', '!', '?', '…') followed by white space and a
// word that may start a sentence, after any closing quotes, brackets and
// footnote references ("done.”", "done.)", "done.[3]"). The rules that make
// this work on real text:
//
//   - A lower-case word after a terminator continues the sentence: "Yahoo!
//     in", "“Is it?” she asked", "5th st. near", "(see above.) and".
//     Except in text written without capitals (filings extracted to lower
//     case, chat logs, transcripts): a paragraph whose first cased letter is
//     lower case and in which at most a third of the words after a
//     terminator are capitalised is read as lower-case text, and there a
//     lower-case word opens a sentence after '!' and '?' (but not after a
//     closing quote: "“why?” she asked") and after a period that is not an
//     abbreviation; after an abbreviation only a determiner or pronoun
//     does ("in the u.s. we", but "the u.s. government", "dr. smith").
//     These boundaries rest on weaker evidence than a capital letter.
//   - Abbreviations come from a hand-written list and from the English Punkt
//     model of github.com/neurosnap/sentences. Titles ("Dr.", "Prof.",
//     "Gen.", "Mt.", "St.") end a sentence only before a determiner or
//     pronoun ("Main St. The door"), never before a name ("Mt. Fuji").
//     Others ("Co.", "Inc.", "U.S.", "et seq.") end one only before a word
//     that often opens a sentence ("The", "It", "However", "How", or a word
//     Punkt saw in lower case and never capitalised inside a sentence) and
//     after at least three words, so
//     that "the U.S. Government" stays whole and "live in the U.S. How about
//     you?" is cut. "a.m.", "p.m." and "etc." end a sentence before any
//     capitalised word under the same three-word condition ("at 6 P.M. Mr.
//     Smith", but "At 5 a.m. Mr. Smith went"); "e.g.", "i.e.", "vs." and
//     "cf." never do; "No.", "p.", "Fig.", "Vol." are abbreviations only
//     before a number. Words written as letters joined by periods ("U.K.",
//     "Ph.D.") are abbreviations even when unlisted.
//   - A single letter before a period is an initial ("J. R. R. Tolkien",
//     "Albert I. Jones", "p. 55"), except for the pronoun "I" before a word
//     Punkt knows in lower case ("you and I. Did you") and any letter
//     before a function word ("plan B. The").
//   - Numbers: a period inside a number, URL, e-mail address, file name or
//     version ("$100.00", "www.x.org", "a@b.com", "main.go", "v1.2.3") is
//     not followed by white space and never ends a sentence; one after it
//     does ("It costs $3.50. Next").
//   - Lists: a number, letter or roman numeral followed by ".", ".)" or ")"
//     at the start of a sentence ("1. ", "b) ", "iv. ", "• 9. ") marks an
//     item; the item's own period ends nothing, and the next item of the
//     same list starts a sentence even without a terminator before it ("1.
//     The first item 2. The second item"). Bullets ("• a • b") work alike.
//   - Ellipses: "..." and "…" end a sentence before a capitalised word, not
//     before a lower-case one, and never inside brackets ("[...]"). Spaced
//     ellipses ". . ." mark an omission inside a sentence; four spaced dots
//     end one, after the first dot if it is attached to the word ("word. .
//     . . Next" gives "word." and ". . . Next").
//   - Missing spaces: "world.Today" is cut when a lower-case word or a
//     number precedes the period and a word that often opens a sentence
//     follows it, and the token is not a URL, address or identifier
//     ("strings.Builder" stays whole).
//   - Other scripts end sentences with their own terminators in every
//     language: 。！？ (outside 「」《》 and other CJK brackets), the
//     Devanagari danda ।, the Arabic question mark ؟, the Urdu full stop ۔,
//     the Armenian ։, the Ethiopic ። and ፧, the Myanmar ။, the Khmer ។.
//   - Language options add what a language needs: ':' ends sentences in
//     Armenian and Arabic, '،' in Arabic (except between list items), ';'
//     is the Greek question mark; no sentence ends inside „…“ or «…» in
//     Bulgarian, Kazakh, Russian and Slovak; "12. Juni" and "XII. Pluku"
//     are ordinals in German, Polish and Slovak.
//
// # Line breaks
//
// With the default [NewlineAuto], a single line break inside a paragraph is
// a space, so that hard-wrapped books and text extracted from PDFs keep
// their sentences whole, unless the lines show structure. A line break
// ends a sentence before a list item, bullet, Markdown heading, block quote,
// table row, code fence or rule line; after a heading, table row or list
// item (unless the item goes on in lower case); after a short line that
// looks like a heading (capitalised, no final punctuation, followed by a
// capitalised line, and shorter than the lines around it would be had the
// text been wrapped); and between lines that start with the same word
// ("Chapter IV ...", "Chapter V ..."). In a paragraph that holds no
// sentence terminator at all (a list of items, an address, code), every
// line is a unit unless the lines look like wrapped prose. [NewlineSpace]
// and [NewlineBreak] turn the heuristics off, one way or the other.
//
// # Limits
//
// The rules look at a few words around each candidate boundary; they do not
// parse. Known trade-offs: an abbreviation at the end of a sentence followed
// by a noun or name is not cut ("He joined Acme Inc. Shares fell."), while
// one before a name that begins with a common opener is ("shares of Hart
// Inc. The Times said"); a quotation that
// ends with a terminator and is followed by a capitalised word is cut ("“Stop!”
// Tom said."); a sentence that starts in lower case after a period is not
// cut ("at 5 p.m. iPhones sold"); line-break heuristics can merge a short
// heading into the next line when the paragraph's lines are no longer than
// it. Languages other than English have short abbreviation lists, written
// for this package, and no statistical model.
//
// # Cost
//
// Sentences reads each byte a few times, looking at words only around
// candidate boundaries, in time linear in the input, and allocates only its
// result (nothing with [AppendSentences] and a large enough buffer);
// benchmarks/README.md in the repository gives measured speeds. The
// English Punkt data is compiled into the package as constant tables, so a
// first call costs no more than any other. A [Segmenter] holds no mutable
// state and may be shared by goroutines.
package segment
