package eval

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/document"
)

// A Corpus is a set of documents and the questions asked of them.
type Corpus struct {
	Name      string
	Documents []Document
	Questions []Question
}

// A Document is one text of a corpus.
type Document struct {
	ID     string          // unique in the corpus: the file name without its extension
	Title  string          // the first non-empty line, without Markdown heading marks
	Text   string          // the whole text, valid UTF-8
	Format document.Format // document.Markdown for .md files, document.Text otherwise
}

// A Question asks for one fact whose gold answer is a byte span of one
// document: Text[Start:End] of the document DocID is Answer.
type Question struct {
	ID         string `json:"id"`
	DocID      string `json:"doc"`
	Text       string `json:"question"`
	Answer     string `json:"answer"`
	Start, End int    `json:"-"`
}

// Gold returns the question's answer span.
func (q Question) Gold() Span { return Span{DocID: q.DocID, Start: q.Start, End: q.End} }

// NewCorpus checks docs and questions and returns a corpus with each
// question's span found: the only occurrence of its Answer in its document.
// The errors wrap [ErrCorpus]: a document that is empty, invalid UTF-8 or
// has a duplicate ID; a question without text, with an unknown document,
// or whose answer is empty, has surrounding white space, is absent from
// its document, occurs in it twice, or occurs in any other document.
func NewCorpus(name string, docs []Document, questions []Question) (*Corpus, error) {
	c := &Corpus{Name: name, Documents: docs, Questions: slices.Clone(questions)}
	byID := make(map[string]int, len(docs))
	for i, d := range docs {
		if err := checkDocument(d); err != nil {
			return nil, err
		}
		if _, dup := byID[d.ID]; dup {
			return nil, fmt.Errorf("%w: document ID %q twice", ErrCorpus, d.ID)
		}
		byID[d.ID] = i
	}
	ids := make(map[string]bool, len(questions))
	for i := range c.Questions {
		q := &c.Questions[i]
		if q.ID == "" || ids[q.ID] {
			return nil, fmt.Errorf("%w: question %d: missing or duplicate ID %q", ErrCorpus, i, q.ID)
		}
		ids[q.ID] = true
		if err := c.place(q, byID); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func checkDocument(d Document) error {
	switch {
	case d.ID == "":
		return fmt.Errorf("%w: a document has no ID", ErrCorpus)
	case !utf8.ValidString(d.Text):
		return fmt.Errorf("%w: document %q is not valid UTF-8", ErrCorpus, d.ID)
	case strings.TrimSpace(d.Text) == "":
		return fmt.Errorf("%w: document %q is empty", ErrCorpus, d.ID)
	}
	return nil
}

// place finds q's answer in its document and checks that it is found
// nowhere else.
func (c *Corpus) place(q *Question, byID map[string]int) error {
	di, ok := byID[q.DocID]
	switch {
	case !ok:
		return fmt.Errorf("%w: question %s: unknown document %q", ErrCorpus, q.ID, q.DocID)
	case strings.TrimSpace(q.Text) == "":
		return fmt.Errorf("%w: question %s has no text", ErrCorpus, q.ID)
	case q.Answer == "" || strings.TrimSpace(q.Answer) != q.Answer:
		return fmt.Errorf("%w: question %s: answer is empty or has surrounding white space", ErrCorpus, q.ID)
	}
	text := c.Documents[di].Text
	if n := strings.Count(text, q.Answer); n != 1 {
		return fmt.Errorf("%w: question %s: answer occurs %d times in document %q, want once", ErrCorpus, q.ID, n, q.DocID)
	}
	for _, d := range c.Documents {
		if d.ID != q.DocID && strings.Contains(d.Text, q.Answer) {
			return fmt.Errorf("%w: question %s: answer also occurs in document %q", ErrCorpus, q.ID, d.ID)
		}
	}
	q.Start = strings.Index(text, q.Answer)
	q.End = q.Start + len(q.Answer)
	return nil
}

// Document returns the document with the given ID.
func (c *Corpus) Document(id string) (Document, bool) {
	for _, d := range c.Documents {
		if d.ID == id {
			return d, true
		}
	}
	return Document{}, false
}

// Subset returns the corpus with only its first n questions, for quick
// runs; with n of 0 or less, or not below their number, all of them.
func (c *Corpus) Subset(n int) *Corpus {
	if n <= 0 || n >= len(c.Questions) {
		return c
	}
	s := *c
	s.Questions = c.Questions[:n]
	return &s
}

// questionsFile is the name of a corpus directory's question list.
const questionsFile = "questions.json"

// LoadDir reads a corpus from a directory of fsys: every .md and .txt file
// is a document (its ID the file name without the extension, Markdown if it
// ends in .md), and questions.json is a JSON list of objects with the
// fields "id", "doc" (a document ID), "question" and "answer" (the exact
// text of the gold span). The corpus is named after the directory.
func LoadDir(fsys fs.FS, dir string) (*Corpus, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorpus, err)
	}
	var docs []Document
	for _, e := range entries {
		ext := path.Ext(e.Name())
		if e.IsDir() || (ext != ".md" && ext != ".txt") {
			continue
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCorpus, err)
		}
		docs = append(docs, NewDocument(strings.TrimSuffix(e.Name(), ext), string(b), formatOf(ext)))
	}
	qs, err := readQuestions(fsys, path.Join(dir, questionsFile))
	if err != nil {
		return nil, err
	}
	return NewCorpus(path.Base(dir), docs, qs)
}

func formatOf(ext string) document.Format {
	if ext == ".md" {
		return document.Markdown
	}
	return document.Text
}

func readQuestions(fsys fs.FS, name string) ([]Question, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorpus, err)
	}
	var qs []Question
	if err := json.Unmarshal(b, &qs); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrCorpus, name, err)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%w: %s holds no questions", ErrCorpus, name)
	}
	return qs, nil
}

// NewDocument returns a document with its Title taken from the text: the
// first non-empty line, without leading Markdown heading marks.
func NewDocument(id, text string, format document.Format) Document {
	return Document{ID: id, Title: title(text), Text: text, Format: format}
}

func title(text string) string {
	for line := range strings.Lines(text) {
		line = strings.TrimFunc(line, unicode.IsSpace)
		if line != "" {
			return strings.TrimSpace(strings.TrimLeft(line, "#"))
		}
	}
	return ""
}
