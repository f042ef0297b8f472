package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/benchmarks/internal/chart"
	"github.com/ragkit/ragkit/tokencount"
)

// retrieval runs every configuration of eval.Techniques on the built-in
// corpora (the first questions of each if questions > 0) with the
// default Lexical embedder and memory store.
func retrieval(ctx context.Context, tok tokencount.Tokenizer, sizes []int, questions int) ([]eval.Result, error) {
	methods, err := eval.Techniques(tok, sizes, eval.DefaultK)
	if err != nil {
		return nil, err
	}
	var corpora []*eval.Corpus
	for _, name := range eval.Corpora() {
		c, err := eval.Load(name)
		if err != nil {
			return nil, err
		}
		corpora = append(corpora, c.Subset(questions))
	}
	ev, err := eval.New(eval.Config{Tokenizer: tok})
	if err != nil {
		return nil, err
	}
	return ev.Run(ctx, corpora, methods), nil
}

// failureChart draws the share of questions each configuration fails,
// one bar per corpus.
func failureChart(results []eval.Result) chart.Bars {
	var methods, corpora []string
	for _, r := range results {
		if !slices.Contains(methods, r.Method) {
			methods = append(methods, r.Method)
		}
		if !slices.Contains(corpora, r.Corpus) {
			corpora = append(corpora, r.Corpus)
		}
	}
	series := make([]chart.Series, len(corpora))
	for i, c := range corpora {
		series[i] = chart.Series{Name: c, Values: make([]float64, len(methods))}
		for _, r := range results {
			if r.Corpus == c && r.Err == nil && r.Questions > 0 {
				series[i].Values[slices.Index(methods, r.Method)] = 100 * float64(r.Failures) / float64(r.Questions)
			}
		}
	}
	k := eval.DefaultK
	if len(results) > 0 {
		k = results[0].K
	}
	return chart.Bars{
		Title:      fmt.Sprintf("Retrieval failures per configuration (answer not in the top %d)", k),
		Categories: methods,
		Series:     series,
		Axis:       "failures, % of questions (lower is better)",
		Format:     func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) + "%" },
	}
}

// baseline returns the configuration a method is measured against:
// balanced-N against greedy-N, and any other method at size N
// (balanced-N+headers, windows-N, segments-recall-N) against balanced-N;
// "" for the greedy baseline itself.
func baseline(method string) string {
	first, _, _ := strings.Cut(method, "+")
	i := strings.LastIndexByte(first, '-')
	if i < 0 || strings.HasPrefix(method, "greedy-") {
		return ""
	}
	if method == first && strings.HasPrefix(method, "balanced-") {
		return "greedy" + first[i:]
	}
	return "balanced" + first[i:]
}

// writeGains writes, for each corpus and configuration, its failures
// against its baseline's and the change.
func writeGains(b *strings.Builder, results []eval.Result) {
	b.WriteString("| corpus | configuration | against | failures | baseline's failures | change |\n|---|---|---|--:|--:|--:|\n")
	find := func(corpus, method string) (eval.Result, bool) {
		i := slices.IndexFunc(results, func(r eval.Result) bool { return r.Corpus == corpus && r.Method == method && r.Err == nil })
		if i < 0 {
			return eval.Result{}, false
		}
		return results[i], true
	}
	for _, r := range results {
		base, ok := find(r.Corpus, baseline(r.Method))
		if r.Err != nil || !ok {
			continue
		}
		fmt.Fprintf(b, "| %s | %s | %s | %d of %d | %d | %s |\n", r.Corpus, r.Method, base.Method, r.Failures, r.Questions, base.Failures, change(base.Failures, r.Failures))
	}
}

// change describes going from a to b failures: "-38%", "+2", "none".
func change(a, b int) string {
	switch {
	case a == b:
		return "none"
	case a == 0:
		return fmt.Sprintf("+%d", b)
	}
	return fmt.Sprintf("%+.0f%%", 100*float64(b-a)/float64(a))
}
