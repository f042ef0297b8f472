package eval_test

import (
	"context"
	"fmt"
	"log"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/segment"
)

// A configuration is a Method: here each paragraph is a unit, searched
// with the default embedder. Contextual headers, windows or hybrid search
// replace Units, Retrieve or Search.
func ExampleEvaluator_Evaluate() {
	corpus, err := eval.NewCorpus("manuals", []eval.Document{
		eval.NewDocument("pump", "# Pump manual\n\nThe pump runs at forty litres a minute.\n\nReplace the seals every spring.", document.Markdown),
		eval.NewDocument("valve", "# Valve manual\n\nThe valve opens at three bar.\n\nGrease the spindle every autumn.", document.Markdown),
	}, []eval.Question{
		{ID: "q1", DocID: "pump", Text: "How often are the seals replaced?", Answer: "Replace the seals every spring."},
		{ID: "q2", DocID: "valve", Text: "When is the spindle greased?", Answer: "Grease the spindle every autumn."},
	})
	if err != nil {
		log.Fatal(err)
	}
	paragraphs := eval.Chunks("paragraphs", func(doc eval.Document) ([]segment.Span, error) {
		return segment.Paragraphs(doc.Text), nil
	})
	var ev eval.Evaluator // the zero Evaluator: Lexical embedder, cl100k_base, k = 5
	r, err := ev.Evaluate(context.Background(), corpus, paragraphs)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s on %s: %d units, hit@1 %.2f, failures %d, Ω %.2f\n", r.Method, r.Corpus, r.Units, r.HitAt1, r.Failures, r.Omega)
	for _, q := range r.PerQuestion {
		fmt.Printf("%s: rank %d, precision %.2f\n", q.ID, q.Rank, q.Precision)
	}
	// Output:
	// paragraphs on manuals: 6 units, hit@1 1.00, failures 0, Ω 1.00
	// q1: rank 1, precision 0.21
	// q2: rank 1, precision 0.25
}
