package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// WriteMarkdown writes results as a Markdown table, one row per corpus and
// method, then one line per failed pair with its error. The columns are
// those of [Summary], with Units; "failures" is Summary.Failures and
// "split" Summary.Split. When a method has a ContextTokens budget, a
// column "in context (tokens)" gives Summary.InContext and the budget.
func WriteMarkdown(w io.Writer, results []Result) error {
	k := DefaultK
	for _, r := range results {
		if r.Err == nil {
			k = r.K
			break
		}
	}
	inContext := slices.ContainsFunc(results, func(r Result) bool { return r.ContextTokens > 0 })
	var b strings.Builder
	fmt.Fprintf(&b, "| corpus | configuration | questions | hit@1 | hit@%d | MRR | recall | precision | IoU | Ω | units | failures | split |", k)
	if inContext {
		b.WriteString(" in context (tokens) |")
	}
	b.WriteString("\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	if inContext {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	var failed []Result
	for _, r := range results {
		if r.Err != nil {
			failed = append(failed, r)
			fmt.Fprintf(&b, "| %s | %s | — | — | — | — | — | — | — | — | — | error | — |", r.Corpus, r.Method)
			if inContext {
				b.WriteString(" — |")
			}
			b.WriteString("\n")
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %d | %d | %d |",
			r.Corpus, r.Method, r.Questions, f3(r.HitAt1), f3(r.HitAtK), f3(r.MRR),
			f3(r.Recall), f3(r.Precision), f3(r.IoU), f3(r.Omega), r.Units, r.Failures, r.Split)
		switch {
		case inContext && r.ContextTokens > 0:
			fmt.Fprintf(&b, " %s (%d) |", f3(r.InContext), r.ContextTokens)
		case inContext:
			b.WriteString(" — |")
		}
		b.WriteString("\n")
	}
	if len(failed) > 0 {
		b.WriteString("\n")
		for _, r := range failed {
			fmt.Fprintf(&b, "- %s / %s: %v\n", r.Corpus, r.Method, r.Err)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func f3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

// jsonResult is a Result with its error as text.
type jsonResult struct {
	Result
	Error string `json:"error,omitempty"`
}

// WriteJSON writes results as an indented JSON list, each failed pair with
// its error as "error"; the results of each question are included only
// with perQuestion.
func WriteJSON(w io.Writer, results []Result, perQuestion bool) error {
	out := make([]jsonResult, len(results))
	for i, r := range results {
		if !perQuestion {
			r.PerQuestion = nil
		}
		out[i] = jsonResult{Result: r}
		if r.Err != nil {
			out[i].Error = r.Err.Error()
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
