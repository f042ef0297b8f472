package contextheader_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
)

var summaryParts = []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Summary}}

func corpusOf(n int) []document.Document {
	docs := make([]document.Document, n)
	for i := range docs {
		docs[i] = document.Document{
			ID:    fmt.Sprintf("doc-%d", i),
			Title: fmt.Sprintf("Document %d", i),
			Text:  fmt.Sprintf("This is document number %d. ", i) + paragraphs(12),
		}
	}
	return docs
}

// echo answers with the first sentence of the document in the prompt, so
// that each document gets a summary of its own.
func echo(_ context.Context, prompt string) (string, error) {
	_, doc, _ := strings.Cut(prompt, "<document>\n")
	first, _, _ := strings.Cut(doc, ".")
	return "Summary: " + first + ".", nil
}

func TestOneCallPerDocument(t *testing.T) {
	tok := cl100k(t)
	ctx := context.Background()
	s := &fakeSummarizer{answer: echo}
	d := newDecorator(t, contextheader.Config{Tokenizer: tok, Parts: summaryParts, Summarizer: s})
	docs := corpusOf(10)

	chunks := split(t, tok, 20, docs[0])
	require.Greater(t, len(chunks), 10)
	got, err := d.Decorate(ctx, docs[0], chunks)
	require.NoError(t, err)
	require.Equal(t, 1, s.Calls(), "one call for the document, not one per chunk")
	for _, c := range got {
		require.Equal(t, "Document 0\nSummary: This is document number 0.", c.Header)
	}

	sums, err := d.Summaries(ctx, docs)
	require.NoError(t, err)
	require.Equal(t, 10, s.Calls(), "document 0 was cached; nine more calls")
	for i, sum := range sums {
		require.Equal(t, fmt.Sprintf("Summary: This is document number %d.", i), sum)
	}
	for _, doc := range docs {
		_, err := d.Decorate(ctx, doc, split(t, tok, 20, doc))
		require.NoError(t, err)
	}
	require.Equal(t, 10, s.Calls(), "Decorate after Summaries calls nothing")

	// Document.Summary set: no call at all.
	doc := docs[0]
	doc.ID, doc.Text, doc.Summary = "given", "Another text entirely.", "Given  summary."
	got, err = d.Decorate(ctx, doc, split(t, tok, 20, doc))
	require.NoError(t, err)
	require.Equal(t, "Document 0\nGiven summary.", got[0].Header)
	sums, err = d.Summaries(ctx, []document.Document{doc})
	require.NoError(t, err)
	require.Equal(t, []string{"Given summary."}, sums)
	require.Equal(t, 10, s.Calls())
}

func TestCacheAcrossRuns(t *testing.T) {
	ctx := context.Background()
	docs := corpusOf(6)
	cache := new(contextheader.MemoryCache) // stands for a file or a database kept between runs
	run := func(cfg contextheader.Config, docs []document.Document) (int, []string) {
		s := &fakeSummarizer{answer: echo}
		cfg.Tokenizer, cfg.Summarizer, cfg.Cache = cl100k(t), s, cache
		sums, err := newDecorator(t, cfg).Summaries(ctx, docs)
		require.NoError(t, err)
		return s.Calls(), sums
	}
	calls, first := run(contextheader.Config{}, docs)
	require.Equal(t, 6, calls)
	require.Equal(t, 6, cache.Len())

	calls, again := run(contextheader.Config{}, docs)
	require.Zero(t, calls, "re-indexing unchanged documents makes no call")
	require.Equal(t, first, again)

	edited := append([]document.Document(nil), docs...)
	edited[2].Text = strings.Replace(edited[2].Text, "second sentence", "2nd sentence", 1)
	calls, _ = run(contextheader.Config{}, edited)
	require.Equal(t, 1, calls, "only the edited document is summarised again")

	calls, _ = run(contextheader.Config{SummarizerModel: "llama3.2"}, docs)
	require.Equal(t, 6, calls, "another model does not share the first model's summaries")
	calls, _ = run(contextheader.Config{SummarizerModel: "llama3.2"}, docs)
	require.Zero(t, calls)

	calls, _ = run(contextheader.Config{SummaryPrompt: "Summarise in one sentence:\n\n{document}"}, docs)
	require.Equal(t, 6, calls, "another prompt is another key")

	calls, _ = run(contextheader.Config{SummaryChars: 40}, docs)
	require.Equal(t, 6, calls, "another excerpt is another key")
}

// gate makes the first n calls wait until n calls have started, so that
// n calls are in flight at once if the bound allows it.
func gate(n int64, answer func(context.Context, string) (string, error)) func(context.Context, string) (string, error) {
	var entered atomic.Int64
	ready := make(chan struct{})
	return func(ctx context.Context, prompt string) (string, error) {
		if entered.Add(1) == n {
			close(ready)
		}
		select {
		case <-ready:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		return answer(ctx, prompt)
	}
}

func TestConcurrencyBound(t *testing.T) {
	for _, bound := range []int{1, 3} {
		t.Run(fmt.Sprint(bound), func(t *testing.T) {
			s := &fakeSummarizer{}
			s.answer = gate(int64(bound), echo)
			d := newDecorator(t, contextheader.Config{Tokenizer: cl100k(t), Summarizer: s, Concurrency: bound})
			_, err := d.Summaries(context.Background(), corpusOf(20))
			require.NoError(t, err)
			require.Equal(t, 20, s.Calls())
			require.Equal(t, int64(bound), s.maxIn.Load(), "the bound is reached and never passed")
		})
	}
	t.Run("across calls", func(t *testing.T) {
		s := &fakeSummarizer{}
		s.answer = gate(2, echo)
		d := newDecorator(t, contextheader.Config{Tokenizer: cl100k(t), Summarizer: s, Concurrency: 2})
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				docs := corpusOf(5 * (g + 1))[5*g:]
				_, err := d.Summaries(context.Background(), docs)
				assert.NoError(t, err)
			}()
		}
		wg.Wait()
		require.Equal(t, 20, s.Calls())
		require.Equal(t, int64(2), s.maxIn.Load(), "one bound for all of a Decorator's calls")
	})
}

func TestSummariesCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The calls are numbered under a lock, so that exactly the fifth
	// cancels, however the two workers interleave.
	var (
		mu      sync.Mutex
		started int
	)
	s := &fakeSummarizer{}
	s.answer = func(ctx context.Context, prompt string) (string, error) {
		mu.Lock()
		if started++; started == 5 {
			cancel()
		}
		mu.Unlock()
		return echo(ctx, prompt)
	}
	var progress []int
	d := newDecorator(t, contextheader.Config{
		Tokenizer: cl100k(t), Summarizer: s, Concurrency: 2,
		Progress: func(s contextheader.Stats) { progress = append(progress, s.Done) },
	})
	docs := corpusOf(50)
	sums, err := d.Summaries(ctx, docs)
	require.ErrorIs(t, err, context.Canceled)
	require.LessOrEqual(t, s.Calls(), 5+1, "no call starts after the cancellation but the one in flight")

	var be *contextheader.BatchError
	require.ErrorAs(t, err, &be)
	done := 0
	for _, sum := range sums {
		if sum != "" {
			done++
		}
	}
	require.GreaterOrEqual(t, done, 4)
	require.Len(t, be.Failed, 50-done, "every document without a summary is reported")
	for _, f := range be.Failed {
		require.Empty(t, sums[f.Index])
		require.Equal(t, docs[f.Index].ID, f.ID)
		require.ErrorIs(t, f, context.Canceled)
	}
	require.Len(t, progress, 50, "progress counts every document, done or failed")
	require.Equal(t, 50, progress[49])
}

func TestErrorIsolation(t *testing.T) {
	boom := errors.New("model overloaded")
	s := &fakeSummarizer{answer: func(ctx context.Context, prompt string) (string, error) {
		if strings.Contains(prompt, "number 7.") {
			return "", boom
		}
		return echo(ctx, prompt)
	}}
	d := newDecorator(t, contextheader.Config{Tokenizer: cl100k(t), Parts: summaryParts, Summarizer: s})
	docs := corpusOf(10)
	sums, err := d.Summaries(context.Background(), docs)
	require.Error(t, err)
	require.ErrorIs(t, err, contextheader.ErrSummarizer)
	require.ErrorIs(t, err, boom)

	var be *contextheader.BatchError
	require.ErrorAs(t, err, &be)
	require.Len(t, be.Failed, 1)
	require.Equal(t, 7, be.Failed[0].Index)
	require.Equal(t, "doc-7", be.Failed[0].ID)
	require.Contains(t, err.Error(), `"doc-7"`)
	require.Contains(t, err.Error(), "model overloaded")
	for i, sum := range sums {
		if i == 7 {
			require.Empty(t, sum)
			continue
		}
		require.Equal(t, fmt.Sprintf("Summary: This is document number %d.", i), sum)
	}

	// Decorate reports the same failure as a DocumentError.
	tok := cl100k(t)
	_, err = d.Decorate(context.Background(), docs[7], split(t, tok, 50, docs[7]))
	var de *contextheader.DocumentError
	require.ErrorAs(t, err, &de)
	require.Equal(t, "doc-7", de.ID)
	require.ErrorIs(t, err, boom)
	require.Equal(t, 11, s.Calls(), "a failure is not cached: it is tried again")
}

// blocked answers once release is closed, and says on entered that a
// call has started.
func blocked(entered chan<- struct{}, release <-chan struct{}) func(context.Context, string) (string, error) {
	return func(ctx context.Context, prompt string) (string, error) {
		entered <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		return echo(ctx, prompt)
	}
}

func TestConcurrentRequestsShareOneCall(t *testing.T) {
	entered, release := make(chan struct{}, 16), make(chan struct{})
	s := &fakeSummarizer{answer: blocked(entered, release)}
	tok := cl100k(t)
	d := newDecorator(t, contextheader.Config{Tokenizer: tok, Parts: summaryParts, Summarizer: s, Concurrency: 8})
	doc := corpusOf(1)[0]
	chunks := split(t, tok, 40, doc)
	ctx := context.Background()

	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the first request, which makes the call
		defer wg.Done()
		_, err := d.Decorate(ctx, doc, chunks)
		assert.NoError(t, err)
	}()
	<-entered

	// While the call is under way: the same document twice more in one
	// Summaries, and in another Decorate.
	var sums []string
	wg.Add(2)
	go func() {
		defer wg.Done()
		var err error
		sums, err = d.Summaries(ctx, []document.Document{doc, doc})
		assert.NoError(t, err)
	}()
	go func() {
		defer wg.Done()
		_, err := d.Decorate(ctx, doc, chunks)
		assert.NoError(t, err)
	}()

	// A waiter whose context ends gives up alone; the call goes on.
	tctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	_, err := d.Decorate(tctx, doc, chunks)
	require.ErrorIs(t, err, context.DeadlineExceeded)

	time.Sleep(20 * time.Millisecond) // let the others find the call under way
	close(release)
	wg.Wait()
	require.Equal(t, 1, s.Calls(), "one document, one call, however many ask at once")
	require.Equal(t, []string{"Summary: This is document number 0.", "Summary: This is document number 0."}, sums)
}

func TestProgress(t *testing.T) {
	var mu sync.Mutex
	var seen [][2]int
	d := newDecorator(t, contextheader.Config{
		Tokenizer: cl100k(t), Summarizer: &fakeSummarizer{answer: echo}, Concurrency: 3,
		Progress: func(s contextheader.Stats) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, [2]int{s.Done, s.Total})
		},
	})
	_, err := d.Summaries(context.Background(), corpusOf(7))
	require.NoError(t, err)
	want := make([][2]int, 7)
	for i := range want {
		want[i] = [2]int{i + 1, 7}
	}
	require.Equal(t, want, seen)
}

func TestBadSummaries(t *testing.T) {
	tests := []struct {
		name   string
		answer string
	}{
		{"empty", ""},
		{"white space", " \n\t "},
		{"invalid UTF-8", "caf\xe9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &fakeSummarizer{answer: func(context.Context, string) (string, error) { return tt.answer, nil }}
			cache := new(contextheader.MemoryCache)
			d := newDecorator(t, contextheader.Config{Tokenizer: cl100k(t), Summarizer: s, Cache: cache})
			_, err := d.Summaries(context.Background(), corpusOf(1))
			require.ErrorIs(t, err, contextheader.ErrSummarizer)
			require.Zero(t, cache.Len(), "a bad summary is not cached")
		})
	}
}

func TestSummariesBadDocuments(t *testing.T) {
	d := newDecorator(t, contextheader.Config{Tokenizer: cl100k(t), Summarizer: &fakeSummarizer{}})
	docs := []document.Document{{ID: "ok", Text: "Fine text."}, {ID: "empty"}, {ID: "bad", Text: "\xff"}, {ID: "bad summary", Summary: "\xff"}}
	sums, err := d.Summaries(context.Background(), docs)
	var be *contextheader.BatchError
	require.ErrorAs(t, err, &be)
	require.Len(t, be.Failed, 3)
	require.ErrorIs(t, be.Failed[0], contextheader.ErrInvalidDocument)
	require.ErrorIs(t, be.Failed[1], contextheader.ErrInvalidDocument)
	require.ErrorIs(t, be.Failed[2], contextheader.ErrInvalidDocument)
	require.Equal(t, "A summary.", sums[0])

	_, err = newDecorator(t, contextheader.Config{Tokenizer: cl100k(t)}).Summaries(context.Background(), docs)
	require.ErrorIs(t, err, contextheader.ErrConfig)
	require.ErrorContains(t, err, "Summarizer is nil: required by Summaries")
}

func TestCacheErrors(t *testing.T) {
	for _, get := range []bool{true, false} {
		t.Run(fmt.Sprintf("get %v", get), func(t *testing.T) {
			d := newDecorator(t, contextheader.Config{
				Tokenizer: cl100k(t), Summarizer: &fakeSummarizer{}, Cache: &failingCache{get: get},
			})
			_, err := d.Summaries(context.Background(), corpusOf(2))
			require.ErrorIs(t, err, contextheader.ErrCache)
			require.ErrorIs(t, err, errDisk)
		})
	}
}

func TestSummaryPrompt(t *testing.T) {
	for _, r := range contextheader.DefaultSummaryPrompt + contextheader.DefaultChunkContextPrompt {
		require.Less(t, r, rune(128), "the default prompts are plain English, with no other script in them")
	}
	s := &fakeSummarizer{}
	d := newDecorator(t, contextheader.Config{Tokenizer: cl100k(t), Summarizer: s, SummaryChars: 130})
	doc := document.Document{ID: "long", Text: "  " + paragraphs(10)}
	_, err := d.Summaries(context.Background(), []document.Document{doc})
	require.NoError(t, err)
	prompts := s.Prompts()
	require.Len(t, prompts, 1)

	// The excerpt is the start of the document, cut back to the end of the
	// last sentence within 130 characters.
	excerpt := "Paragraph x says something of its own here. It goes on for a second sentence.\n\nParagraph xx says something of its own here."
	require.LessOrEqual(t, len(excerpt), 130)
	require.Equal(t, strings.Replace(contextheader.DefaultSummaryPrompt, contextheader.DocumentPlaceholder, excerpt, 1), prompts[0])

	// A first sentence longer than the limit is cut at a word.
	s = &fakeSummarizer{}
	d = newDecorator(t, contextheader.Config{Tokenizer: cl100k(t), Summarizer: s, SummaryChars: 20, SummaryPrompt: "[{document}]"})
	_, err = d.Summaries(context.Background(), []document.Document{doc})
	require.NoError(t, err)
	require.Equal(t, "[Paragraph x says]", s.Prompts()[0])
}

func TestDocumentSummarizerGetsTheDocument(t *testing.T) {
	s := &docSummarizer{}
	d := newDecorator(t, contextheader.Config{Tokenizer: cl100k(t), Parts: summaryParts, Summarizer: s, SummaryChars: 60})
	doc := document.Document{Title: "T", Text: paragraphs(3)}
	got, err := d.Decorate(context.Background(), doc, split(t, cl100k(t), 30, doc))
	require.NoError(t, err)
	require.Equal(t, "T\nFrom the document.", got[0].Header)
	require.Zero(t, s.Calls(), "Summarize is not called with a prompt")
	require.Equal(t, []string{"Paragraph x says something of its own here."}, s.documents, "the raw excerpt, no prompt")
}

func TestChunkContext(t *testing.T) {
	tok := cl100k(t)
	ctx := context.Background()
	s := &fakeSummarizer{answer: func(_ context.Context, prompt string) (string, error) {
		_, chunk, _ := strings.Cut(prompt, "<chunk>\n")
		first, _, _ := strings.Cut(chunk, " ")
		return "Situates " + first + ".", nil
	}}
	var progress atomic.Int64
	d := newDecorator(t, contextheader.Config{
		Tokenizer: tok, Summarizer: s, Concurrency: 3,
		Parts:    []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.ChunkContext}},
		Progress: func(contextheader.Stats) { progress.Add(1) },
	})
	doc := document.Document{ID: "ctx", Title: "T", Text: paragraphs(8)}
	chunks := cutAt(t, tok, doc.Text, "Paragraph xx ", "Paragraph xxx ", "Paragraph xxxx ", "Paragraph xxxxx ")
	got, err := d.Decorate(ctx, doc, chunks)
	require.NoError(t, err)
	require.Equal(t, len(chunks), s.Calls(), "one call per chunk: the documented cost")
	require.Equal(t, int64(len(chunks)), progress.Load())
	for i, c := range got {
		first, _, _ := strings.Cut(chunks[i].Text, " ")
		require.Equal(t, "T\nSituates "+first+".", c.Header)
	}

	// Every prompt starts with the same bytes, up to the chunk.
	head, _, _ := strings.Cut(contextheader.DefaultChunkContextPrompt, contextheader.ChunkPlaceholder)
	prefix := strings.Replace(head, contextheader.DocumentPlaceholder, doc.Text, 1)
	prompts := s.Prompts()
	require.Len(t, prompts, len(chunks))
	for _, p := range prompts {
		require.True(t, strings.HasPrefix(p, prefix), "a prompt that does not start with the shared document part")
		require.True(t, strings.HasPrefix(p, "<document>\n"+doc.Text), "the document comes first")
	}

	_, err = d.Decorate(ctx, doc, chunks)
	require.NoError(t, err)
	require.Equal(t, len(chunks), s.Calls(), "chunk contexts are cached")
}

func TestChunkContextFailure(t *testing.T) {
	boom := errors.New("timeout")
	s := &fakeSummarizer{answer: func(_ context.Context, prompt string) (string, error) {
		if strings.Contains(prompt, "<chunk>\nParagraph xx ") {
			return "", boom
		}
		return "Context.", nil
	}}
	tok := cl100k(t)
	d := newDecorator(t, contextheader.Config{Tokenizer: tok, Summarizer: s, Parts: []contextheader.Part{{Kind: contextheader.ChunkContext}}})
	doc := document.Document{ID: "ctx", Text: paragraphs(3)}
	got, err := d.Decorate(context.Background(), doc, cutAt(t, tok, doc.Text, "Paragraph xx ", "Paragraph xxx "))
	require.Nil(t, got)
	require.ErrorIs(t, err, boom)
	require.ErrorIs(t, err, contextheader.ErrSummarizer)
	require.ErrorContains(t, err, "chunk 1")
	var de *contextheader.DocumentError
	require.ErrorAs(t, err, &de)
	require.Equal(t, "ctx", de.ID)
}

func TestMemoryCacheConcurrent(t *testing.T) {
	var c contextheader.MemoryCache // the zero value is ready
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				k := fmt.Sprint(i % 10)
				assert.NoError(t, c.Put(ctx, k, fmt.Sprint(g)))
				_, ok, err := c.Get(ctx, k)
				assert.NoError(t, err)
				assert.True(t, ok)
			}
		}()
	}
	wg.Wait()
	require.Equal(t, 10, c.Len())
	_, ok, err := c.Get(ctx, "missing")
	require.NoError(t, err)
	require.False(t, ok)
}
