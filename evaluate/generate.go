package evaluate

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// A Chunk is a piece of a document to write questions from: its text and
// where it is, the bytes Start..End of document Doc.
type Chunk struct {
	Doc        string
	Start, End int
	Text       string
}

// A Generated is a synthetic question set and what did not go into it.
type Generated struct {
	// Questions are the questions written, in the order of the chunks,
	// each with its chunk's span as its target and a short answer
	// copied from the chunk.
	Questions []Question
	// Duplicates is the number of questions dropped as the same
	// (ignoring case and runs of white space) as an earlier one.
	Duplicates int
	// Failed are the chunks whose replies stayed malformed (each error
	// wraps ErrJudge and names the chunk); they have no questions.
	Failed []error
}

// MaxPerChunk is the most questions [Judge.Generate] asks for a chunk.
const MaxPerChunk = 10

// Generate writes perChunk questions for each chunk with the Judge's
// model, for a user without labelled questions to start from: one model
// call per chunk (cached, like judgments, by the prompt's content). A
// question is accepted only when its answer is in its chunk's text
// (ignoring case and runs of white space), so that it is grounded in the
// chunk; its target is the chunk's span ({Doc, Start, End}) and its
// Answer the answer. Questions the same as an earlier one are dropped
// and counted. The prompt is [GeneratePrompt].
//
// A chunk whose replies stay malformed is listed in Failed and the
// others go on; an error of the Chat, or a chunk without a document, a
// range or a text (ErrInvalid), stops the generation. A perChunk outside
// 1..MaxPerChunk gives ErrConfig.
func (j *Judge) Generate(ctx context.Context, chunks []Chunk, perChunk int) (Generated, error) {
	if perChunk < 1 || perChunk > MaxPerChunk {
		return Generated{}, fmt.Errorf("%w: perChunk is %d: must be in [1, %d]", ErrConfig, perChunk, MaxPerChunk)
	}
	var g Generated
	seen, ids := map[string]bool{}, map[string]bool{}
	for i, c := range chunks {
		if c.Doc == "" || c.Start < 0 || c.End <= c.Start || strings.TrimSpace(c.Text) == "" {
			return Generated{}, fmt.Errorf("%w: chunk %d (document %q, bytes %d-%d): needs a document, a range of bytes and a text", ErrInvalid, i, c.Doc, c.Start, c.End)
		}
		written, err := j.questionsFor(ctx, c, perChunk)
		if errors.Is(err, ErrJudge) {
			g.Failed = append(g.Failed, fmt.Errorf("chunk %d (document %q, bytes %d-%d): %w", i, c.Doc, c.Start, c.End, err))
			continue
		}
		if err != nil {
			return Generated{}, fmt.Errorf("generate: chunk %d (document %q): %w", i, c.Doc, err)
		}
		for k, w := range written {
			key := normalize(w.Question)
			if seen[key] {
				g.Duplicates++
				continue
			}
			seen[key] = true
			id := fmt.Sprintf("%s@%d-%d#%d", c.Doc, c.Start, c.End, k+1)
			for n := 2; ids[id]; n++ { // two chunks of one span
				id = fmt.Sprintf("%s@%d-%d#%d.%d", c.Doc, c.Start, c.End, k+1, n)
			}
			ids[id] = true
			g.Questions = append(g.Questions, Question{
				ID:       id,
				Question: strings.TrimSpace(w.Question),
				Spans:    []Span{{Doc: c.Doc, Start: c.Start, End: c.End}},
				Answer:   strings.TrimSpace(w.Answer),
			})
		}
	}
	return g, nil
}

type written struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

func (j *Judge) questionsFor(ctx context.Context, c Chunk, n int) ([]written, error) {
	var got struct {
		Questions []written `json:"questions"`
	}
	err := j.ask(ctx, fmt.Sprintf(GeneratePrompt, n, c.Text), func(reply string) error {
		got.Questions = nil
		if err := decodeReply(reply, &got); err != nil {
			return err
		}
		if len(got.Questions) != n {
			return fmt.Errorf("%d questions, not %d", len(got.Questions), n)
		}
		for i, w := range got.Questions {
			switch {
			case strings.TrimSpace(w.Question) == "":
				return fmt.Errorf("question %d is empty", i+1)
			case !containsAnswer(c.Text, w.Answer):
				return fmt.Errorf("the answer of question %d is not in the passage", i+1)
			}
		}
		return nil
	})
	return got.Questions, err
}
