package budget_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

// The reference design: five sections with their own budgets, by falling
// priority, in an 8,000-token window with 1,000 tokens kept for the
// answer. Retrieval holds more than its 550 tokens, so its lowest-ranked
// chunks are dropped; everything else is preserved.
func Example() {
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		panic(err)
	}
	var chunks []budget.Item
	for i, place := range []string{"Florence", "Fiesole", "Santa Croce", "the Arno", "Windy Corner", "the Pension Bertolini"} {
		text := strings.Repeat(fmt.Sprintf("A passage of the novel that takes place near %s. ", place), 10)
		chunks = append(chunks, budget.Item{Text: text, ID: fmt.Sprint("chunk-", i+1), Rank: 1 - float64(i)/10})
	}
	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 8000, Reserve: 1000})
	if err != nil {
		panic(err)
	}
	res, err := a.Assemble(
		budget.Section{Name: "instructions", Priority: 5, MaxTokens: 255, Role: "system",
			Items: []budget.Item{{Text: "You are a careful assistant. Answer from the context. Say so when the context does not hold the answer."}}},
		budget.Section{Name: "goal", Priority: 4, MaxTokens: 1500, Required: true, Strategy: budget.KeepNewest,
			Items: []budget.Item{
				{Text: "Who is Lucy Honeychurch?", Role: "user"},
				{Text: "The heroine of A Room With A View.", Role: "assistant"},
				{Text: "Where does she stay in Florence?", Role: "user"},
			}},
		budget.Section{Name: "memory", Priority: 3, MaxTokens: 55, Strategy: budget.DropOldest, Role: "system",
			Items: []budget.Item{{Text: "The user is reading the novel for a book club."}, {Text: "The user prefers short answers."}}},
		budget.Section{Name: "retrieval", Priority: 2, MaxTokens: 550, Strategy: budget.DropLowestRank, Role: "system",
			Heading: "Context:", Items: chunks},
		budget.Section{Name: "tool outputs", Priority: 1, MaxTokens: 855, Strategy: budget.DropOldest, Cut: budget.CutEnd,
			Items: []budget.Item{
				{Text: `lookup("Pension Bertolini")`, Role: "assistant", Group: "call-1"},
				{Text: "A pension in Florence, run by a Cockney signora.", Role: "tool", Group: "call-1"},
			}},
	)
	if err != nil {
		panic(err)
	}
	fmt.Print(res)
	fmt.Println(res.Tokens == tok.Count(res.Text))
	// Output:
	// section      | tokens | budget | use | status
	// -------------+--------+--------+-----+---------------------------------
	// instructions |     22 |    255 |  9% | preserved
	// goal         |     22 |   1500 |  1% | preserved
	// memory       |     17 |     55 | 31% | preserved
	// retrieval    |    506 |    550 | 92% | truncated (2 of 6 items dropped)
	// tool outputs |     20 |    855 |  2% | preserved
	// -------------+--------+--------+-----+---------------------------------
	// total        |    587 |   7000 |  8% | limit 8000, reserve 1000
	// true
}

// When the whole does not fit, the lowest priority gives way first, as
// far as it may, before the next one gives up anything. Here the notes
// go first, then the oldest turn of the conversation; the question stays.
func ExampleAssembler_Assemble() {
	tok, _ := tokencount.Encoding("cl100k_base")
	a, _ := budget.New(budget.Config{Tokenizer: tok, Limit: 56, Reserve: 20})
	res, err := a.Assemble(
		budget.Section{Name: "instructions", Priority: 3,
			Items: []budget.Item{{Text: "Answer in one sentence. Cite the chapter."}}},
		budget.Section{Name: "conversation", Priority: 2, Required: true, Strategy: budget.KeepNewest,
			Items: []budget.Item{
				{Text: "Who is George Emerson?", ID: "q1"},
				{Text: "The son of Mr. Emerson, a young man of few words.", ID: "a1"},
				{Text: "Why does Lucy refuse him at first?", ID: "q2"},
			}},
		budget.Section{Name: "notes", Priority: 1, Items: []budget.Item{{Text: "The user has read Part One."}}},
	)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Text)
	fmt.Println("---")
	fmt.Println(res.Tokens, "tokens")
	for _, s := range res.Sections {
		fmt.Printf("%s: %v, limited %v\n", s.Name, s.Status, s.Limited)
	}
	// Output:
	// Answer in one sentence. Cite the chapter.
	//
	// The son of Mr. Emerson, a young man of few words.
	//
	// Why does Lucy refuse him at first?
	// ---
	// 32 tokens
	// instructions: Preserved, limited false
	// conversation: Truncated, limited true
	// notes: Dropped, limited true
}

// TruncateEnd, the zero Strategy, cuts a long text at its end, at a
// sentence boundary, and marks the cut; TruncateStart keeps the end.
func ExampleStrategy() {
	tok, _ := tokencount.Encoding("cl100k_base")
	a, _ := budget.New(budget.Config{Tokenizer: tok, Limit: 1000})
	log := "Build started. Compiling 12 packages. Running 340 tests. Two tests failed: TestParse and TestRender."
	for _, s := range []budget.Strategy{budget.TruncateEnd, budget.TruncateStart} {
		res, _ := a.Assemble(budget.Section{Name: "log", MaxTokens: 12, Strategy: s, Items: []budget.Item{{Text: log}}})
		fmt.Printf("%v: %s (%d tokens)\n", s, res.Text, res.Tokens)
	}
	// Output:
	// TruncateEnd: Build started. Compiling 12 packages. […] (10 tokens)
	// TruncateStart: […] Two tests failed: TestParse and TestRender. (11 tokens)
}

// For chat APIs, Messages carries the same content with roles: a section
// with a Role is one message, the items of a section without one are
// messages of their own.
func ExampleResult_Messages() {
	tok, _ := tokencount.Encoding("cl100k_base")
	a, _ := budget.New(budget.Config{Tokenizer: tok, Limit: 1000})
	res, _ := a.Assemble(
		budget.Section{Name: "instructions", Role: "system", Items: []budget.Item{{Text: "Be brief."}}},
		budget.Section{Name: "chat", Strategy: budget.KeepNewest, Items: []budget.Item{
			{Text: "Hello!", Role: "user"},
			{Text: "Hello. How can I help?", Role: "assistant"},
			{Text: "Summarise chapter one.", Role: "user"},
		}},
	)
	for _, m := range res.Messages {
		fmt.Printf("%s: %s\n", m.Role, m.Content)
	}
	// Output:
	// system: Be brief.
	// user: Hello!
	// assistant: Hello. How can I help?
	// user: Summarise chapter one.
}

// Required content that cannot fit is an error, returned with the report.
func ExampleAssembler_Assemble_required() {
	tok, _ := tokencount.Encoding("cl100k_base")
	a, _ := budget.New(budget.Config{Tokenizer: tok, Limit: 10})
	res, err := a.Assemble(budget.Section{Name: "question", Required: true,
		Items: []budget.Item{{Text: "Which chapters take place in Florence, and which in Surrey?"}}})
	fmt.Println(errors.Is(err, budget.ErrRequiredTooLarge))
	fmt.Println(err)
	fmt.Print(res)
	// Output:
	// true
	// budget: required content does not fit: 12 tokens with every section shed as far as allowed, 10 available (Limit 10 - Reserve 0)
	// section  | tokens | budget |  use | status
	// ---------+--------+--------+------+----------------------------------
	// question |     12 |      - |    - | preserved
	// ---------+--------+--------+------+----------------------------------
	// total    |     12 |     10 | 120% | limit 10, reserve 0: does not fit
}

// An item's protected spans survive its cut: the search hit in the middle
// of a passage is kept, with the sentences nearest to it, and markers
// show where text was left out.
func ExampleItem_keep() {
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		panic(err)
	}
	text := "# Quarterly report\n\nPrepared by the finance team. Revenue grew in every region. " +
		"Gross margin was 43.0 percent. Costs rose with the new office. Hiring slowed in June."
	hit := strings.Index(text, "Gross margin")
	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 4000})
	if err != nil {
		panic(err)
	}
	res, err := a.Assemble(budget.Section{Name: "retrieval", MaxTokens: 20, Items: []budget.Item{{
		Text: text,
		Keep: []segment.Span{{Start: hit, End: hit + len("Gross margin was 43.0 percent.")}},
	}}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Text)
	fmt.Println(res.Tokens, res.Tokens == tok.Count(res.Text))
	// Output:
	// […] Revenue grew in every region. Gross margin was 43.0 percent. […]
	// 17 true
}
