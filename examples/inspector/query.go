package main

import (
	"context"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/retrieve"
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

// An answer is what the page shows for one question: the passages best
// first, and the prompt the budget assembled from them.
type answer struct {
	passages []retrieve.Passage
	// items are the context's budget items, one per passage, as
	// retrieve.Items sized them to share the context's room; sized[i]
	// says that item i was cut to its share before the budget saw it.
	items  []budget.Item
	sized  []bool
	prompt budget.Result
}

// ask runs the query step and assembles the prompt.
func (a *app) ask(ctx context.Context, ix *index, s settings) (answer, error) {
	ps, items, sized, err := a.retrieve(ctx, ix, s)
	if err != nil {
		return answer{}, err
	}
	res, err := a.assemble(s, items)
	return answer{passages: ps, items: items, sized: sized, prompt: res}, err
}

// retrieve is the query step: a retrieve.Retriever configured by the
// page's settings returns the passages, best first, and retrieve.Items
// makes them the context's budget items, one per passage in the same order,
// sized to share the context's room (its budget less its heading) so that
// one long passage, a segment grown to a whole document, cannot take the
// whole budget and push the next passage's best hit out. sized[i] says
// that passage i was cut to its share.
func (a *app) retrieve(ctx context.Context, ix *index, s settings) (ps []retrieve.Passage, items []budget.Item, sized []bool, err error) {
	w, err := a.widener(ix, s)
	if err != nil {
		return nil, nil, nil, err
	}
	search := retrieve.Hybrid
	if !s.Keywords {
		search = retrieve.Vector
	}
	r, err := retrieve.New(retrieve.Config{
		Store: ix.store, Embedder: a.models.embedder, Search: search,
		Passages: s.Passages, Widener: w, Tokenizer: a.models.tokenizer,
	})
	if err != nil {
		return nil, nil, nil, err
	}
	if ps, err = r.Retrieve(ctx, s.Question); err != nil {
		return nil, nil, nil, err
	}
	cfg := retrieve.ItemConfig{Label: retrieve.Citation}
	whole, err := retrieve.Items(ps, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	cfg.Room, cfg.Tokenizer = max(0, s.Budget-a.models.tokenizer.Count(contextHeading+"\n")), a.models.tokenizer
	if items, err = retrieve.Items(ps, cfg); err != nil {
		return nil, nil, nil, err
	}
	sized = make([]bool, len(items))
	for i := range items {
		sized[i] = items[i].Text != whole[i].Text
	}
	return ps, items, sized, nil
}

// contextHeading opens the context section of the prompt.
const contextHeading = "Context:"

// widener widens hits into sentence windows of s.Window chunks on each
// side, kept inside their sections, or into relevant segments of at most
// s.Segment chunks. Windows of no chunks are the hits alone: no widener.
func (a *app) widener(ix *index, s settings) (retrieve.Widener, error) {
	if s.Widen == "windows" {
		if s.Window == 0 {
			return nil, nil
		}
		return window.NewExpander(window.ExpanderConfig{Tokenizer: a.models.tokenizer,
			Size: s.Window, WithinSections: true})
	}
	return window.NewExtractor(window.ExtractorConfig{Tokenizer: a.models.tokenizer, MaxUnits: s.Segment})
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
			Cut: budget.CutEnd, Heading: contextHeading, Role: openai.RoleUser, Items: items},
		budget.Section{Name: "question", Priority: 2, Required: true, Role: openai.RoleUser,
			Items: []budget.Item{{Text: "Question: " + s.Question}}},
	)
}
