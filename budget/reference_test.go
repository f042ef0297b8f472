package budget_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
)

// The reference design: five sections, by falling priority.
const (
	instructionsText = `You are a careful research assistant for readers of English novels. ` +
		`Answer the user's question from the context passages below and from the conversation so far. ` +
		`Quote the passage you rely on, in quotation marks, and name the chapter when the context gives it. ` +
		`If the passages do not hold the answer, say so plainly and suggest where in the novel the reader might look instead. ` +
		`Never invent quotations, characters or events. Keep answers short: three or four sentences are usually enough, ` +
		`unless the user asks for more detail. When the user asks about a character's motives, separate what the narrator ` +
		`states from what other characters say or suppose. Prefer plain words to critical jargon. If a question is ambiguous, ` +
		`answer the most likely reading and say which reading you chose. Write in British English, as the novels do.`
)

var (
	history = []string{
		"Who is Lucy Honeychurch?",
		"Lucy Honeychurch is the heroine of A Room With A View: a young Englishwoman who travels to Florence with her older cousin, Charlotte Bartlett.",
		"And who is travelling with her?",
		"Her cousin and chaperone, Charlotte Bartlett, who worries a great deal about what is proper.",
	}
	question = "Why are Lucy and Charlotte unhappy with their rooms at the Pension Bertolini?"
	facts    = []string{
		"The user is reading A Room With A View for a book club.",
		"The user prefers short answers.",
		"The user has finished Part One.",
		"The user dislikes spoilers for Part Two.",
	}
)

// referenceSections builds the reference design with the given retrieval
// candidates, best first, and two tool calls with their results.
func referenceSections(candidates []string) []budget.Section {
	goal := make([]budget.Item, 0, len(history)+1)
	for i, h := range history {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		goal = append(goal, budget.Item{Text: h, Role: role, ID: fmt.Sprint("turn-", i)})
	}
	goal = append(goal, budget.Item{Text: question, Role: "user", ID: "question"})
	memory := make([]budget.Item, len(facts))
	for i, f := range facts {
		memory[i] = budget.Item{Text: f, ID: fmt.Sprint("fact-", i)}
	}
	retrieval := make([]budget.Item, len(candidates))
	for i, c := range candidates {
		retrieval[i] = budget.Item{Text: c, ID: fmt.Sprint("chunk-", i), Rank: 1 - float64(i)/float64(len(candidates))}
	}
	tools := []budget.Item{
		{Text: `search_chapters("rooms with a view")`, Role: "assistant", Group: "call-1", ID: "call-1"},
		{Text: strings.Join(candidates[len(candidates)-2:], "\n"), Role: "tool", Group: "call-1", ID: "result-1"},
		{Text: `lookup_character("Mr. Emerson")`, Role: "assistant", Group: "call-2", ID: "call-2"},
		{Text: "Mr. Emerson: an elderly Englishman staying at the Pension Bertolini with his son George. He offers the ladies his rooms.", Role: "tool", Group: "call-2", ID: "result-2"},
	}
	return []budget.Section{
		{Name: "instructions", Priority: 5, MaxTokens: 255, Role: "system", Items: []budget.Item{{Text: instructionsText, ID: "instructions"}}},
		{Name: "goal", Priority: 4, MaxTokens: 1500, Required: true, Strategy: budget.KeepNewest, Items: goal},
		{Name: "memory", Priority: 3, MaxTokens: 55, Strategy: budget.DropOldest, Heading: "Known about the user:", Role: "system", Items: memory},
		{Name: "retrieval", Priority: 2, MaxTokens: 550, Strategy: budget.DropLowestRank, Cut: budget.CutEnd, Template: "<context>\n" + budget.Placeholder + "\n</context>", Role: "system", Items: retrieval},
		{Name: "tool outputs", Priority: 1, MaxTokens: 855, Strategy: budget.DropOldest, Cut: budget.CutEnd, Items: tools},
	}
}

// TestReferenceDesign reproduces the reference design's behaviour: under
// a roomy limit only retrieval, over its budget, is cut, and instructions,
// goal and memory are preserved; as the limit tightens, sections give up
// content from the lowest priority up, and the question survives.
func TestReferenceDesign(t *testing.T) {
	tok := cl100k(t)
	candidates := paragraphs(t, tok, 60, 250)[:200]
	type want map[string]budget.Status
	tests := []struct {
		name           string
		limit, reserve int
		status         want
		limited        []string
	}{{
		name: "8000-token window", limit: 8000, reserve: 1000,
		status: want{"instructions": budget.Preserved, "goal": budget.Preserved, "memory": budget.Preserved, "retrieval": budget.Truncated, "tool outputs": budget.Preserved},
	}, {
		name: "tool outputs shed first", limit: 1300, reserve: 300,
		status:  want{"instructions": budget.Preserved, "goal": budget.Preserved, "memory": budget.Preserved, "retrieval": budget.Truncated, "tool outputs": budget.Truncated},
		limited: []string{"tool outputs"},
	}, {
		name: "then retrieval", limit: 900, reserve: 300,
		status:  want{"instructions": budget.Preserved, "goal": budget.Preserved, "memory": budget.Preserved, "retrieval": budget.Truncated, "tool outputs": budget.Dropped},
		limited: []string{"retrieval", "tool outputs"},
	}, {
		name: "then memory, then history", limit: 400, reserve: 180,
		status:  want{"instructions": budget.Preserved, "goal": budget.Truncated, "memory": budget.Dropped, "retrieval": budget.Dropped, "tool outputs": budget.Dropped},
		limited: []string{"goal", "memory", "retrieval", "tool outputs"},
	}, {
		name: "instructions cut as a last resort", limit: 250, reserve: 100,
		status:  want{"instructions": budget.Truncated, "goal": budget.Truncated, "memory": budget.Dropped, "retrieval": budget.Dropped, "tool outputs": budget.Dropped},
		limited: []string{"instructions", "goal", "memory", "retrieval", "tool outputs"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAssembler(t, budget.Config{Tokenizer: tok, Limit: tt.limit, Reserve: tt.reserve})
			secs := referenceSections(candidates)
			res, err := a.Assemble(secs...)
			require.NoError(t, err)
			require.Equal(t, tok.Count(res.Text), res.Tokens)
			require.LessOrEqual(t, res.Tokens, tt.limit-tt.reserve)
			var limited []string
			for _, r := range res.Sections {
				assert.Equal(t, tt.status[r.Name], r.Status, "%s\n%s", r.Name, res)
				assert.LessOrEqual(t, r.Tokens, r.Budget, r.Name)
				if r.Limited {
					limited = append(limited, r.Name)
				}
			}
			assert.Equal(t, tt.limited, limited)
			goal, _ := res.Section("goal")
			assert.Equal(t, budget.Preserved, goal.Items[len(goal.Items)-1].Status, "the question survives")
			assert.Contains(t, res.Text, question)
			retrieval, _ := res.Section("retrieval")
			if retrieval.Status == budget.Truncated {
				assert.Greater(t, retrieval.Tokens, 0)
				// Lowest ranks went first: the kept chunks are the best ones.
				keptN := len(kept(retrieval))
				for i, it := range retrieval.Items {
					assert.Equal(t, i < keptN, it.Status != budget.Dropped, "chunk %d", i)
				}
			}
		})
	}
}

// TestReferenceTable pins the rendered report of the reference design.
func TestReferenceTable(t *testing.T) {
	tok := cl100k(t)
	candidates := paragraphs(t, tok, 60, 250)[:200]
	a := newAssembler(t, budget.Config{Tokenizer: tok, Limit: 8000, Reserve: 1000})
	res, err := a.Assemble(referenceSections(candidates)...)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(res.String(), "\n"), "\n")
	require.Len(t, lines, 9)
	assert.Regexp(t, `^section +\| tokens \| budget \|  use \| status$`, lines[0])
	assert.Regexp(t, `^-+\+-+\+-+\+-+\+-+$`, lines[1])
	r, _ := res.Section("retrieval")
	assert.Regexp(t, fmt.Sprintf(`^retrieval +\| +%d \| +550 \| +%d%% \| truncated \(%d of 200 items dropped, 1 cut\)$`,
		r.Tokens, (200*r.Tokens+550)/1100, r.Count(budget.Dropped)), lines[5])
	assert.Regexp(t, fmt.Sprintf(`^total +\| +%d \| +7000 \| +%d%% \| limit 8000, reserve 1000$`, res.Tokens, (200*res.Tokens+7000)/14000), lines[8])
}
