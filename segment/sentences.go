package segment

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// NewlineMode says how a single line break inside a paragraph is treated. A
// blank line always ends a sentence, whatever the mode.
type NewlineMode int

const (
	// NewlineAuto, the zero value, reads a line break as a space, as in
	// hard-wrapped books and text extracted from PDFs, except where the lines
	// show structure: list items, bullets, Markdown headings, quotes, tables
	// and code fences, short heading-like lines, and the lines of a
	// paragraph that holds no sentence terminator (a list of items, an
	// address) are units of their own. The package documentation has the
	// details.
	NewlineAuto NewlineMode = iota
	// NewlineSpace always reads a single line break as a space.
	NewlineSpace
	// NewlineBreak ends a sentence at every line break.
	NewlineBreak
)

var newlineNames = [...]string{NewlineAuto: "NewlineAuto", NewlineSpace: "NewlineSpace", NewlineBreak: "NewlineBreak"}

// String returns the constant's name, such as "NewlineAuto".
func (m NewlineMode) String() string {
	if m < 0 || int(m) >= len(newlineNames) {
		return "NewlineMode(" + strconv.Itoa(int(m)) + ")"
	}
	return newlineNames[m]
}

// Config configures a [Segmenter]. The zero value gives the default English
// segmenter that [Sentences] uses.
type Config struct {
	// Language is the BCP 47 tag of the text's language ("en", "de",
	// "zh-Hant"); empty means English. English has the richest rules: an
	// abbreviation list, the Punkt model of github.com/neurosnap/sentences
	// and a list of sentence starters. Armenian (hy) and Arabic (ar) also
	// end sentences at ':', Arabic at '،', Greek (el) treats ';' as a
	// question mark. Bulgarian, Danish, Dutch, French, German, Italian,
	// Kazakh, Polish, Russian, Slovak and Spanish have short abbreviation
	// lists of their own. Any other well-formed tag gets the generic rules:
	// every script's terminators, numbers, lists, ellipses, initials,
	// multi-period abbreviations and a few international ones ("Dr.",
	// "No.", "etc.").
	Language string
	// Abbreviations are extra abbreviations, case-insensitive, with or
	// without the final period ("approx", "Dept.", "Ph.D."). A period after
	// one ends a sentence only if the next word often opens a sentence
	// ("The", "It", "However") and three words precede it.
	Abbreviations []string
	// Newlines says how a single line break inside a paragraph is treated.
	Newlines NewlineMode
}

// ErrConfig is returned by [New] for a bad [Config], wrapped with the
// field, its value and what is allowed; test for it with [errors.Is].
var ErrConfig = errors.New("segment: invalid configuration")

// Segmenter finds sentence boundaries with a fixed configuration. It is
// safe for concurrent use. The zero value, and a nil *Segmenter, are the
// default English segmenter.
type Segmenter struct {
	cfg      Config
	lang     *language
	abbrevs  *abbrevTable // the language's list plus Config.Abbreviations
	newlines NewlineMode
}

// New returns a Segmenter configured by cfg. It fails, with an error
// wrapping [ErrConfig], only if cfg.Language is not a well-formed tag or
// cfg.Newlines is not one of the defined modes.
func New(cfg Config) (*Segmenter, error) {
	l, ok := lookupLanguage(cfg.Language)
	if !ok {
		return nil, fmt.Errorf("%w: Language is %q: must be a well-formed BCP 47 tag such as \"en\" or \"pt-BR\"", ErrConfig, cfg.Language)
	}
	if cfg.Newlines < NewlineAuto || cfg.Newlines > NewlineBreak {
		return nil, fmt.Errorf("%w: Newlines is %v: must be NewlineAuto, NewlineSpace or NewlineBreak", ErrConfig, cfg.Newlines)
	}
	cfg.Abbreviations = slices.Clone(cfg.Abbreviations)
	s := &Segmenter{cfg: cfg, lang: l, newlines: cfg.Newlines, abbrevs: l.abbrevTable()}
	if len(cfg.Abbreviations) > 0 {
		base := languageAbbrevs(l)
		m := make(map[string]abbrKind, len(base)+len(cfg.Abbreviations))
		for k, v := range base {
			m[k] = v
		}
		for _, a := range cfg.Abbreviations {
			a = strings.ToLower(strings.TrimSpace(a))
			a = strings.TrimSuffix(a, ".")
			if a == "" {
				continue
			}
			if _, known := m[a]; !known {
				m[a] = abbrPlain
			}
		}
		s.abbrevs = newAbbrevTable(m)
	}
	return s, nil
}

// Config returns the configuration s was made with; the zero Config for
// the zero or nil Segmenter.
func (s *Segmenter) Config() Config {
	if s == nil {
		return Config{}
	}
	c := s.cfg
	c.Abbreviations = slices.Clone(c.Abbreviations)
	return c
}

// languageAbbrevs returns the abbreviations of l, with the Punkt ones for
// English. The map is shared and never written to.
func languageAbbrevs(l *language) map[string]abbrKind {
	if !l.punkt {
		return l.abbrevs
	}
	englishAbbrevsOnce.Do(func() {
		m := make(map[string]abbrKind, len(l.abbrevs)+200)
		for _, a := range englishPunkt().abbrevs() {
			m[a] = abbrPlain
		}
		for k, v := range l.abbrevs { // the hand-written kinds win
			m[k] = v
		}
		englishAbbrevMap = m
	})
	return englishAbbrevMap
}

var defaultSegmenter Segmenter

// Sentences returns the sentences of text by the default English rules
// (see the package documentation), as spans trimmed of surrounding white
// space. It is the zero [Segmenter]'s Sentences.
func Sentences(text string) []Span { return defaultSegmenter.AppendSentences(nil, text) }

// AppendSentences appends the spans [Sentences] would return to dst and
// returns the extended slice.
func AppendSentences(dst []Span, text string) []Span {
	return defaultSegmenter.AppendSentences(dst, text)
}

// Sentences returns the sentences of text as spans trimmed of surrounding
// white space.
func (s *Segmenter) Sentences(text string) []Span { return s.AppendSentences(nil, text) }

// AppendSentences appends the sentence spans of text to dst and returns the
// extended slice. It allocates only to grow dst.
func (s *Segmenter) AppendSentences(dst []Span, text string) []Span {
	sc := scanner{text: text, dst: dst, breaks: newBreakFinder(text)}
	if s == nil || s.lang == nil {
		sc.lang, sc.abbrevs = englishRules()
	} else {
		sc.lang, sc.abbrevs, sc.newlines = s.lang, s.abbrevs, s.newlines
	}
	if sc.lang.punkt {
		sc.punkt = englishPunkt()
	}
	for i := 0; i < len(text); {
		p, ok := nextParagraph(text, i, sc.breaks)
		if !ok {
			break
		}
		sc.paragraph(p)
		i = p.next
	}
	return sc.dst
}
