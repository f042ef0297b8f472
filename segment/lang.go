package segment

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// abbrKind says how a period after an abbreviation behaves.
type abbrKind uint8

const (
	abbrNone abbrKind = iota
	// abbrPlain ends a sentence only before a word that often opens one
	// ("Co. It closed", but "Co. Ltd"), and only after three words.
	abbrPlain
	// abbrTitle comes before a name ("Dr. Watson", "Mt. Fuji"): it ends a
	// sentence only before a function word such as "The".
	abbrTitle
	// abbrNumber is an abbreviation only before a number ("No. 5", "Fig.
	// 3"); anywhere else it is an ordinary word.
	abbrNumber
	// abbrInner introduces something and never ends a sentence ("e.g.",
	// "vs.").
	abbrInner
	// abbrFinal often ends a sentence ("etc.", "p.m."): any capitalised word
	// after it starts a new one, given three words before it.
	abbrFinal
)

// language holds the rules that differ between languages.
type language struct {
	code     string
	abbrevs  map[string]abbrKind // lower case, without the final period
	starters map[string]bool     // lower case words that often open a sentence
	months   map[string]bool     // lower case month names: "12. Juni" is a date
	punkt    bool                // use the English Punkt model
	colon    bool                // ':' ends a sentence (Armenian, Arabic)
	comma    bool                // '،' ends a sentence (Arabic)
	semi     bool                // ';' is a question mark (Greek)
	quotes   bool                // no boundary inside „…“ and «…» quotations
	ordinals bool                // "XII. Pluku" and "7. Apríla" are ordinals
	class    [256]uint8          // byte classes for the scanner

	tableOnce sync.Once
	table     *abbrevTable // languageAbbrevs(l), built on first use
}

// abbrevTable returns the table of languageAbbrevs(l).
func (l *language) abbrevTable() *abbrevTable {
	l.tableOnce.Do(func() { l.table = newAbbrevTable(languageAbbrevs(l)) })
	return l.table
}

// Byte classes of the sentence scanner. Bytes of class 0 never matter.
const (
	cNone  = iota
	cDot   // '.'
	cBang  // '!', '?'
	cBreak // '\n', '\r', '\v', '\f'
	cHigh  // lead byte of a multi-byte rune that may matter
	cColon // ':' in languages where it ends sentences
	cSemi  // ';' in Greek
)

func (l *language) init() {
	l.class['.'] = cDot
	l.class['!'] = cBang
	l.class['?'] = cBang
	for _, c := range []byte{'\n', '\r', '\v', '\f'} {
		l.class[c] = cBreak
	}
	// NEL; Greek question mark; Armenian full stop; Arabic comma and
	// question mark; Urdu full stop; Devanagari danda; Myanmar, Ethiopic and
	// Khmer stops; ellipsis, double marks and line separators; CJK stops and
	// brackets; full-width forms.
	for _, c := range []byte{0xC2, 0xCD, 0xD6, 0xD8, 0xDB, 0xE0, 0xE1, 0xE2, 0xE3, 0xEF} {
		l.class[c] = cHigh
	}
	if l.colon {
		l.class[':'] = cColon
	}
	if l.semi {
		l.class[';'] = cSemi
	}
}

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

func addAbbrevs(m map[string]abbrKind, k abbrKind, words string) {
	for _, w := range strings.Fields(words) {
		m[w] = k
	}
}

// englishStarters are words that often open an English sentence and seldom
// follow an abbreviation inside one: pronouns, determiners, conjunctions,
// question words and sentence adverbs.
const englishStarters = `a an the this that these those there here he she it we they i you
his her its our their my your me us them one each every all both some many most
few several such no not none nobody nothing neither either any
what when where which who whom whose why how whether
but and or nor so yet for if unless because although though while whereas since
as after before until once then thus hence therefore however moreover furthermore
meanwhile nevertheless nonetheless instead otherwise indeed besides also still
even only just perhaps maybe certainly surely finally first second third next last
later soon now today tonight yesterday tomorrow afterwards again often sometimes
in on at by with without from to into about under over during among between
according despite within through throughout against upon
let let's please yes no oh well ok okay thank thanks
is are was were be been being am do does did have has had can could will would
shall should may might must`

// englishAbbrevs are written for this package; the Punkt model adds the
// ones it learned from newspaper text.
func englishAbbrevs() map[string]abbrKind {
	m := map[string]abbrKind{}
	addAbbrevs(m, abbrTitle, `mr mrs ms mx messrs mmes mme mlle mssrs dr drs prof profs gen col lt
capt cpt maj sgt cpl pvt adm cmdr cdr brig lieut comdr rev revd hon pres gov sen rep reps
amb supt insp det mt mts ft st sts fr br pt`)
	addAbbrevs(m, abbrPlain, `co corp inc ltd llc plc bros esq jr sr phd ph.d md ba bsc msc
dds jd llb ret est dept depts govt assn assoc univ natl intl ave blvd rd hwy ln ste apt
bldg ctr jan feb febr apr jun jul aug sep sept oct nov dec mon tue tues thu thur thurs fri
approx appt dist div mfg mgmt mgr hrs yrs mos wk wks oz lb lbs kg km cm mm ml gal qt tbsp
tsp doz sq yd mi al seq ibid loc cit ed eds trans tel ext ref refs misc pub repr
u.s u.k u.n e.u u.s.a u.s.s.r`)
	addAbbrevs(m, abbrNumber, `no nos nr n° vol vols pp ch chap chaps fig figs eq eqs sec sect
secs art arts para paras op ex exs`)
	addAbbrevs(m, abbrInner, `e.g i.e cf vs viz c.f`)
	addAbbrevs(m, abbrFinal, `etc a.m p.m a.d b.c b.c.e c.e`)
	return m
}

var (
	englishAbbrevsOnce sync.Once
	englishAbbrevMap   map[string]abbrKind

	languagesOnce sync.Once
	languages     map[string]*language
)

// tailored lists the languages with rules of their own; any other language
// code gets the generic rules.
func tailored() map[string]*language {
	languagesOnce.Do(func() {
		languages = map[string]*language{}
		en := &language{code: "en", abbrevs: englishAbbrevs(), starters: wordSet(englishStarters), punkt: true}
		en.init()
		languages["en"] = en
		for _, spec := range languageSpecs {
			l := spec.build()
			languages[l.code] = l
		}
	})
	return languages
}

var genericOnce sync.Once
var genericLang *language

func generic() *language {
	genericOnce.Do(func() { genericLang = langSpec{code: "und"}.build() })
	return genericLang
}

func english() *language { return tailored()["en"] }

var (
	englishRulesOnce sync.Once
	englishLang      *language
)

// englishRules returns the rules and abbreviations of the default
// segmenter, looked up once rather than on every call.
func englishRules() (*language, *abbrevTable) {
	englishRulesOnce.Do(func() { englishLang = english() })
	return englishLang, englishLang.abbrevTable()
}

// lookupLanguage returns the rules for a BCP 47 language tag such as "en",
// "en-GB" or "zh_Hant". ok is false if the tag is malformed.
func lookupLanguage(tag string) (l *language, ok bool) {
	if tag == "" {
		return english(), true
	}
	primary := tag
	if i := strings.IndexAny(tag, "-_"); i >= 0 {
		primary = tag[:i]
	}
	if len(primary) < 2 || len(primary) > 3 {
		return nil, false
	}
	for _, r := range primary {
		if r >= utf8.RuneSelf || !unicode.IsLetter(r) {
			return nil, false
		}
	}
	primary = strings.ToLower(primary)
	if l := tailored()[primary]; l != nil {
		return l, true
	}
	return generic(), true
}
