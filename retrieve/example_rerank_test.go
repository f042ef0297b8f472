package retrieve_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// storeOf returns a Memory holding each text as a one-unit document
// (IDs "a", "b", ...), embedded by the Lexical embedder.
func storeOf(texts ...string) (*memory.Store, *lexical.Embedder) {
	ctx := context.Background()
	emb := &lexical.Embedder{}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		panic(err)
	}
	store := &memory.Store{}
	for i, t := range texts {
		id := string(rune('a' + i))
		if err := store.Upsert(ctx, vectorstore.Record{ID: id, DocID: id, Text: t, Vector: vecs[i]}); err != nil {
			panic(err)
		}
	}
	return store, emb
}

// overlap is a stand-in for a cross-encoder, for the example: a text
// scores the share of the question's words it holds. A real one is
// openai.Reranker, from package llm/openai.
type overlap struct{}

func (overlap) Rerank(_ context.Context, query string, texts []string) ([]float64, error) {
	words := strings.Fields(strings.ToLower(strings.TrimRight(query, "?")))
	scores := make([]float64, len(texts))
	for i, t := range texts {
		for _, w := range words {
			if strings.Contains(strings.ToLower(t), w) {
				scores[i] += 1 / float64(len(words))
			}
		}
	}
	return scores, nil
}

// A Reranker rescores the passages after the search; the passages then
// carry its scores, and MinScore cuts at that scale.
func ExampleReranker() {
	store, emb := storeOf(
		"The hotel budget is 170 euros a night.",
		"Hotels near the office have a breakfast buffet.",
		"A hotel night abroad may cost up to 210 euros.",
	)
	r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Reranker: overlap{}, MinScore: 0.5})
	if err != nil {
		panic(err)
	}
	passages, err := r.Retrieve(context.Background(), "hotel night cost abroad?")
	if err != nil {
		panic(err)
	}
	for _, p := range passages {
		fmt.Printf("%.2f %s\n", p.Score, p.Text)
	}
	// Output:
	// 1.00 A hotel night abroad may cost up to 210 euros.
	// 0.50 The hotel budget is 170 euros a night.
}

// Near-copies of one text crowd out a second relevant one; maximal
// marginal relevance picks a passage unlike those picked before it.
func ExampleDiversity() {
	store, emb := storeOf(
		"Taxis on business travel are expensed up to 40 euros a ride.",
		"Taxis on business travel are expensed up to 45 euros a ride.",
		"Taxis on business travel are expensed up to 50 euros a ride.",
		"Uber rides are fine at economy class.",
		"The office opens at eight.",
		"Laptops are locked after five minutes.",
	)
	for _, d := range []retrieve.Diversity{{}, {Lambda: 0.5}} {
		r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Search: retrieve.Vector, Passages: 2, Diversity: d})
		if err != nil {
			panic(err)
		}
		passages, err := r.Retrieve(context.Background(), "Are taxis or Uber rides expensed on business travel?")
		if err != nil {
			panic(err)
		}
		fmt.Printf("Lambda %v:\n", d.Lambda)
		for _, p := range passages {
			fmt.Println(" ", p.Text)
		}
	}
	// Output:
	// Lambda 0:
	//   Taxis on business travel are expensed up to 40 euros a ride.
	//   Taxis on business travel are expensed up to 45 euros a ride.
	// Lambda 0.5:
	//   Taxis on business travel are expensed up to 40 euros a ride.
	//   Uber rides are fine at economy class.
}
