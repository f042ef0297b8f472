package main

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// instructions open every prompt.
const instructions = "Answer the question from the context below only. " +
	"Cite the source of each fact in square brackets. " +
	"If the context does not hold the answer, say that you do not know."

// Prompt limits: a small model's context window, with room for the answer.
const (
	promptLimit   = 8192
	promptReserve = 1024
)

// A passage is what the query step returns for a question: a run of
// consecutive chunks of one document with its provenance and the hits
// inside it, the fields of retrieve.Passage.
type passage struct {
	DocID       string
	Title       string
	Section     []string
	First, Last int
	Start, End  int
	Text        string
	Tokens      int
	Score       float32
	Hits        []vectorstore.Hit
}

// An answer is what the page shows for one question: the passages best
// first, and the prompt the budget assembled from them.
type answer struct {
	passages []passage
	prompt   budget.Result
}

// ask runs the query step and assembles the prompt.
func (a *app) ask(ctx context.Context, ix *index, s settings) (answer, error) {
	ps, items, err := a.retrieve(ctx, ix, s)
	if err != nil {
		return answer{}, err
	}
	res, err := a.assemble(s, items)
	return answer{passages: ps, prompt: res}, err
}

// retrieve is the query step: from the question to the passages, best
// first, and their budget items, one per passage in the same order.
func (a *app) retrieve(ctx context.Context, ix *index, s settings) ([]passage, []budget.Item, error) {
	var hits []vectorstore.Hit
	var err error
	depth := max(4*s.Passages, 20)
	if s.Keywords {
		var h *vectorstore.Hybrid
		h, err = vectorstore.NewHybrid(vectorstore.HybridConfig{Store: ix.store, Embedder: a.models.embedder})
		if err == nil {
			hits, err = h.Query(ctx, s.Question, depth, vectorstore.Filter{})
		}
	} else {
		var vecs [][]float32
		vecs, err = a.models.embedder.Embed(ctx, []string{s.Question})
		if err == nil {
			hits, err = ix.store.Query(ctx, vecs[0], depth, vectorstore.Filter{})
		}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("searching: %w", err)
	}
	var ws []window.Window
	if s.Widen == "windows" {
		size := s.Window
		if size == 0 {
			size = -1 // the hit alone: zero would mean the default size
		}
		var e *window.Expander
		e, err = window.NewExpander(window.ExpanderConfig{Source: ix.store, Tokenizer: a.models.tokenizer, Size: size, Headings: true})
		if err == nil {
			ws, err = e.Expand(ctx, hits)
		}
	} else {
		var x *window.Extractor
		x, err = window.NewExtractor(window.ExtractorConfig{Source: ix.store, Tokenizer: a.models.tokenizer, MaxUnits: s.Segment})
		if err == nil {
			ws, err = x.Extract(ctx, hits)
		}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("widening the hits: %w", err)
	}
	// Best first by the best hit, ties in document order, as the
	// Retriever ranks them.
	slices.SortStableFunc(ws, func(x, y window.Window) int {
		return cmp.Or(cmp.Compare(y.Score, x.Score), strings.Compare(x.DocID, y.DocID), cmp.Compare(x.First, y.First))
	})
	ws = ws[:min(len(ws), s.Passages)]
	ps := make([]passage, len(ws))
	for i, w := range ws {
		ps[i] = passage{DocID: w.DocID, First: w.First, Last: w.Last, Start: w.Start, End: w.End,
			Text: w.Text, Tokens: w.Tokens, Score: w.Score, Hits: w.Hits}
		if d, ok := a.corpus.doc(w.DocID); ok {
			ps[i].Title, ps[i].Section = d.Title, d.sectionPath(w.Start)
		}
	}
	items, err := retrieve.WindowItems(ws, retrieve.ItemConfig{Label: func(o retrieve.Origin) string {
		return a.corpus.citation(o.DocID, o.Start)
	}})
	return ps, items, err
}

// assemble fits the instructions, the passages and the question into the
// prompt, the passages within the context budget.
func (a *app) assemble(s settings, items []budget.Item) (budget.Result, error) {
	asm, err := budget.New(budget.Config{Tokenizer: a.models.tokenizer, Limit: promptLimit, Reserve: promptReserve})
	if err != nil {
		return budget.Result{}, err
	}
	return asm.Assemble(
		budget.Section{Name: "instructions", Priority: 3, Required: true, Role: openai.RoleSystem,
			Items: []budget.Item{{Text: instructions}}},
		budget.Section{Name: "context", Priority: 1, MaxTokens: s.Budget, Strategy: budget.DropLowestRank,
			Cut: budget.CutEnd, Heading: "Context:", Role: openai.RoleUser, Items: items},
		budget.Section{Name: "question", Priority: 2, Required: true, Role: openai.RoleUser,
			Items: []budget.Item{{Text: "Question: " + s.Question}}},
	)
}

// doc returns the document with the given ID.
func (c *corpusInfo) doc(id string) (source, bool) {
	i, ok := c.byID[id]
	if !ok {
		return source{}, false
	}
	return c.docs[i], true
}

// citation is the provenance line of a passage in the prompt:
// "[document, section > subsection]".
func (c *corpusInfo) citation(docID string, start int) string {
	d, ok := c.doc(docID)
	if !ok {
		return "[" + docID + "]"
	}
	if p := d.sectionPath(start); len(p) > 0 {
		return "[" + docID + ", " + strings.Join(p, " > ") + "]"
	}
	return "[" + docID + "]"
}
