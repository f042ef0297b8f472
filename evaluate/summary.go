package evaluate

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// Hit returns 1 if rank (from 1; 0 for a miss) is within the first k,
// else 0: a question's hit@k.
func Hit(rank, k int) float64 {
	if rank >= 1 && rank <= k {
		return 1
	}
	return 0
}

// ReciprocalRank returns 1/rank, or 0 for a miss (rank 0): a question's
// reciprocal rank, whose mean over questions is MRR (MRR@k when ranks
// beyond k are misses).
func ReciprocalRank(rank int) float64 {
	if rank < 1 {
		return 0
	}
	return 1 / float64(rank)
}

// An Estimate is a metric's mean over the questions it applies to, with
// a bootstrap confidence interval Low..High.
type Estimate struct {
	Mean float64 `json:"mean"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// N is the number of questions the metric applies to; the
	// estimate is all zero when it is 0.
	N int `json:"n"`
}

// A Summary is the aggregate of the results of one configuration.
type Summary struct {
	Questions int `json:"questions"`
	// Answerable is the number of questions with a target; the
	// retrieval metrics are over these.
	Answerable       int      `json:"answerable"`
	HitAt1           Estimate `json:"hit_at_1"`
	HitAtK           Estimate `json:"hit_at_k"`
	MRR              Estimate `json:"mrr"`
	NDCG             Estimate `json:"ndcg"`
	ContextPrecision Estimate `json:"context_precision"`
	// SpanRecall is over the questions with spans, AnswerInPassages
	// over those with an answer, AnswerInPrompt over those with an
	// answer and a prompt.
	SpanRecall       Estimate `json:"span_recall"`
	AnswerInPassages Estimate `json:"answer_in_passages"`
	AnswerInPrompt   Estimate `json:"answer_in_prompt"`
	// PassageTokens is over every question, PromptTokens over those
	// with a prompt.
	PassageTokens Estimate `json:"passage_tokens"`
	PromptTokens  Estimate `json:"prompt_tokens"`
}

// SummaryConfig configures [Summarize].
type SummaryConfig struct {
	// Resamples is the number of bootstrap resamples; zero means
	// 2,000. At most 1,000,000.
	Resamples int
	// Level is the confidence level of the intervals, in (0, 1); zero
	// means 0.95.
	Level float64
	// Seed seeds the resampling, so that a summary is reproducible;
	// zero is a seed like any other.
	Seed uint64
}

func (cfg SummaryConfig) check() (SummaryConfig, error) {
	if cfg.Resamples < 0 || cfg.Resamples > 1_000_000 {
		return cfg, fmt.Errorf("%w: Resamples is %d: must be in [1, 1000000], or zero for 2000", ErrConfig, cfg.Resamples)
	}
	if cfg.Level != 0 && !(cfg.Level > 0 && cfg.Level < 1) {
		return cfg, fmt.Errorf("%w: Level is %v: must be in (0, 1), or zero for 0.95", ErrConfig, cfg.Level)
	}
	if cfg.Resamples == 0 {
		cfg.Resamples = 2000
	}
	if cfg.Level == 0 {
		cfg.Level = 0.95
	}
	return cfg, nil
}

// metric is how Summarize reads one metric of a Result: whether it
// applies, and its value.
type metric struct {
	field   func(*Summary) *Estimate
	applies func(Result) bool
	value   func(Result) float64
}

func answerable(r Result) bool { return r.Targets > 0 }

func boolean(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

var metrics = []metric{
	{func(s *Summary) *Estimate { return &s.HitAt1 }, answerable, func(r Result) float64 { return Hit(r.Rank, 1) }},
	{func(s *Summary) *Estimate { return &s.HitAtK }, answerable, func(r Result) float64 { return boolean(r.Rank > 0) }},
	{func(s *Summary) *Estimate { return &s.MRR }, answerable, func(r Result) float64 { return ReciprocalRank(r.Rank) }},
	{func(s *Summary) *Estimate { return &s.NDCG }, answerable, func(r Result) float64 { return r.NDCG }},
	{func(s *Summary) *Estimate { return &s.ContextPrecision }, answerable, func(r Result) float64 { return r.ContextPrecision }},
	{func(s *Summary) *Estimate { return &s.SpanRecall }, func(r Result) bool { return r.Spans }, func(r Result) float64 { return r.SpanRecall }},
	{func(s *Summary) *Estimate { return &s.AnswerInPassages }, func(r Result) bool { return r.Answer }, func(r Result) float64 { return boolean(r.AnswerInPassages) }},
	{func(s *Summary) *Estimate { return &s.AnswerInPrompt }, func(r Result) bool { return r.Answer && r.Prompt }, func(r Result) float64 { return boolean(r.AnswerInPrompt) }},
	{func(s *Summary) *Estimate { return &s.PassageTokens }, func(Result) bool { return true }, func(r Result) float64 { return float64(r.PassageTokens) }},
	{func(s *Summary) *Estimate { return &s.PromptTokens }, func(r Result) bool { return r.Prompt }, func(r Result) float64 { return float64(r.PromptTokens) }},
}

// Summarize aggregates results: each metric's mean over the questions it
// applies to, every question weighing the same, with a percentile
// bootstrap interval: the questions are resampled with replacement
// Resamples times (with a generator seeded by Seed, so the same results
// and configuration give the same summary), and Low and High are the
// (1-Level)/2 and (1+Level)/2 quantiles of the resampled means. The
// interval says how much the mean owes to the particular questions; two
// configurations whose intervals overlap widely have not been told apart
// by this question set. Cost: Resamples × questions per metric.
func Summarize(results []Result, cfg SummaryConfig) (Summary, error) {
	cfg, err := cfg.check()
	if err != nil {
		return Summary{}, err
	}
	s := Summary{Questions: len(results)}
	for _, r := range results {
		if answerable(r) {
			s.Answerable++
		}
	}
	for i, m := range metrics {
		var xs []float64
		for _, r := range results {
			if m.applies(r) {
				xs = append(xs, m.value(r))
			}
		}
		// Each metric has its own stream, derived from the seed, so
		// that adding a metric does not move the others' intervals.
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
		*m.field(&s) = estimate(xs, cfg, rng)
	}
	return s, nil
}

func estimate(xs []float64, cfg SummaryConfig, rng *rand.Rand) Estimate {
	if len(xs) == 0 {
		return Estimate{}
	}
	e := Estimate{Mean: mean(xs), N: len(xs)}
	means := make([]float64, cfg.Resamples)
	for b := range means {
		var sum float64
		for range xs {
			sum += xs[rng.IntN(len(xs))]
		}
		means[b] = sum / float64(len(xs))
	}
	slices.Sort(means)
	e.Low = quantile(means, (1-cfg.Level)/2)
	e.High = quantile(means, (1+cfg.Level)/2)
	return e
}

func mean(xs []float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// quantile returns the q-quantile of sorted xs: the value at rank
// ceil(q·n) (from 1), the nearest-rank definition.
func quantile(sorted []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// A Configuration is one way of retrieving to compare: a name for the
// table and a retriever, with an optional AssembleFunc (nil: the
// Config's).
type Configuration struct {
	Name      string
	Retriever Retriever
	Assemble  AssembleFunc
}

// A Run is one configuration's results on a question set.
type Run struct {
	Name    string   `json:"name"`
	K       int      `json:"k"`
	Summary Summary  `json:"summary"`
	Results []Result `json:"results"`
}

// Compare evaluates every configuration on qs with cfg (a configuration's
// Assemble, where not nil, replacing cfg.Assemble) and summarizes each
// with scfg: one Run per configuration, in order. Since every run uses
// the same questions and seed, a difference between two runs is in the
// configurations, and the intervals say whether the question set can
// tell it from chance ([Paired] for two of them). Write the runs with
// [WriteTable], or as JSON (encoding/json) for a program.
func Compare(ctx context.Context, cfg Config, scfg SummaryConfig, configs []Configuration, qs []Question) ([]Run, error) {
	cfg, err := cfg.check()
	if err != nil {
		return nil, err
	}
	if _, err := scfg.check(); err != nil {
		return nil, err
	}
	runs := make([]Run, 0, len(configs))
	for i, c := range configs {
		if c.Name == "" {
			return nil, fmt.Errorf("%w: configuration %d has no Name", ErrConfig, i)
		}
		ccfg := cfg
		if c.Assemble != nil {
			ccfg.Assemble = c.Assemble
		}
		results, err := Evaluate(ctx, ccfg, c.Retriever, qs)
		if err != nil {
			return nil, fmt.Errorf("configuration %q: %w", c.Name, err)
		}
		s, err := Summarize(results, scfg)
		if err != nil {
			return nil, err
		}
		runs = append(runs, Run{Name: c.Name, K: cfg.K, Summary: s, Results: results})
	}
	return runs, nil
}

// WriteTable writes runs as a Markdown table, one row per run: each
// metric's mean with its interval in brackets, "-" where it applies to
// no question.
func WriteTable(w io.Writer, runs []Run) error {
	var b strings.Builder
	b.WriteString("| configuration | questions | hit@1 | hit@k | MRR | nDCG@k | context precision | span recall | answer in passages | answer in prompt | passage tokens | prompt tokens |\n")
	b.WriteString("|---|---:|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range runs {
		s := r.Summary
		fmt.Fprintf(&b, "| %s | %d |", strings.ReplaceAll(r.Name, "|", `\|`), s.Questions)
		for _, e := range []Estimate{s.HitAt1, s.HitAtK, s.MRR, s.NDCG, s.ContextPrecision, s.SpanRecall, s.AnswerInPassages, s.AnswerInPrompt} {
			b.WriteString(" " + e.format("%.3f") + " |")
		}
		for _, e := range []Estimate{s.PassageTokens, s.PromptTokens} {
			b.WriteString(" " + e.format("%.0f") + " |")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (e Estimate) format(verb string) string {
	if e.N == 0 {
		return "-"
	}
	return fmt.Sprintf(verb+" ["+verb+", "+verb+"]", e.Mean, e.Low, e.High)
}

// Paired estimates how configuration b differs from configuration a on
// the same questions: for each metric, the mean of b's value minus a's
// over the questions it applies to in both, with a paired bootstrap
// interval (the questions are resampled together, so that what the two
// configurations have in common, the hard and the easy questions, does
// not widen the interval). An interval that excludes 0 is a difference
// this question set tells from chance at the configured Level. Questions
// and Answerable are those of b. a and b must hold the same questions in
// the same order (by ID), as [Compare]'s runs do; otherwise the error
// wraps ErrInvalid.
func Paired(a, b []Result, cfg SummaryConfig) (Summary, error) {
	cfg, err := cfg.check()
	if err != nil {
		return Summary{}, err
	}
	if len(a) != len(b) {
		return Summary{}, fmt.Errorf("%w: %d results against %d", ErrInvalid, len(a), len(b))
	}
	s := Summary{Questions: len(b)}
	for i := range a {
		if a[i].ID != b[i].ID {
			return Summary{}, fmt.Errorf("%w: result %d is of question %q in one and %q in the other", ErrInvalid, i, a[i].ID, b[i].ID)
		}
		if answerable(b[i]) {
			s.Answerable++
		}
	}
	for i, m := range metrics {
		var ds []float64
		for q := range a {
			if m.applies(a[q]) && m.applies(b[q]) {
				ds = append(ds, m.value(b[q])-m.value(a[q]))
			}
		}
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
		*m.field(&s) = estimate(ds, cfg, rng)
	}
	return s, nil
}
