package retrieve_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/ragkit/ragkit/retrieve"
)

// lastCity is a stand-in for a chat model, for the example: it condenses
// a follow-up "and in X?" with the question before it. A real one is
// openai.Condenser, from package llm/openai.
type lastCity struct{}

func (lastCity) Rewrite(_ context.Context, conv []retrieve.Turn, question string) ([]string, error) {
	city, ok := strings.CutPrefix(question, "and in ")
	if len(conv) == 0 || !ok {
		return []string{question}, nil
	}
	return []string{"When does the office in " + strings.TrimSuffix(city, "?") + " open?"}, nil
}

// A follow-up is condensed with the conversation before it, then searched;
// the Result says what was searched and where the time went.
func ExampleRetriever_RetrieveQuery() {
	store, emb := storeOf(
		"The office in Singapore opens at 9:00.",
		"The office in Toronto opens at 8:30.",
		"Toronto is the largest city in Canada.",
	)
	r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Passages: 1, Rewriter: lastCity{}})
	if err != nil {
		panic(err)
	}
	conv := []retrieve.Turn{{Question: "When does the office in Singapore open?", Answer: "At 9:00."}}
	res, err := r.RetrieveQuery(context.Background(), retrieve.Query{Question: "and in Toronto?", Conversation: conv})
	if err != nil {
		panic(err)
	}
	fmt.Println("searched:", res.Questions)
	fmt.Println("found:", res.Passages[0].Text)
	fmt.Println("timed:", res.Stats.Total >= res.Stats.Rewrite+res.Stats.Embed)
	// Output:
	// searched: [When does the office in Toronto open?]
	// found: The office in Toronto opens at 8:30.
	// timed: true
}
