package benchmarks

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ragkit/ragkit/benchmarks/internal/corpus"
	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

func budgetTokenizer(b *testing.B) *tokencount.BPE {
	t, err := tokencount.Encoding(tokencount.Cl100kBase)
	if err != nil {
		b.Fatal(err)
	}
	return t.(*tokencount.BPE)
}

// budgetCandidates returns n retrieval candidates: the corpus's paragraphs
// of 60 to 300 tokens, repeated if the corpus has fewer.
func budgetCandidates(b *testing.B, tok tokencount.Tokenizer, name string, n int) []string {
	text := corpus.MustLoad(name)
	var paras []string
	for _, p := range segment.Paragraphs(text) {
		if c := tok.Count(text[p.Start:p.End]); c >= 60 && c <= 300 {
			paras = append(paras, text[p.Start:p.End])
		}
	}
	if len(paras) == 0 {
		b.Fatalf("%s: no paragraphs of 60 to 300 tokens", name)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = paras[i%len(paras)]
	}
	return out
}

// budgetReference builds the reference design: instructions 255, goal
// 1,500, memory 55, retrieval 550 and tool outputs 855 tokens, by falling
// priority, with the given retrieval candidates, best first.
func budgetReference(candidates []string) []budget.Section {
	instructions := strings.Repeat("Answer from the context and quote the passage you rely on. ", 14)
	goal := []budget.Item{
		{Text: "Who is Lucy Honeychurch?", Role: "user"},
		{Text: "The heroine of A Room With A View, a young Englishwoman travelling in Italy with her cousin.", Role: "assistant"},
		{Text: "Why are they unhappy with their rooms at the Pension Bertolini?", Role: "user"},
	}
	memory := []budget.Item{
		{Text: "The user is reading the novel for a book club."},
		{Text: "The user prefers short answers."},
		{Text: "The user has finished Part One."},
	}
	retrieval := make([]budget.Item, len(candidates))
	for i, c := range candidates {
		retrieval[i] = budget.Item{Text: c, ID: fmt.Sprint("chunk-", i), Rank: 1 - float64(i)/float64(len(candidates))}
	}
	tools := []budget.Item{
		{Text: `search_chapters("rooms with a view")`, Role: "assistant", Group: "call-1"},
		{Text: strings.Join(candidates[:3], "\n"), Role: "tool", Group: "call-1"},
		{Text: `lookup_character("Mr. Emerson")`, Role: "assistant", Group: "call-2"},
		{Text: strings.Join(candidates[3:6], "\n"), Role: "tool", Group: "call-2"},
	}
	return []budget.Section{
		{Name: "instructions", Priority: 5, MaxTokens: 255, Role: "system", Items: []budget.Item{{Text: instructions}}},
		{Name: "goal", Priority: 4, MaxTokens: 1500, Required: true, Strategy: budget.KeepNewest, Items: goal},
		{Name: "memory", Priority: 3, MaxTokens: 55, Strategy: budget.DropOldest, Items: memory},
		{Name: "retrieval", Priority: 2, MaxTokens: 550, Strategy: budget.DropLowestRank, Cut: budget.CutEnd, Items: retrieval},
		{Name: "tool outputs", Priority: 1, MaxTokens: 855, Strategy: budget.DropOldest, Cut: budget.CutEnd, Items: tools},
	}
}

func budgetInputBytes(sections []budget.Section) int {
	n := 0
	for _, s := range sections {
		for _, it := range s.Items {
			n += len(it.Text)
		}
	}
	return n
}

// BenchmarkBudgetAssemble assembles the reference five sections. Besides
// time it reports the tokenizer work per assembly: Count calls,
// AppendTokenEnds calls, the bytes they read, and those bytes as a share
// of the input ("passes": 1 would be one full pass over every candidate).
// limit=8000 is the reference (retrieval cut to its budget, nothing cut
// by the limit); limit=1500 also sheds sections to fit the limit.
func BenchmarkBudgetAssemble(b *testing.B) {
	bpe := budgetTokenizer(b)
	for _, name := range []string{"room_with_a_view.txt", "sherlock_1661.txt"} {
		for _, n := range []int{200, 2000} {
			candidates := budgetCandidates(b, bpe, name, n)
			sections := budgetReference(candidates)
			for _, limit := range []int{8000, 1500} {
				b.Run(fmt.Sprintf("corpus=%s/candidates=%d/limit=%d", name, n, limit), func(b *testing.B) {
					c, runs := benchAssemble(b, bpe, budget.Config{Limit: limit, Reserve: limit / 8}, sections)
					b.ReportMetric(float64(c.Ends())/float64(runs), "ends/op")
					b.ReportMetric(float64(c.Bytes())/float64(runs)/float64(budgetInputBytes(sections)), "passes")
				})
			}
		}
	}
}

// benchAssemble runs cfg's Assemble of sections, with cfg.Tokenizer a
// counting wrapper of tok, once to warm the encoding's cache and then in
// the benchmark's loop, and reports time, allocations, the Count calls
// and the bytes tokenized per assembly. It returns the counter and the
// number of assemblies it counted, for the caller's own metrics.
func benchAssemble(b *testing.B, tok tokencount.Tokenizer, cfg budget.Config, sections []budget.Section) (*tokentest.Counting, int) {
	c := tokentest.NewCounting(tok)
	cfg.Tokenizer = c
	a, err := budget.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := a.Assemble(sections...); err != nil {
		b.Fatal(err)
	}
	c.Reset()
	b.SetBytes(int64(budgetInputBytes(sections)))
	b.ReportAllocs()
	runs := 0
	for b.Loop() {
		if _, err := a.Assemble(sections...); err != nil {
			b.Fatal(err)
		}
		runs++
	}
	b.ReportMetric(float64(c.Counts())/float64(runs), "counts/op")
	b.ReportMetric(float64(c.Bytes())/float64(runs), "tokenized-B/op")
	return c, runs
}

// BenchmarkBudgetRetrieval compares ways of filling one 550-token
// retrieval section from ranked candidates, whole candidates only:
//
//   - budget: this package (exact: the block's count is verified);
//   - sum-of-parts: count every candidate and add them while the sum of
//     counts fits, as most RAG code does (one pass, but the count of the
//     joined text is not checked, and it is not additive);
//   - recount: add candidates one by one, counting the joined text after
//     each addition (exact, but quadratic in the candidates kept).
func BenchmarkBudgetRetrieval(b *testing.B) {
	bpe := budgetTokenizer(b)
	const maxTokens, sep = 550, "\n\n"
	for _, n := range []int{200, 2000} {
		candidates := budgetCandidates(b, bpe, "room_with_a_view.txt", n)
		in := 0
		for _, c := range candidates {
			in += len(c)
		}
		items := make([]budget.Item, len(candidates))
		for i, c := range candidates {
			items[i] = budget.Item{Text: c, Rank: -float64(i)}
		}
		run := func(name string, fill func(c *tokentest.Counting) string) {
			b.Run(fmt.Sprintf("candidates=%d/%s", n, name), func(b *testing.B) {
				c := tokentest.NewCounting(bpe)
				fill(c)
				c.Reset()
				b.SetBytes(int64(in))
				b.ReportAllocs()
				runs := 0
				var text string
				for b.Loop() {
					text = fill(c)
					runs++
				}
				b.ReportMetric(float64(c.Counts())/float64(runs), "counts/op")
				b.ReportMetric(float64(c.Bytes())/float64(runs)/float64(in), "passes")
				b.ReportMetric(float64(bpe.Count(text)), "tokens")
			})
		}
		run("budget", func(c *tokentest.Counting) string {
			a, err := budget.New(budget.Config{Tokenizer: c, Limit: 8000})
			if err != nil {
				b.Fatal(err)
			}
			res, err := a.Assemble(
				budget.Section{Name: "retrieval", MaxTokens: maxTokens, Strategy: budget.DropLowestRank, Items: items})
			if err != nil {
				b.Fatal(err)
			}
			return res.Text
		})
		run("sum-of-parts", func(c *tokentest.Counting) string {
			var kept []string
			sum := 0
			for _, s := range candidates {
				if k := c.Count(s); sum+k+len(kept) <= maxTokens { // one token per separator
					kept = append(kept, s)
					sum += k
				} else {
					break
				}
			}
			return strings.Join(kept, sep)
		})
		run("recount", func(c *tokentest.Counting) string {
			text := ""
			for _, s := range candidates {
				next := s
				if text != "" {
					next = text + sep + s
				}
				if c.Count(next) > maxTokens {
					break
				}
				text = next
			}
			return text
		})
	}
}

// budgetPlain is the plain layout of a RAG prompt: instructions, the
// retrieved candidates best first with no budget of their own, and the
// question, in an 8,192-token window: the candidates fill what the other
// two leave.
func budgetPlain(candidates []string) []budget.Section {
	items := make([]budget.Item, len(candidates))
	for i, c := range candidates {
		items[i] = budget.Item{Text: c, ID: fmt.Sprint("chunk-", i), Rank: -float64(i)}
	}
	return []budget.Section{
		{Name: "instructions", Priority: 3, Required: true, Items: []budget.Item{{Text: "Answer from the context only. Cite the passages you use."}}},
		{Name: "context", Priority: 1, Strategy: budget.DropLowestRank, Heading: "Context:", Items: items},
		{Name: "question", Priority: 2, Required: true, Items: []budget.Item{{Text: "Question: Why are they unhappy with their rooms at the Pension Bertolini?"}}},
	}
}

// BenchmarkBudgetPlain fills an 8,192-token prompt from 200 candidates
// (budgetPlain). Besides time it reports the tokenizer's work: Count
// calls, the bytes they read, the prompt's bytes, and the bytes read as
// a multiple of the prompt ("x-prompt": 1 would be a single count of the
// result); and "x-count", the time of Assemble as a multiple of the time
// of one Count of the prompt it returns, both timed in every iteration,
// one after the other, so that the ratio holds on a busy machine.
func BenchmarkBudgetPlain(b *testing.B) {
	bpe := budgetTokenizer(b)
	sections := budgetPlain(budgetCandidates(b, bpe, "room_with_a_view.txt", 200))
	c := tokentest.NewCounting(bpe)
	a, err := budget.New(budget.Config{Tokenizer: c, Limit: 8192})
	if err != nil {
		b.Fatal(err)
	}
	res, err := a.Assemble(sections...) // warm the encoding's cache
	if err != nil {
		b.Fatal(err)
	}
	c.Reset()
	b.SetBytes(int64(budgetInputBytes(sections)))
	b.ReportAllocs()
	runs := 0
	var assemble, count time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := a.Assemble(sections...); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		bpe.Count(res.Text)
		assemble, count = assemble+t1.Sub(t0), count+time.Since(t1)
		runs++
	}
	b.ReportMetric(float64(c.Counts())/float64(runs), "counts/op")
	b.ReportMetric(float64(c.Bytes())/float64(runs), "tokenized-B/op")
	b.ReportMetric(float64(len(res.Text)), "prompt-B")
	b.ReportMetric(float64(c.Bytes())/float64(runs)/float64(len(res.Text)), "x-prompt")
	b.ReportMetric(float64(assemble)/float64(count), "x-count")
}

// BenchmarkBudgetKeep assembles the reference five sections with 200
// candidates, their retrieval items without protected spans and with one
// (the middle sentence of each candidate, as a passage's best hit), so
// that the cost of cuts that keep the hits shows against plain ones.
func BenchmarkBudgetKeep(b *testing.B) {
	bpe := budgetTokenizer(b)
	candidates := budgetCandidates(b, bpe, "room_with_a_view.txt", 200)
	for _, keep := range []bool{false, true} {
		sections := budgetReference(candidates)
		if keep {
			items := sections[3].Items
			for i := range items {
				sents := segment.Sentences(items[i].Text)
				items[i].Keep = []segment.Span{sents[len(sents)/2]}
			}
		}
		b.Run(fmt.Sprintf("keep=%v", keep), func(b *testing.B) {
			benchAssemble(b, bpe, budget.Config{Limit: 8000, Reserve: 1000}, sections)
		})
	}
}
