package evaluate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
)

var (
	// ErrConfig is the error of a bad [Config] or [SummaryConfig].
	ErrConfig = errors.New("evaluate: invalid configuration")
	// ErrInvalid is the error of bad input: a line of a question set
	// that is not a question, a repeated ID, an empty question, answer
	// or context given to a Judge.
	ErrInvalid = errors.New("evaluate: invalid question")
	// ErrJudge is the error of a judge whose replies stayed malformed
	// (no JSON object, missing or extra fields, a verdict per claim
	// missing, a sentence not in the context, a refusal) after every
	// attempt: the question is unjudged, not scored.
	ErrJudge = errors.New("evaluate: malformed judge output")
	// ErrNoClaims is the error of faithfulness for an answer in which
	// the judge found no claim to check: the answer is neither faithful
	// nor unfaithful.
	ErrNoClaims = errors.New("evaluate: no claims in the answer")
)

// A Retriever returns passages for a question, best first.
// *retrieve.Retriever is one.
type Retriever interface {
	Retrieve(ctx context.Context, question string) ([]retrieve.Passage, error)
}

// An AssembleFunc builds the prompt a model would be given for question
// from the passages retrieved for it (with retrieve.Items and a
// budget.Assembler, typically), so that what the budget cut is measured.
type AssembleFunc func(ctx context.Context, question string, passages []retrieve.Passage) (string, error)

// DefaultK is the number of passages scored when Config.K is zero.
const DefaultK = 10

// Config configures [Evaluate].
type Config struct {
	// Tokenizer counts the tokens of passages and prompts. Required.
	Tokenizer tokencount.Tokenizer
	// K is the number of passages scored, the first K the retriever
	// returns; zero means DefaultK.
	K int
	// Assemble, if not nil, builds each question's prompt, for
	// answer-in-prompt and the prompt's tokens; nil leaves both out.
	Assemble AssembleFunc
}

func (cfg Config) check() (Config, error) {
	if cfg.Tokenizer == nil {
		return cfg, fmt.Errorf("%w: Tokenizer is required", ErrConfig)
	}
	if cfg.K < 0 {
		return cfg, fmt.Errorf("%w: K is %d: must be positive, or zero for %d", ErrConfig, cfg.K, DefaultK)
	}
	if cfg.K == 0 {
		cfg.K = DefaultK
	}
	return cfg, nil
}

// A Result is how one question fared. The metrics that do not apply to
// the question (SpanRecall without spans, AnswerInPassages without an
// answer, the prompt's without an AssembleFunc) are zero, and
// [Summarize] leaves the question out of them.
type Result struct {
	ID string `json:"id"`
	// Targets is the number of the question's targets of the kind that
	// decides relevance (see [Evaluate]); 0 for an unanswerable
	// question, which the retrieval metrics leave out.
	Targets int `json:"targets"`
	// Spans and Answer report what the question has, for the metrics
	// that need them.
	Spans  bool `json:"spans,omitempty"`
	Answer bool `json:"answer,omitempty"`
	// Passages is the number of passages scored (at most K).
	Passages int `json:"passages"`
	// Rank is the rank (from 1) of the first relevant passage; 0 if
	// none of the K is relevant.
	Rank int `json:"rank"`
	// NDCG is the normalized discounted cumulative gain of the K
	// passages.
	NDCG float64 `json:"ndcg"`
	// SpanRecall is the share of the bytes of the question's spans
	// that the passages cover.
	SpanRecall float64 `json:"span_recall"`
	// ContextPrecision is the share of the passages' tokens that are
	// relevant.
	ContextPrecision float64 `json:"context_precision"`
	// AnswerInPassages reports that the answer string is in a passage,
	// AnswerInPrompt that it is in the assembled prompt.
	AnswerInPassages bool `json:"answer_in_passages,omitempty"`
	AnswerInPrompt   bool `json:"answer_in_prompt,omitempty"`
	// Prompt reports that the prompt was assembled.
	Prompt bool `json:"prompt,omitempty"`
	// PassageTokens is the tokens of the K passages' texts, and
	// PromptTokens those of the prompt.
	PassageTokens int `json:"passage_tokens"`
	PromptTokens  int `json:"prompt_tokens,omitempty"`
}

// Evaluate asks r each question and scores the first K passages it
// returns, one [Result] per question, in order.
//
// Relevance is decided by the question's most precise kind of target:
// its Spans if it has any (a passage is relevant when it is of the
// span's document and its bytes Start..End overlap the span), else its
// Docs (a passage of one of them), else its Answer (a passage whose text
// holds it, ignoring case and runs of white space). A target is credited
// to the first passage relevant to it; a later passage relevant only to
// credited targets (a duplicate) gains nothing in nDCG. So, with R
// distinct targets and the passage at rank i gaining 1 when it credits a
// target:
//
//	DCG  = Σ gain(i) / log2(i+1)            over ranks i = 1..K
//	nDCG = DCG / Σ 1/log2(i+1)              over ranks i = 1..min(R, K)
//
// One passage holding two targets gains once, so where a passage can
// hold several targets nDCG stays below 1 even for the best ranking.
//
// SpanRecall is the bytes of the spans covered by a passage of their
// document over the bytes of the spans. ContextPrecision is relevant
// tokens over the passages' tokens (each passage's Text counted by the
// Tokenizer): a relevant passage's tokens are all relevant when
// relevance is by document or answer; by span, only those of the parts
// of its text inside the spans (counted piece by piece, where its Text
// is the document's bytes Start..End; the whole passage otherwise).
// Passages without offsets (Start and End zero) are relevant to no span.
//
// An error of the retriever or the AssembleFunc, or a panic in one,
// stops the evaluation with an error naming the question.
func Evaluate(ctx context.Context, cfg Config, r Retriever, qs []Question) ([]Result, error) {
	cfg, err := cfg.check()
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, fmt.Errorf("%w: Retriever is nil", ErrConfig)
	}
	out := make([]Result, 0, len(qs))
	for i, q := range qs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := q.check(); err != nil {
			return nil, fmt.Errorf("%w: question %d (ID %q): %v", ErrInvalid, i, q.ID, err)
		}
		res, err := evaluateOne(ctx, cfg, r, q)
		if err != nil {
			return nil, fmt.Errorf("evaluate: question %d (ID %q): %w", i, q.ID, err)
		}
		out = append(out, res)
	}
	return out, nil
}

func evaluateOne(ctx context.Context, cfg Config, r Retriever, q Question) (Result, error) {
	ps, err := safeRetrieve(ctx, r, q.Question)
	if err != nil {
		return Result{}, err
	}
	ps = ps[:min(len(ps), cfg.K)]
	res := Score(cfg.Tokenizer, cfg.K, q, ps)
	if cfg.Assemble != nil {
		prompt, err := safeAssemble(ctx, cfg.Assemble, q.Question, ps)
		if err != nil {
			return Result{}, err
		}
		res.Prompt = true
		res.PromptTokens = cfg.Tokenizer.Count(prompt)
		res.AnswerInPrompt = res.Answer && containsAnswer(prompt, q.Answer)
	}
	return res, nil
}

func safeRetrieve(ctx context.Context, r Retriever, question string) (ps []retrieve.Passage, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("retriever panicked: %v", p)
		}
	}()
	return r.Retrieve(ctx, question)
}

func safeAssemble(ctx context.Context, f AssembleFunc, question string, ps []retrieve.Passage) (prompt string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("AssembleFunc panicked: %v", p)
		}
	}()
	return f(ctx, question, ps)
}

// Score scores the first k of passages ps, best first, against q, as
// [Evaluate] does, counting tokens with tok; it leaves the prompt's
// metrics out. Use it to score passages a [Retriever] does not return.
// A k below 1 scores none.
func Score(tok tokencount.Tokenizer, k int, q Question, ps []retrieve.Passage) Result {
	k = max(k, 0)
	ps = ps[:min(len(ps), k)]
	res := Result{ID: q.ID, Passages: len(ps), Spans: len(q.Spans) > 0, Answer: strings.TrimSpace(q.Answer) != ""}
	var relevant func(p retrieve.Passage) []int // the targets p is relevant to
	docs := distinct(q.Docs)
	spans := distinct(q.Spans)
	switch {
	case len(spans) > 0:
		res.Targets = len(spans)
		relevant = func(p retrieve.Passage) []int {
			var ts []int
			for i, s := range spans {
				if p.DocID == s.Doc && p.End > p.Start && overlap(p.Start, p.End, s.Start, s.End) > 0 {
					ts = append(ts, i)
				}
			}
			return ts
		}
	case len(docs) > 0:
		res.Targets = len(docs)
		relevant = func(p retrieve.Passage) []int {
			if i := slices.Index(docs, p.DocID); i >= 0 {
				return []int{i}
			}
			return nil
		}
	case res.Answer:
		res.Targets = 1
		relevant = func(p retrieve.Passage) []int {
			if containsAnswer(p.Text, q.Answer) {
				return []int{0}
			}
			return nil
		}
	}
	credited := make([]bool, res.Targets)
	var dcg float64
	var relevantTokens int
	for i, p := range ps {
		n := tok.Count(p.Text)
		res.PassageTokens += n
		if res.Answer && containsAnswer(p.Text, q.Answer) {
			res.AnswerInPassages = true
		}
		if relevant == nil {
			continue
		}
		ts := relevant(p)
		if len(ts) == 0 {
			continue
		}
		if res.Rank == 0 {
			res.Rank = i + 1
		}
		gain := false
		for _, t := range ts {
			if !credited[t] {
				credited[t], gain = true, true
			}
		}
		if gain {
			dcg += 1 / math.Log2(float64(i+2))
		}
		if len(spans) > 0 {
			relevantTokens += spanTokens(tok, p, spans, n)
		} else {
			relevantTokens += n
		}
	}
	if res.Targets > 0 {
		var ideal float64
		for i := range min(res.Targets, k) {
			ideal += 1 / math.Log2(float64(i+2))
		}
		if ideal > 0 {
			res.NDCG = dcg / ideal
		}
	}
	if res.PassageTokens > 0 {
		res.ContextPrecision = float64(relevantTokens) / float64(res.PassageTokens)
	}
	if len(spans) > 0 {
		res.SpanRecall = spanRecall(spans, ps)
	}
	return res
}
