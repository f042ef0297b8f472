package evaluate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// MaxLineBytes is the longest line [ReadQuestions] accepts, and
// MaxQuestions the most questions it reads: a question set is written by
// people or by a generator, and a larger input is a mistake to report,
// not a reason to allocate without end.
const (
	MaxLineBytes = 1 << 20
	MaxQuestions = 100_000
)

// A Span is a range of bytes of a document that answers a question:
// Doc's text from Start to End, End exclusive.
type Span struct {
	Doc   string `json:"doc"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// A Question is one entry of a question set: the question and what counts
// as relevant to it. Its targets are its Docs, its Spans and its Answer;
// a question with none of them is unanswerable from the corpus (a set
// keeps such questions to see what a retriever returns for them), and the
// retrieval metrics leave it out.
type Question struct {
	// ID names the question in results; ReadQuestions gives a question
	// without one its line number ("line 3").
	ID string `json:"id,omitempty"`
	// Question is the text given to the retriever.
	Question string `json:"question"`
	// Docs are the IDs of documents relevant as a whole.
	Docs []string `json:"docs,omitempty"`
	// Spans are the parts of documents that answer the question.
	Spans []Span `json:"spans,omitempty"`
	// Answer is a short string that answers the question where it
	// appears (compared ignoring case and runs of white space).
	Answer string `json:"answer,omitempty"`
	// Reference is a full answer written by a person, for the judged
	// metrics; the retrieval metrics do not read it.
	Reference string `json:"reference,omitempty"`
}

// Answerable reports whether q has a target.
func (q Question) Answerable() bool {
	return len(q.Docs) > 0 || len(q.Spans) > 0 || strings.TrimSpace(q.Answer) != ""
}

// check returns why q is not a valid question, or nil.
func (q Question) check() error {
	if strings.TrimSpace(q.Question) == "" {
		return errors.New("question is empty")
	}
	if !utf8.ValidString(q.Question) || !utf8.ValidString(q.Answer) {
		return errors.New("text is not valid UTF-8")
	}
	for i, d := range q.Docs {
		if d == "" {
			return fmt.Errorf("docs[%d] is empty", i)
		}
	}
	for i, s := range q.Spans {
		switch {
		case s.Doc == "":
			return fmt.Errorf("spans[%d]: doc is empty", i)
		case s.Start < 0 || s.End <= s.Start:
			return fmt.Errorf("spans[%d]: [%d, %d) is not a range of bytes (0 <= start < end)", i, s.Start, s.End)
		}
	}
	return nil
}

// ReadQuestions reads a question set from JSON Lines: one [Question] per
// line as a JSON object with the fields "id", "question", "docs",
// "spans" ({"doc", "start", "end"}), "answer" and "reference". Blank
// lines are skipped. A line that is not such an object (an unknown field
// included, so that a misspelt "answr" is not silently unanswerable), a
// question that is empty, a span that is not a range, a repeated ID, a
// line over [MaxLineBytes] or more than [MaxQuestions] questions give an
// error wrapping [ErrInvalid] that names the line.
func ReadQuestions(r io.Reader) ([]Question, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), MaxLineBytes)
	var qs []Question
	seen := map[string]int{}
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if len(qs) == MaxQuestions {
			return nil, fmt.Errorf("%w: line %d: more than %d questions", ErrInvalid, line, MaxQuestions)
		}
		q, err := decodeQuestion(text)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrInvalid, line, err)
		}
		if q.ID == "" {
			q.ID = fmt.Sprintf("line %d", line)
		}
		if first, ok := seen[q.ID]; ok {
			return nil, fmt.Errorf("%w: line %d: id %q is already on line %d", ErrInvalid, line, q.ID, first)
		}
		seen[q.ID] = line
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%w: line %d: longer than %d bytes", ErrInvalid, line+1, MaxLineBytes)
		}
		return nil, fmt.Errorf("evaluate: reading questions: line %d: %w", line+1, err)
	}
	return qs, nil
}

func decodeQuestion(text []byte) (Question, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	var q Question
	if err := dec.Decode(&q); err != nil {
		return Question{}, err
	}
	if dec.More() {
		return Question{}, errors.New("more than one JSON value")
	}
	return q, q.check()
}

// WriteQuestions writes qs as JSON Lines that [ReadQuestions] reads back.
func WriteQuestions(w io.Writer, qs []Question) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i, q := range qs {
		if err := q.check(); err != nil {
			return fmt.Errorf("%w: question %d (ID %q): %v", ErrInvalid, i, q.ID, err)
		}
		if err := enc.Encode(q); err != nil {
			return fmt.Errorf("evaluate: writing questions: %w", err)
		}
	}
	return nil
}
