package segment_test

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/segment"
)

// texts returns what the spans point at.
func texts(text string, spans []segment.Span) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = text[s.Start:s.End]
	}
	return out
}

type sentenceCase = levelCase

func runSentences(t *testing.T, seg *segment.Segmenter, cases []sentenceCase) {
	t.Helper()
	runLevel(t, seg.Sentences, cases)
}

func TestSentencesTerminators(t *testing.T) {
	runSentences(t, nil, []sentenceCase{
		{"period", "The kettle boiled. Nobody came.", []string{"The kettle boiled.", "Nobody came."}},
		{"question", "Where did it go? Under the sofa.", []string{"Where did it go?", "Under the sofa."}},
		{"exclamation", "Look out! The shelf is falling.", []string{"Look out!", "The shelf is falling."}},
		{"mixed run", "You sold it?! We needed that.", []string{"You sold it?!", "We needed that."}},
		{"doubled", "Stop!! Wait for me.", []string{"Stop!!", "Wait for me."}},
		{"no terminator at end", "One line. Then a fragment", []string{"One line.", "Then a fragment"}},
		{"brand with exclamation", "We play Boggle! at weekends.", []string{"We play Boggle! at weekends."}},
		{"question in the middle", "He asked why? and then left.", []string{"He asked why? and then left."}},
		{"footnote reference", "Rivers flood in spring.[4] Farmers wait.", []string{"Rivers flood in spring.[4]", "Farmers wait."}},
		{"glued sentences", "The test failed.Then we fixed it.", []string{"The test failed.", "Then we fixed it."}},
		{"glued number", "We sold 2,500.That was a record.", []string{"We sold 2,500.", "That was a record."}},
		{"glued identifier", "Call strings.Builder for speed.", []string{"Call strings.Builder for speed."}},
		{"glued method", "Use os.Open(name) here.", []string{"Use os.Open(name) here."}},
	})
}

func TestSentencesLowerCaseText(t *testing.T) {
	runSentences(t, nil, []sentenceCase{
		{"filing", "as of december 31, 2012, the company had $4.2 billion in cash. net revenue rose 12% to $1.1 billion. see note 7 for details.",
			[]string{"as of december 31, 2012, the company had $4.2 billion in cash.", "net revenue rose 12% to $1.1 billion.", "see note 7 for details."}},
		{"filing abbreviations", "the dividend is payable on jan. 15, 2013 to holders of record. we sold the u.s. business in may. the plant opened, e.g. in texas.",
			[]string{"the dividend is payable on jan. 15, 2013 to holders of record.", "we sold the u.s. business in may.", "the plant opened, e.g. in texas."}},
		{"filing number abbreviation", "see item no. 7 of the report. the vote was no. the board met at 5 p.m. on monday.",
			[]string{"see item no. 7 of the report.", "the vote was no.", "the board met at 5 p.m. on monday."}},
		{"chat log", "are you coming tonight? not sure. i have to finish the report first. ok, thanks!",
			[]string{"are you coming tonight?", "not sure.", "i have to finish the report first.", "ok, thanks!"}},
		{"transcript", "so we started in march. then dr. smith joined and things got better. what did he do? he fixed the build.",
			[]string{"so we started in march.", "then dr. smith joined and things got better.", "what did he do?", "he fixed the build."}},
		{"initials and titles", "the memo came from j. smith at main st. the office replied. it was plan b. we agreed.",
			[]string{"the memo came from j. smith at main st.", "the office replied.", "it was plan b.", "we agreed."}},
		{"dialogue tag", "“why?” she asked. nobody knew.", []string{"“why?” she asked.", "nobody knew."}},
		{"a few capitals", "we met with John and the u.s. team. i said no. it rained. then we left.",
			[]string{"we met with John and the u.s. team.", "i said no.", "it rained.", "then we left."}},
		// Ordinary prose keeps its rules: a lower-case word after a
		// terminator goes on with the sentence.
		{"prose unchanged", "He said hello. she said no. It was 5 p.m. iPhones sold out.",
			[]string{"He said hello. she said no.", "It was 5 p.m. iPhones sold out."}},
		{"prose opening in lower case", "iPhone sales rose. The company said so. We play Boggle! at weekends.",
			[]string{"iPhone sales rose.", "The company said so.", "We play Boggle! at weekends."}},
		{"lower-case start, capitalised sentences", "e.g. the cat sat. The dog ran. Then it slept.",
			[]string{"e.g. the cat sat.", "The dog ran.", "Then it slept."}},
	})
}

func TestSentencesAbbreviations(t *testing.T) {
	runSentences(t, nil, []sentenceCase{
		{"title before name", "We met Dr. Okafor at noon.", []string{"We met Dr. Okafor at noon."}},
		{"titles Prof and Gen", "Prof. Ivers spoke after Gen. Marsh.", []string{"Prof. Ivers spoke after Gen. Marsh."}},
		{"mount", "The view of Mt. Rainier was clear.", []string{"The view of Mt. Rainier was clear."}},
		{"street at sentence end", "The shop is on Elm St. The door is green.", []string{"The shop is on Elm St.", "The door is green."}},
		{"company inside", "Hart & Sons Ltd. was founded early.", []string{"Hart & Sons Ltd. was founded early."}},
		{"company at end", "He joined Hart & Sons Ltd. It was 1990.", []string{"He joined Hart & Sons Ltd.", "It was 1990."}},
		{"company before name", "She left Acme Corp. Holdings bought it.", []string{"She left Acme Corp. Holdings bought it."}},
		{"country inside", "The U.K. Parliament sat late.", []string{"The U.K. Parliament sat late."}},
		{"country at end", "They moved to the U.K. However, they missed home.", []string{"They moved to the U.K.", "However, they missed home."}},
		{"country before lower case", "They lived in the U.K. for ten years.", []string{"They lived in the U.K. for ten years."}},
		{"possessive", "It was Ford Jr.'s car.", []string{"It was Ford Jr.'s car."}},
		{"pm at end", "The train left at 9 p.m. Everyone slept.", []string{"The train left at 9 p.m.", "Everyone slept."}},
		{"am introductory", "By 7 a.m. Ms. Reyes was at work.", []string{"By 7 a.m. Ms. Reyes was at work."}},
		{"pm before lower case", "Meet me at 6 P.M. tomorrow.", []string{"Meet me at 6 P.M. tomorrow."}},
		{"etc at end", "Bring pens, paper, etc. We start at nine.", []string{"Bring pens, paper, etc.", "We start at nine."}},
		{"e.g.", "Use a metal, e.g. Copper is fine.", []string{"Use a metal, e.g. Copper is fine."}},
		{"versus", "The case Brown vs. Board changed schools.", []string{"The case Brown vs. Board changed schools."}},
		{"et seq.", "See sections 12 et seq. The rules follow.", []string{"See sections 12 et seq.", "The rules follow."}},
		{"et al. at end", "The method is due to Park et al. The trend is clear.", []string{"The method is due to Park et al.", "The trend is clear."}},
		{"et al. inside", "Park et al. (2019) measured it.", []string{"Park et al. (2019) measured it."}},
		{"number abbreviation", "Turn to No. 7 on the list.", []string{"Turn to No. 7 on the list."}},
		{"number abbreviation as word", "She said no. Later she agreed.", []string{"She said no.", "Later she agreed."}},
		{"page", "The map is on p. 212 of the atlas.", []string{"The map is on p. 212 of the atlas."}},
		{"figure", "Compare Fig. 4 with the table.", []string{"Compare Fig. 4 with the table."}},
		{"unknown abbreviation ends", "Tea is served in the conservatory. Guests arrive later.", []string{"Tea is served in the conservatory.", "Guests arrive later."}},
	})
}

func TestSentencesInitials(t *testing.T) {
	runSentences(t, nil, []sentenceCase{
		{"three initials", "The novel by J. R. R. Tolkien sold well.", []string{"The novel by J. R. R. Tolkien sold well."}},
		{"middle initial", "Ask Maria T. Lopez about it.", []string{"Ask Maria T. Lopez about it."}},
		{"initial before surname", "It was signed by K. Adams yesterday.", []string{"It was signed by K. Adams yesterday."}},
		{"pronoun I at end", "Nobody saw it but I. Then it vanished.", []string{"Nobody saw it but I.", "Then it vanished."}},
		{"regnal number", "King George I. Stuart rulers followed.", []string{"King George I. Stuart rulers followed."}},
		{"letter before function word", "We chose plan C. The others failed.", []string{"We chose plan C.", "The others failed."}},
	})
}

func TestSentencesNumbersAndNames(t *testing.T) {
	runSentences(t, nil, []sentenceCase{
		{"price inside", "A ticket costs $14.50 on weekdays.", []string{"A ticket costs $14.50 on weekdays."}},
		{"price at end", "A ticket costs $14.50. Children go free.", []string{"A ticket costs $14.50.", "Children go free."}},
		{"percent", "Sales rose 4.5%. Costs fell.", []string{"Sales rose 4.5%.", "Costs fell."}},
		{"year then digit", "It closed in 1998. 40 people lost jobs.", []string{"It closed in 1998.", "40 people lost jobs."}},
		{"dotted number", "The code is 12.40.7. Enter it now.", []string{"The code is 12.40.7.", "Enter it now."}},
		{"url", "Read https://pkg.go.dev/strings. It has examples.", []string{"Read https://pkg.go.dev/strings.", "It has examples."}},
		{"url inside", "Open www.example.org/a.b?c=d and log in.", []string{"Open www.example.org/a.b?c=d and log in."}},
		{"e-mail", "Write to ann.lee@mail.example.com. She replies.", []string{"Write to ann.lee@mail.example.com.", "She replies."}},
		{"file name", "Open config.yaml in an editor. Save it.", []string{"Open config.yaml in an editor.", "Save it."}},
		{"file name at end", "The settings live in main.go. Edit them there.", []string{"The settings live in main.go.", "Edit them there."}},
		{"version", "Upgrade to v2.14.1 before Monday.", []string{"Upgrade to v2.14.1 before Monday."}},
		{"version at end", "The fix shipped in 1.22.3. Update now.", []string{"The fix shipped in 1.22.3.", "Update now."}},
	})
}

func TestSentencesQuotesAndParentheses(t *testing.T) {
	runSentences(t, nil, []sentenceCase{
		{"quote then lower case", `"Run." he whispered.`, []string{`"Run." he whispered.`}},
		{"quote then capital", `"Run." He whispered it twice.`, []string{`"Run."`, "He whispered it twice."}},
		{"curly quote", "“Is it late?” asked Ruth.", []string{"“Is it late?” asked Ruth."}},
		{"curly quote then capital", "“It is late.” Ruth left.", []string{"“It is late.”", "Ruth left."}},
		{"single quotes", "He wrote 'Back soon.' and went.", []string{"He wrote 'Back soon.' and went."}},
		{"parenthesis then lower case", "The rule (it was new.) applied to all.", []string{"The rule (it was new.) applied to all."}},
		{"parenthesis then capital", "The rule applied. (It was new.) Nobody objected.", []string{"The rule applied.", "(It was new.)", "Nobody objected."}},
		{"dialogue dash", "Where to? – asked the driver.", []string{"Where to? – asked the driver."}},
	})
}

func TestSentencesLists(t *testing.T) {
	runSentences(t, nil, []sentenceCase{
		{"numbers with periods", "1. Mix the flour 2. Add water 3. Knead", []string{"1. Mix the flour", "2. Add water", "3. Knead"}},
		{"numbers with periods and stops", "1. Mix the flour. 2. Add water.", []string{"1. Mix the flour.", "2. Add water."}},
		{"numbers with parentheses", "1) Mix the flour 2) Add water", []string{"1) Mix the flour", "2) Add water"}},
		{"period and parenthesis", "1.) Mix the flour 2.) Add water", []string{"1.) Mix the flour", "2.) Add water"}},
		{"letters", "a. Mix the flour b. Add water c. Knead it", []string{"a. Mix the flour", "b. Add water", "c. Knead it"}},
		{"letters with parentheses", "a) Mix the flour b) Add water", []string{"a) Mix the flour", "b) Add water"}},
		{"roman numerals", "i. Mix the flour ii. Add water iii. Knead", []string{"i. Mix the flour", "ii. Add water", "iii. Knead"}},
		{"bullets with numbers", "• 4. Mix the flour • 5. Add water", []string{"• 4. Mix the flour", "• 5. Add water"}},
		{"attached bullets", "‣7. Mix the flour ‣8. Add water", []string{"‣7. Mix the flour", "‣8. Add water"}},
		{"bullets", "• flour • water • salt", []string{"• flour", "• water", "• salt"}},
		{"numbers without a list", "Chapter 2. The storm came.", []string{"Chapter 2.", "The storm came."}},
		{"roman heading", "II. Methods were simple.", []string{"II. Methods were simple."}},
	})
}

func TestSentencesEllipses(t *testing.T) {
	runSentences(t, nil, []sentenceCase{
		{"before lower case", "Well... maybe tomorrow.", []string{"Well... maybe tomorrow."}},
		{"before capital", "I waited... Nobody came.", []string{"I waited...", "Nobody came."}},
		{"unicode", "I waited… Nobody came.", []string{"I waited…", "Nobody came."}},
		{"four dots", "It faded.... Then silence.", []string{"It faded....", "Then silence."}},
		{"bracketed", "The text [...] was lost.", []string{"The text [...] was lost."}},
		{"bracketed before capital", "He wrote [...] Then it ends.", []string{"He wrote [...] Then it ends."}},
		{"spaced three", "It was . . . Odd, he thought.", []string{"It was . . . Odd, he thought."}},
		{"spaced four", "It ended there . . . . Later it began again.", []string{"It ended there . . . .", "Later it began again."}},
		{"spaced after a period", "It ended there. . . . Later it began again.", []string{"It ended there.", ". . . Later it began again."}},
		{"spaced at the end", "It ended there. . . .", []string{"It ended there. . . ."}},
		{"starting a sentence", "It ended. ...and began.", []string{"It ended.", "...and began."}},
	})
}

func TestSentencesLines(t *testing.T) {
	runSentences(t, nil, []sentenceCase{
		{"wrapped prose", "The rain fell all\nnight on the roofs. Morning\ncame late.", []string{"The rain fell all\nnight on the roofs.", "Morning\ncame late."}},
		{"blank line", "No stop here\n\nNew paragraph.", []string{"No stop here", "New paragraph."}},
		{"blank line with spaces", "No stop here\n \t \nNew paragraph.", []string{"No stop here", "New paragraph."}},
		{"heading", "Getting Started\n\nInstall the tool first.", []string{"Getting Started", "Install the tool first."}},
		{"heading-like line", "Getting Started\nInstall the tool first and then run it.", []string{"Getting Started", "Install the tool first and then run it."}},
		{"markdown heading", "# Setup\nInstall it. Run it.", []string{"# Setup", "Install it.", "Run it."}},
		{"bullet lines", "Pack:\n- a tent\n- a stove\nThat is all.", []string{"Pack:", "- a tent", "- a stove", "That is all."}},
		{"numbered lines", "Steps:\n1. Unpack it\n2. Plug it in", []string{"Steps:", "1. Unpack it", "2. Plug it in"}},
		{"wrapped item", "- a long item that\n  goes on\n- next", []string{"- a long item that\n  goes on", "- next"}},
		{"lines without stops", "inbox\nsent items\ndrafts, archive\n", []string{"inbox", "sent items", "drafts, archive"}},
		{"address", "Ada Byron\n12 Lovelace Road\nLondon", []string{"Ada Byron", "12 Lovelace Road", "London"}},
		{"parallel lines", "Part I. The Voyage Out\nPart II. The Return Home at Last, After Many Years", []string{"Part I.", "The Voyage Out", "Part II.", "The Return Home at Last, After Many Years"}},
		{"code fence", "Run this:\n```\nmake all\n```\nThen wait.", []string{"Run this:", "```", "make all", "```", "Then wait."}},
		{"block quote", "He wrote:\n> first line\n> second line\nThe end.", []string{"He wrote:", "> first line\n> second line", "The end."}},
		{"paragraph separator", "One\u2029Two", []string{"One", "Two"}},
		{"line separator", "one and\u2028two.", []string{"one and\u2028two."}},
	})
}

func TestSentencesCRLF(t *testing.T) {
	docs := []string{
		"Heading\n\nThe rain fell all\nnight. Morning came.\n\n- a\n- b\n",
		"inbox\nsent items\ndrafts\n\nIt was late... Nobody came.\nEnd of story.",
		"Title\n \nText with a wrapped\nline. And more.\n\n\n",
	}
	for _, lf := range docs {
		crlf := strings.ReplaceAll(lf, "\n", "\r\n")
		want := texts(lf, segment.Sentences(lf))
		got := texts(crlf, segment.Sentences(crlf))
		for i := range got {
			got[i] = strings.ReplaceAll(got[i], "\r\n", "\n")
		}
		assert.Equal(t, want, got, "CRLF must behave like LF for %q", lf)
	}
}

func TestNewlineModes(t *testing.T) {
	text := "Shopping\nmilk and bread\nfor the weekend.\nThen home."
	cases := []struct {
		mode segment.NewlineMode
		want []string
	}{
		{segment.NewlineAuto, []string{"Shopping\nmilk and bread\nfor the weekend.", "Then home."}},
		{segment.NewlineSpace, []string{"Shopping\nmilk and bread\nfor the weekend.", "Then home."}},
		{segment.NewlineBreak, []string{"Shopping", "milk and bread", "for the weekend.", "Then home."}},
	}
	for _, tc := range cases {
		seg, err := segment.New(segment.Config{Newlines: tc.mode})
		require.NoError(t, err)
		assert.Equal(t, tc.want, texts(text, seg.Sentences(text)), "mode %d", tc.mode)
	}
	list := "- eggs\n- milk"
	seg, err := segment.New(segment.Config{Newlines: segment.NewlineSpace})
	require.NoError(t, err)
	assert.Equal(t, []string{"- eggs\n- milk"}, texts(list, seg.Sentences(list)), "NewlineSpace ignores list structure")
	_, err = segment.New(segment.Config{Newlines: 9})
	assert.ErrorIs(t, err, segment.ErrConfig)
	assert.ErrorContains(t, err, "segment: invalid configuration: Newlines is NewlineMode(9): must be")
	_, err = segment.New(segment.Config{Newlines: -1})
	assert.ErrorContains(t, err, "Newlines is NewlineMode(-1)")
	assert.Equal(t, "NewlineMode(-1)", segment.NewlineMode(-1).String())
}

func TestSentencesOtherScripts(t *testing.T) {
	cases := []struct {
		lang string
		sentenceCase
	}{
		{"ja", sentenceCase{"japanese", "雨が降った。傘を持って行こう！大丈夫？", []string{"雨が降った。", "傘を持って行こう！", "大丈夫？"}}},
		{"ja", sentenceCase{"japanese quote", "「すごい！」と彼は言った。帰ろう。", []string{"「すごい！」と彼は言った。", "帰ろう。"}}},
		{"ja", sentenceCase{"full-width decimal", "値は１．５です。次へ。", []string{"値は１．５です。", "次へ。"}}},
		{"zh", sentenceCase{"chinese title brackets", "我读了《你好！世界》这本书。很好看。", []string{"我读了《你好！世界》这本书。", "很好看。"}}},
		{"hi", sentenceCase{"hindi danda", "मैं घर गया। वह सो रहा था।", []string{"मैं घर गया।", "वह सो रहा था।"}}},
		{"mr", sentenceCase{"marathi period", "तो शाळेत गेला. ती घरी आली.", []string{"तो शाळेत गेला.", "ती घरी आली."}}},
		{"ar", sentenceCase{"arabic question", "هل أنت بخير؟ نعم أنا بخير.", []string{"هل أنت بخير؟", "نعم أنا بخير."}}},
		{"ar", sentenceCase{"arabic colon", "قال المدير: سنبدأ غدا.", []string{"قال المدير:", "سنبدأ غدا."}}},
		{"ar", sentenceCase{"arabic comma list", "اشترى الخبز، والحليب، ثم عاد إلى البيت", []string{"اشترى الخبز، والحليب،", "ثم عاد إلى البيت"}}},
		{"fa", sentenceCase{"persian", "امروز هوا خوب است. فردا باران می‌آید؟", []string{"امروز هوا خوب است.", "فردا باران می‌آید؟"}}},
		{"ur", sentenceCase{"urdu full stop", "میں گھر گیا۔ وہ سو رہا تھا؟", []string{"میں گھر گیا۔", "وہ سو رہا تھا؟"}}},
		{"hy", sentenceCase{"armenian colon", "Ես տուն գնացի: Նա քնած էր:", []string{"Ես տուն գնացի:", "Նա քնած էր:"}}},
		{"hy", sentenceCase{"armenian full stop", "Ես տուն գնացի։ Նա քնած էր։", []string{"Ես տուն գնացի։", "Նա քնած էր։"}}},
		{"am", sentenceCase{"amharic", "ሰላም ነህ፧ደህና ነኝ።", []string{"ሰላም ነህ፧", "ደህና ነኝ።"}}},
		{"my", sentenceCase{"burmese", "မင်္ဂလာပါ။နေကောင်းလား။", []string{"မင်္ဂလာပါ။", "နေကောင်းလား။"}}},
		{"el", sentenceCase{"greek question mark", "Τι ώρα είναι; Είναι αργά.", []string{"Τι ώρα είναι;", "Είναι αργά."}}},
		{"de", sentenceCase{"german date", "Wir kommen am 3. Oktober an.", []string{"Wir kommen am 3. Oktober an."}}},
		{"ru", sentenceCase{"russian quotation", "Он сказал: «Я устал. Пойду домой». Все ушли.", []string{"Он сказал: «Я устал. Пойду домой».", "Все ушли."}}},
		{"es", sentenceCase{"spanish inverted marks", "¿Vienes? ¡Claro! Vamos ya.", []string{"¿Vienes?", "¡Claro!", "Vamos ya."}}},
		{"en", sentenceCase{"scripts in english text", "He wrote 你好。Then he left.", []string{"He wrote 你好。", "Then he left."}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seg, err := segment.New(segment.Config{Language: tc.lang})
			require.NoError(t, err)
			assert.Equal(t, tc.want, texts(tc.text, seg.Sentences(tc.text)))
		})
	}
}

func TestConfig(t *testing.T) {
	cfg := segment.Config{Language: "de", Abbreviations: []string{"bzw."}, Newlines: segment.NewlineBreak}
	seg, err := segment.New(cfg)
	require.NoError(t, err)
	got := seg.Config()
	require.Equal(t, cfg, got)
	got.Abbreviations[0] = "changed"
	require.Equal(t, "bzw.", seg.Config().Abbreviations[0], "Config returns a copy")
	require.Equal(t, segment.Config{}, (*segment.Segmenter)(nil).Config())
	require.Equal(t, "NewlineBreak", segment.NewlineBreak.String())
	require.Equal(t, "NewlineMode(9)", segment.NewlineMode(9).String())
}

func TestConfigAbbreviations(t *testing.T) {
	text := "See Tbl. 4 for the totals. Tbl. Results are there."
	assert.Equal(t, []string{"See Tbl.", "4 for the totals.", "Tbl.", "Results are there."}, texts(text, segment.Sentences(text)))
	seg, err := segment.New(segment.Config{Abbreviations: []string{"tbl."}})
	require.NoError(t, err)
	assert.Equal(t, []string{"See Tbl. 4 for the totals.", "Tbl. Results are there."}, texts(text, seg.Sentences(text)))
}

func TestLanguageTags(t *testing.T) {
	for _, tag := range []string{"", "en", "EN", "en-GB", "zh_Hant", "pt", "fil"} {
		_, err := segment.New(segment.Config{Language: tag})
		assert.NoError(t, err, tag)
	}
	for _, tag := range []string{"e", "english", "e1", "-en", "ру"} {
		_, err := segment.New(segment.Config{Language: tag})
		assert.True(t, errors.Is(err, segment.ErrConfig), "%q: %v", tag, err)
		assert.ErrorContains(t, err, "Language is "+strconv.Quote(tag)+": must be a well-formed BCP 47 tag")
	}
}

func TestZeroSegmenter(t *testing.T) {
	var seg segment.Segmenter
	text := "Dr. Okafor left. Nobody noticed."
	assert.Equal(t, segment.Sentences(text), seg.Sentences(text))
}

func TestSentencesBadInput(t *testing.T) {
	for _, text := range []string{"", " ", "\n\n", "\xff", "\xff. \xfe. \xc0", ". . .", "...", "1.", "•", "\u2029", "a.\xffB", "“", "«", "《"} {
		for _, lang := range []string{"en", "ar", "hy", "ru", "ja"} {
			seg, err := segment.New(segment.Config{Language: lang})
			require.NoError(t, err)
			assert.NotPanics(t, func() { seg.Sentences(text) }, "%q in %s", text, lang)
		}
	}
	assert.Empty(t, segment.Sentences(""))
	assert.Empty(t, segment.Sentences(" \t\r\n"))
}

func TestAppendSentencesReusesBuffer(t *testing.T) {
	text := "One. Two. Three? Four!"
	dst := segment.AppendSentences(nil, text)
	allocs := testing.AllocsPerRun(100, func() {
		dst = segment.AppendSentences(dst[:0], text)
	})
	assert.Zero(t, allocs)
	assert.Len(t, dst, 4)
	prefix := []segment.Span{{0, 1}}
	assert.Equal(t, segment.Span{0, 1}, segment.AppendSentences(prefix, text)[0])
}

func TestConcurrentUse(t *testing.T) {
	seg, err := segment.New(segment.Config{Abbreviations: []string{"tbl"}})
	require.NoError(t, err)
	text := "At 5 a.m. Mr. Smith left. He saw the U.S. Army. It was late."
	want := texts(text, segment.Sentences(text))
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				assert.Equal(t, want, texts(text, segment.Sentences(text)))
				assert.Equal(t, want, texts(text, seg.Sentences(text)))
			}
		}()
	}
	wg.Wait()
}

func TestCRLFCorpora(t *testing.T) {
	for _, name := range []string{"sherlock_1661.txt", "room_with_a_view.txt", "commonmark_spec.md"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile("../testdata/corpora/" + name)
			require.NoError(t, err)
			lf := strings.ReplaceAll(string(b), "\r\n", "\n")
			crlf := strings.ReplaceAll(lf, "\n", "\r\n")
			want := texts(lf, segment.Sentences(lf))
			got := texts(crlf, segment.Sentences(crlf))
			require.Equal(t, len(want), len(got))
			for i := range got {
				require.Equal(t, want[i], strings.ReplaceAll(got[i], "\r\n", "\n"), "sentence %d", i)
			}
		})
	}
}
