package main

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseSettings: any query either gives settings within the controls'
// bounds or an error wrapping errBadRequest, never a panic; the settings
// make a query that parses back to them.
func FuzzParseSettings(f *testing.F) {
	f.Add("q=hotel&chunk=48&headers=1&summary=0&keywords=1&widen=windows&window=2&segment=9&passages=3&budget=120&doc=a.md")
	f.Add("ask=x&q=&headers=0&headers=1")
	f.Add("q=%ff&chunk=-1&budget=99999999999999999999")
	f.Add("colour=red")
	f.Fuzz(func(t *testing.T, query string) {
		form, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		s, err := parseSettings(form)
		if err != nil {
			if !errors.Is(err, errBadRequest) {
				t.Fatalf("error %v does not wrap errBadRequest", err)
			}
			return
		}
		switch {
		case len(s.Question) > maxQuestionBytes || !utf8.ValidString(s.Question) || s.Question != strings.TrimSpace(s.Question):
			t.Fatalf("question %q", s.Question)
		case s.Index.MaxTokens < 16 || s.Index.MaxTokens > 2048, s.Window < 0 || s.Window > 20,
			s.Segment < 1 || s.Segment > 60, s.Passages < 1 || s.Passages > 50,
			s.Budget < 1 || s.Budget > promptLimit-promptReserve:
			t.Fatalf("out of bounds: %+v", s)
		case s.Widen != "segments" && s.Widen != "windows":
			t.Fatalf("widen %q", s.Widen)
		}
		back, err := url.ParseQuery(s.query(nil))
		if err != nil {
			t.Fatal(err)
		}
		again, err := parseSettings(back)
		if err != nil || again != s {
			t.Fatalf("%+v made %q, which parses to %+v, %v", s, s.query(nil), again, err)
		}
	})
}

// FuzzMark: the pieces of a text are the text, in order, and a marked
// piece is a whole word among the terms.
func FuzzMark(f *testing.F) {
	f.Add("Gross margin was 43.0 percent in Q2 2026.", "gross margin Q2")
	f.Add("Ünïcode wörds, ÜNÏCODE", "ünïcode")
	f.Add("\xff\xfeabc abc", "abc")
	f.Fuzz(func(t *testing.T, text, question string) {
		terms := questionTerms(question)
		var b strings.Builder
		for i, p := range mark(text, terms) {
			b.WriteString(p.Text)
			if p.Text == "" {
				t.Fatalf("piece %d is empty", i)
			}
			if p.Mark && !terms[strings.ToLower(p.Text)] {
				t.Fatalf("piece %d %q is marked but not a term of %v", i, p.Text, terms)
			}
		}
		if b.String() != text {
			t.Fatalf("pieces join to %q, not %q", b.String(), text)
		}
	})
}
