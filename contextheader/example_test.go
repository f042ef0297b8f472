package contextheader_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
)

// A Markdown policy whose paragraphs never name the policy: the default
// header, title and section path, says what each chunk belongs to.
func Example() {
	const text = `# Travel policy

Book all travel through the agency portal at least two weeks ahead. Trips
abroad need the written approval of a director before anything is booked.

## Ground transport

Use public transport where it runs, and claim the fare with a receipt.

### Ride-hailing

Allowed after 10 pm, when no train or bus runs, or when carrying heavy
equipment. Choose the standard tier; shared rides are fine. Keep the
receipt that the app sends, and add the reason for the ride to the claim.

### Rail

Standard class only, except on journeys over three hours, where first class
may be booked if it costs no more than twice the standard fare. Railcards
that the company pays for stay with the company when you leave.
`
	tok, _ := tokencount.Encoding("cl100k_base")
	doc := document.Document{ID: "travel", Title: "Acme Corp travel policy", Text: text, Format: document.Markdown}

	c, _ := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 64, Format: document.Markdown})
	chunks, _ := c.Split(doc.Text)

	d, _ := contextheader.New(contextheader.Config{Tokenizer: tok})
	decorated, err := d.Decorate(context.Background(), doc, chunks)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ch := range decorated {
		first, _, _ := strings.Cut(ch.Text, "\n")
		fmt.Printf("chunk %d, %d + %d tokens, starts %q\n%s\n\n", ch.Index, ch.HeaderTokens, ch.Tokens, first, ch.Header)
	}
	fmt.Printf("%q\n", decorated[1].EmbedText[:80])
	// Output:
	// chunk 0, 8 + 53 tokens, starts "# Travel policy"
	// Acme Corp travel policy
	// Travel policy
	//
	// chunk 1, 15 + 55 tokens, starts "### Ride-hailing"
	// Acme Corp travel policy
	// Travel policy > Ground transport > Ride-hailing
	//
	// chunk 2, 13 + 48 tokens, starts "### Rail"
	// Acme Corp travel policy
	// Travel policy > Ground transport > Rail
	//
	// "Acme Corp travel policy\nTravel policy > Ground transport > Ride-hailing\n\n### Rid"
}

// A plain-text report: numbered and capitalised lines are its headings,
// and the offline extractive summary adds the sentence that names the
// company and the period to every chunk.
func Example_plainReport() {
	const text = `Kestrel Software plc reports its results for the second quarter of 2024, the three months to 30 June.

1 REVENUE

Cloud platform     29.4
Licences            8.7
Services           10.5

2 OUTLOOK

Growth of 11 to 13 per cent is now expected for the year.
`
	tok, _ := tokencount.Encoding("cl100k_base")
	doc := document.Document{ID: "kestrel-2024q2", Title: "Trading update", Text: text}

	c, _ := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 30})
	chunks, _ := c.Split(doc.Text)

	d, _ := contextheader.New(contextheader.Config{
		Tokenizer: tok,
		Parts: []contextheader.Part{
			{Kind: contextheader.Title},
			{Kind: contextheader.Section, Label: "Section: "},
			{Kind: contextheader.Summary, Label: "About: "},
		},
		Summarizer: &contextheader.Extractive{},
	})
	decorated, err := d.Decorate(context.Background(), doc, chunks)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ch := range decorated[1:] {
		fmt.Printf("--- %q\n%s\n", ch.Text, ch.Header)
	}
	// Output:
	// --- "1 REVENUE\n\nCloud platform     29.4\nLicences            8.7\nServices           10.5"
	// Trading update
	// Section: 1 REVENUE
	// About: Kestrel Software plc reports its results for the second quarter of 2024, the three months to 30 June.
	// --- "2 OUTLOOK\n\nGrowth of 11 to 13 per cent is now expected for the year."
	// Trading update
	// Section: 2 OUTLOOK
	// About: Kestrel Software plc reports its results for the second quarter of 2024, the three months to 30 June.
}

// With the embedder's input limit set, ChunkMaxTokens says how large the
// chunks may be so that header and chunk together always fit.
func ExampleDecorator_ChunkMaxTokens() {
	tok, _ := tokencount.Encoding("cl100k_base")
	d, _ := contextheader.New(contextheader.Config{Tokenizer: tok, MaxEmbedTokens: 256})
	room, _ := d.ChunkMaxTokens()
	fmt.Println("header cap:", d.Config().MaxHeaderTokens)
	fmt.Println("chunk MaxTokens:", room)

	c, _ := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: room})
	_ = c // every chunk of c, with its header, counts at most 256 tokens
	// Output:
	// header cap: 64
	// chunk MaxTokens: 189
}

// model stands in for a language model behind a Summarizer: it answers
// every prompt with the same sentence and counts its calls.
type model struct{ calls atomic.Int64 }

func (m *model) Summarize(_ context.Context, prompt string) (string, error) {
	m.calls.Add(1)
	return "The Acme Corp policy on business travel, in force from 2024.", nil
}

// Summaries summarises a corpus concurrently before decorating it: one
// call per document, and none at all when the corpus is indexed again
// with the same cache. Back the Cache with a file or a database to keep
// the summaries between runs of a program.
func ExampleDecorator_Summaries() {
	tok, _ := tokencount.Encoding("cl100k_base")
	m := &model{}
	cache := new(contextheader.MemoryCache)
	cfg := contextheader.Config{
		Tokenizer:  tok,
		Parts:      []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Summary, Label: "About: "}},
		Summarizer: m,
		Cache:      cache,
	}
	var docs []document.Document
	for _, topic := range []string{"Rail", "Meals", "Hotels"} {
		docs = append(docs, document.Document{ID: topic, Title: topic, Text: topic + " are booked through the agency portal."})
	}
	ctx := context.Background()
	for run := 1; run <= 2; run++ {
		d, _ := contextheader.New(cfg)
		if _, err := d.Summaries(ctx, docs); err != nil {
			fmt.Println(err)
			return
		}
		doc := docs[0]
		chunks := []chunker.Chunk{{Start: 0, End: len(doc.Text), Text: doc.Text, Tokens: tok.Count(doc.Text)}}
		decorated, _ := d.Decorate(ctx, doc, chunks)
		fmt.Printf("run %d: %d calls in all, %d cached\n%s\n", run, m.calls.Load(), cache.Len(), decorated[0].Header)
	}
	// Output:
	// run 1: 3 calls in all, 3 cached
	// Rail
	// About: The Acme Corp policy on business travel, in force from 2024.
	// run 2: 3 calls in all, 3 cached
	// Rail
	// About: The Acme Corp policy on business travel, in force from 2024.
}
