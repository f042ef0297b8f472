package main

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// settings are one request's question and controls: the page's form,
// in its URL, so that every view can be bookmarked and reloaded.
type settings struct {
	Question string
	Index    indexKey
	Keywords bool   // hybrid search (vector + BM25) rather than the vector search alone
	Widen    string // "segments" (relevant segment extraction) or "windows" (sentence windows)
	Window   int    // units on each side of a hit, for windows
	Segment  int    // the most units of a segment
	Passages int    // the most passages
	Budget   int    // the most tokens of retrieved context in the prompt
	Doc      string // the document shown; empty: the best passage's
}

// defaults are the quickstart's settings.
func defaults() settings {
	return settings{
		Index:    indexKey{MaxTokens: 48, Headers: true, Summary: true},
		Keywords: true, Widen: "segments", Window: 1, Segment: 15, Passages: 6, Budget: 300,
	}
}

// maxQuestionBytes bounds a question before any work is done with it.
const maxQuestionBytes = 2000

// errBadRequest reports a request the page cannot answer as asked; the
// message says which parameter and what is allowed.
var errBadRequest = errors.New("bad request")

// A param is one parameter the form sends.
type param struct {
	name string
	set  func(s *settings, v string) error
}

var params = []param{
	{"q", func(s *settings, v string) error { s.Question = v; return nil }},
	// ask is an example question's button: it replaces q.
	{"ask", func(s *settings, v string) error { s.Question = v; return nil }},
	{"chunk", intParam(func(s *settings) *int { return &s.Index.MaxTokens }, 16, 2048)},
	{"headers", boolParam(func(s *settings) *bool { return &s.Index.Headers })},
	{"summary", boolParam(func(s *settings) *bool { return &s.Index.Summary })},
	{"keywords", boolParam(func(s *settings) *bool { return &s.Keywords })},
	{"widen", func(s *settings, v string) error {
		if v != "segments" && v != "windows" {
			return fmt.Errorf("is %q: must be segments or windows", v)
		}
		s.Widen = v
		return nil
	}},
	{"window", intParam(func(s *settings) *int { return &s.Window }, 0, 20)},
	{"segment", intParam(func(s *settings) *int { return &s.Segment }, 1, 60)},
	{"passages", intParam(func(s *settings) *int { return &s.Passages }, 1, 50)},
	{"budget", intParam(func(s *settings) *int { return &s.Budget }, 1, promptLimit-promptReserve)},
	{"doc", func(s *settings, v string) error { s.Doc = v; return nil }},
}

func intParam(field func(*settings) *int, lo, hi int) func(*settings, string) error {
	return func(s *settings, v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("is %q: must be a whole number from %d to %d", clip(v), lo, hi)
		}
		*field(s) = n
		return nil
	}
}

// boolParam reads a checkbox: the form sends a hidden "0" and, when the
// box is ticked, a "1" after it; the last value wins.
func boolParam(field func(*settings) *bool) func(*settings, string) error {
	return func(s *settings, v string) error {
		switch v {
		case "1", "on", "true":
			*field(s) = true
		case "0", "off", "false":
			*field(s) = false
		default:
			return fmt.Errorf("is %q: must be 1 or 0", clip(v))
		}
		return nil
	}
}

// parseSettings reads a request's parameters over the defaults. An unknown
// parameter, a value out of range, a question that is blank (when given),
// too long or not UTF-8 give an error wrapping errBadRequest; q absent is
// the page without a question.
func parseSettings(form url.Values) (settings, error) {
	s := defaults()
	names := make([]string, 0, len(form))
	for name := range form {
		names = append(names, name)
	}
	slices.Sort(names)
	// An example's button (ask) replaces the box (q): it goes last.
	if i := slices.Index(names, "ask"); i >= 0 {
		names = append(slices.Delete(names, i, i+1), "ask")
	}
	for _, name := range names {
		i := slices.IndexFunc(params, func(p param) bool { return p.name == name })
		if i < 0 {
			return s, fmt.Errorf("%w: unknown parameter %q (known: %s)", errBadRequest, clip(name), known())
		}
		vs := form[name]
		v := vs[len(vs)-1]
		if len(v) > maxQuestionBytes {
			return s, fmt.Errorf("%w: %s is %d bytes long: at most %d", errBadRequest, name, len(v), maxQuestionBytes)
		}
		if !utf8.ValidString(v) {
			return s, fmt.Errorf("%w: %s is not valid UTF-8", errBadRequest, name)
		}
		if err := params[i].set(&s, v); err != nil {
			return s, fmt.Errorf("%w: %s %w", errBadRequest, name, err)
		}
	}
	s.Question = strings.TrimSpace(s.Question)
	if (form.Has("q") || form.Has("ask")) && s.Question == "" {
		return s, fmt.Errorf("%w: the question is empty: type one, or pick an example", errBadRequest)
	}
	return s, nil
}

func known() string {
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.name
	}
	return strings.Join(names, ", ")
}

// clip shortens a value quoted in an error.
func clip(v string) string {
	if len(v) <= 40 {
		return v
	}
	for i := 40; i > 0; i-- {
		if utf8.RuneStart(v[i]) {
			return v[:i] + "…"
		}
	}
	return "…"
}

// query returns the URL query of s, with some parameters changed.
func (s settings) query(change func(*settings)) string {
	if change != nil {
		change(&s)
	}
	v := url.Values{}
	if s.Question != "" {
		v.Set("q", s.Question)
	}
	b := func(x bool) string {
		if x {
			return "1"
		}
		return "0"
	}
	v.Set("chunk", strconv.Itoa(s.Index.MaxTokens))
	v.Set("headers", b(s.Index.Headers))
	v.Set("summary", b(s.Index.Summary))
	v.Set("keywords", b(s.Keywords))
	v.Set("widen", s.Widen)
	v.Set("window", strconv.Itoa(s.Window))
	v.Set("segment", strconv.Itoa(s.Segment))
	v.Set("passages", strconv.Itoa(s.Passages))
	v.Set("budget", strconv.Itoa(s.Budget))
	if s.Doc != "" {
		v.Set("doc", s.Doc)
	}
	return v.Encode()
}
