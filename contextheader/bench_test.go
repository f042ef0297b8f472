package contextheader_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

// benchDocuments cuts the test corpora into n documents of about size
// bytes each, made of whole paragraphs: prose as plain text, the
// CommonMark specification as Markdown. Where a corpus runs out, it is
// read again from its start.
func benchDocuments(tb testing.TB, n, size int) []document.Document {
	tb.Helper()
	type source struct {
		text   string
		format document.Format
	}
	var sources []source
	for _, name := range []string{"room_with_a_view.txt", "sherlock_1661.txt", "romeo_and_juliet.txt", "commonmark_spec.md"} {
		s := source{text: testcorpus.Must(tb, name)}
		if strings.HasSuffix(name, ".md") {
			s.format = document.Markdown
		}
		sources = append(sources, s)
	}
	docs := make([]document.Document, n)
	next := make([]int, len(sources)) // the next paragraph of each source
	for i := range docs {
		k := i % len(sources)
		src := sources[k]
		paras := segment.Paragraphs(src.text)
		first := next[k] % len(paras)
		last := first
		for last+1 < len(paras) && paras[last].End-paras[first].Start < size {
			last++
		}
		next[k] = last + 1
		text := src.text[paras[first].Start:paras[last].End]
		docs[i] = document.Document{ID: fmt.Sprint(i), Title: fmt.Sprintf("Document %d of the benchmark", i), Text: text, Format: src.format}
	}
	return docs
}

// BenchmarkDecorate decorates about 10,000 chunks of 200 documents with
// the deterministic header (title and section path), and, in the same
// run, chunks the same documents: decorating must cost less.
func BenchmarkDecorate(b *testing.B) {
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(b, err)
	docs := benchDocuments(b, 200, 21500)
	chunkers := map[document.Format]*chunker.Chunker{}
	for _, f := range []document.Format{document.Text, document.Markdown} {
		chunkers[f], err = chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 128, Format: f})
		require.NoError(b, err)
	}
	bytes, total := 0, 0
	chunks := make([][]chunker.Chunk, len(docs))
	for i, doc := range docs {
		chunks[i], err = chunkers[doc.Format].Split(doc.Text)
		require.NoError(b, err)
		bytes += len(doc.Text)
		total += len(chunks[i])
	}
	d, err := contextheader.New(contextheader.Config{Tokenizer: tok})
	require.NoError(b, err)
	ctx := context.Background()

	b.Run("chunk", func(b *testing.B) {
		b.SetBytes(int64(bytes))
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range docs {
				if _, err := chunkers[doc.Format].Split(doc.Text); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(total), "chunks/op")
	})
	b.Run("decorate", func(b *testing.B) {
		b.SetBytes(int64(bytes))
		b.ReportAllocs()
		for b.Loop() {
			for i, doc := range docs {
				if _, err := d.Decorate(ctx, doc, chunks[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(total), "chunks/op")
	})
}

// TestDecorateAllocs guards the cost per chunk of the deterministic
// header: the embed text, and a header built once per section.
func TestDecorateAllocs(t *testing.T) {
	tok := cl100k(t)
	doc := document.Document{Title: "Policy", Text: strings.Repeat(policy+"\n\n", 20), Format: document.Markdown}
	chunks := split(t, tok, 24, doc)
	require.Greater(t, len(chunks), 40)
	d := newDecorator(t, contextheader.Config{Tokenizer: tok})
	ctx := context.Background()
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := d.Decorate(ctx, doc, chunks); err != nil {
			t.Fatal(err)
		}
	})
	sections := len(document.Headings(doc.Text, doc.Format))
	t.Logf("%.0f allocations for %d chunks of %d sections", allocs, len(chunks), sections)
	require.LessOrEqual(t, allocs, float64(len(chunks)+6*sections+20))
}

// BenchmarkHeadings finds the headings of the Markdown and plain-text
// corpora, and of one long heading line of each hostile shape: reading a
// heading's inline markup stays linear however its brackets pair.
func BenchmarkHeadings(b *testing.B) {
	type input struct {
		name   string
		text   string
		format document.Format
	}
	inputs := []input{
		{"commonmark_spec.md", testcorpus.Must(b, "commonmark_spec.md"), document.Markdown},
		{"room_with_a_view.txt", testcorpus.Must(b, "room_with_a_view.txt"), document.Text},
	}
	for _, shape := range []string{"[", "[a](", "[a][", "![x]"} {
		text := "# " + strings.Repeat(shape, (1<<20)/len(shape)) + "\n"
		inputs = append(inputs, input{"heading of " + shape, text, document.Markdown})
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			b.ReportAllocs()
			for b.Loop() {
				document.Headings(in.text, in.format)
			}
		})
	}
}

// BenchmarkLargeSummary decorates a 50-section document whose Summary is
// 2.5 MB or 10 MB: the cost must stay in the headers' size, not the
// summary's (see TestLargePartsAreCutOncePerDocument).
func BenchmarkLargeSummary(b *testing.B) {
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(b, err)
	var sb strings.Builder
	for i := range 50 {
		fmt.Fprintf(&sb, "## Section %d\n\nThe committee reviewed item %d in detail. It found the figures sound and approved them.\n\n", i, i)
	}
	doc := document.Document{ID: "r", Title: "Report", Text: sb.String(), Format: document.Markdown}
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 40, Format: document.Markdown})
	require.NoError(b, err)
	chunks, err := c.Split(doc.Text)
	require.NoError(b, err)
	d, err := contextheader.New(contextheader.Config{Tokenizer: tok,
		Parts: []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}, {Kind: contextheader.Summary}}})
	require.NoError(b, err)
	for _, size := range []int{2_500_000, 10_000_000} {
		doc.Summary = strings.Repeat("The report covers an item of the review in some detail. ", size/56+1)[:size]
		b.Run(fmt.Sprintf("%dMB", size/1_000_000), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc.Summary)))
			for b.Loop() {
				if _, err := d.Decorate(context.Background(), doc, chunks); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
