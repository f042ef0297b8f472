package evaluate_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/evaluate"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// Index two documents, read a question set and score a Retriever on it.
func Example() {
	ctx := context.Background()
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	if err != nil {
		panic(err)
	}
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 20})
	if err != nil {
		panic(err)
	}
	store := &memory.Store{}
	emb := &lexical.Embedder{}
	ix, err := ingest.New(ingest.Config{Chunker: c, Embedder: emb, EmbedderName: "lexical", Store: store})
	if err != nil {
		panic(err)
	}
	_, err = ix.Index(ctx,
		document.Document{ID: "travel.md", Text: "Trains are second class. First class needs approval by a director.\n\n" +
			"Hotels may cost 170 euros a night. Breakfast is included."},
		document.Document{ID: "office.md", Text: "The office opens at eight. Visitors sign in at the desk.\n\n" +
			"Parking is free for staff with a permit."},
	)
	if err != nil {
		panic(err)
	}
	r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Passages: 2})
	if err != nil {
		panic(err)
	}

	qs, err := evaluate.ReadQuestions(strings.NewReader(`
{"id": "hotel", "question": "How much may a hotel cost a night?", "docs": ["travel.md"], "answer": "170 euros"}
{"id": "visitors", "question": "Where do visitors sign in?", "answer": "at the desk"}
{"id": "canteen", "question": "When does the canteen open?"}
`))
	if err != nil {
		panic(err)
	}
	results, err := evaluate.Evaluate(ctx, evaluate.Config{Tokenizer: tok, K: 2}, r, qs)
	if err != nil {
		panic(err)
	}
	for _, res := range results {
		fmt.Printf("%s: rank %d, nDCG %.2f, answer in passages %t, %d tokens\n",
			res.ID, res.Rank, res.NDCG, res.AnswerInPassages, res.PassageTokens)
	}
	s, err := evaluate.Summarize(results, evaluate.SummaryConfig{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d questions, %d answerable, MRR %.2f\n", s.Questions, s.Answerable, s.MRR.Mean)
	// Output:
	// hotel: rank 1, nDCG 1.00, answer in passages true, 27 tokens
	// visitors: rank 1, nDCG 1.00, answer in passages true, 22 tokens
	// canteen: rank 0, nDCG 0.00, answer in passages false, 22 tokens
	// 3 questions, 2 answerable, MRR 1.00
}

// Two configurations compared on one question set, as a table.
func ExampleCompare() {
	qs := []evaluate.Question{
		{ID: "1", Question: "hotel", Docs: []string{"travel.md"}},
		{ID: "2", Question: "parking", Docs: []string{"office.md"}},
	}
	// Two stand-ins for retrievers: one returns the right document
	// first, the other second.
	first := byQuestion{
		"hotel":   {{DocID: "travel.md", Text: "Hotels may cost 170 euros."}, {DocID: "office.md", Text: "Parking is free."}},
		"parking": {{DocID: "office.md", Text: "Parking is free."}, {DocID: "travel.md", Text: "Hotels may cost 170 euros."}},
	}
	second := byQuestion{"hotel": first["parking"], "parking": first["hotel"]}
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	if err != nil {
		panic(err)
	}
	runs, err := evaluate.Compare(context.Background(), evaluate.Config{Tokenizer: tok, K: 2}, evaluate.SummaryConfig{},
		[]evaluate.Configuration{{Name: "first", Retriever: first}, {Name: "second", Retriever: second}}, qs)
	if err != nil {
		panic(err)
	}
	for _, run := range runs {
		fmt.Printf("%s: hit@1 %.1f, MRR %.2f, nDCG@2 %.2f\n", run.Name, run.Summary.HitAt1.Mean, run.Summary.MRR.Mean, run.Summary.NDCG.Mean)
	}
	if err := evaluate.WriteTable(os.Stdout, runs[:1]); err != nil {
		panic(err)
	}
	// Output:
	// first: hit@1 1.0, MRR 1.00, nDCG@2 1.00
	// second: hit@1 0.0, MRR 0.50, nDCG@2 0.63
	// | configuration | questions | hit@1 | hit@k | MRR | nDCG@k | context precision | span recall | answer in passages | answer in prompt | passage tokens | prompt tokens |
	// |---|---:|---|---|---|---|---|---|---|---|---|---|
	// | first | 2 | 1.000 [1.000, 1.000] | 1.000 [1.000, 1.000] | 1.000 [1.000, 1.000] | 1.000 [1.000, 1.000] | 0.500 [0.333, 0.667] | - | - | - | 12 [12, 12] | - |
}

// Faithfulness judged by a chat model; here a stand-in that replies as a
// model would, in place of llm/openai (see ChatFunc).
func ExampleJudge_Faithfulness() {
	ctx := context.Background()
	model := evaluate.ChatFunc(func(_ context.Context, prompt string) (string, error) {
		if strings.Contains(prompt, "Break the answer") {
			return `{"statements": ["Hotels may cost 170 euros a night.", "Breakfast costs extra."]}`, nil
		}
		return `{"verdicts": [{"statement": 1, "reason": "said", "verdict": 1}, {"statement": 2, "reason": "breakfast is included", "verdict": 0}]}`, nil
	})
	j, err := evaluate.NewJudge(evaluate.JudgeConfig{Chat: model})
	if err != nil {
		panic(err)
	}
	retrieved := "Hotels may cost 170 euros a night. Breakfast is included."
	for range 2 { // the second time is cached
		f, err := j.Faithfulness(ctx, "How much may a hotel cost?", "Up to 170 euros a night; breakfast costs extra.", retrieved)
		if err != nil {
			panic(err)
		}
		fmt.Printf("faithfulness %.2f, model calls %d\n", f.Score, j.Calls())
		for _, c := range f.Claims {
			fmt.Printf("  %t: %s\n", c.Supported, c.Statement)
		}
	}
	// Output:
	// faithfulness 0.50, model calls 2
	//   true: Hotels may cost 170 euros a night.
	//   false: Breakfast costs extra.
	// faithfulness 0.50, model calls 2
	//   true: Hotels may cost 170 euros a night.
	//   false: Breakfast costs extra.
}
