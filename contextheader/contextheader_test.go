package contextheader_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

func TestNewErrors(t *testing.T) {
	tok := tokentest.Words{}
	custom := func(document.Document, chunker.Chunk) string { return "x" }
	tests := []struct {
		name string
		cfg  contextheader.Config
		want error
	}{
		{"no tokenizer", contextheader.Config{}, contextheader.ErrConfig},
		{"negative MaxHeaderTokens", contextheader.Config{Tokenizer: tok, MaxHeaderTokens: -1}, contextheader.ErrConfig},
		{"negative MaxEmbedTokens", contextheader.Config{Tokenizer: tok, MaxEmbedTokens: -1}, contextheader.ErrConfig},
		{"negative SummaryChars", contextheader.Config{Tokenizer: tok, SummaryChars: -1}, contextheader.ErrConfig},
		{"negative ChunkContextChars", contextheader.Config{Tokenizer: tok, ChunkContextChars: -5}, contextheader.ErrConfig},
		{"negative Concurrency", contextheader.Config{Tokenizer: tok, Concurrency: -2}, contextheader.ErrConfig},
		{"unknown kind", contextheader.Config{Tokenizer: tok, Parts: []contextheader.Part{{Kind: 42}}}, contextheader.ErrConfig},
		{"custom without func", contextheader.Config{Tokenizer: tok, Parts: []contextheader.Part{{Kind: contextheader.Custom}}}, contextheader.ErrConfig},
		{"label with newline", contextheader.Config{Tokenizer: tok, Parts: []contextheader.Part{{Kind: contextheader.Title, Label: "a\nb"}}}, contextheader.ErrConfig},
		{"invalid separator", contextheader.Config{Tokenizer: tok, Separator: "\xff"}, contextheader.ErrConfig},
		{"context without summarizer", contextheader.Config{Tokenizer: tok, Parts: []contextheader.Part{{Kind: contextheader.ChunkContext}}}, contextheader.ErrConfig},
		{"prompt without placeholder", contextheader.Config{Tokenizer: tok, SummaryPrompt: "Summarise."}, contextheader.ErrConfig},
		{"prompt with two placeholders", contextheader.Config{Tokenizer: tok, SummaryPrompt: "{document} {document}"}, contextheader.ErrConfig},
		{"chunk before document", contextheader.Config{Tokenizer: tok, ChunkContextPrompt: "{chunk} in {document}"}, contextheader.ErrConfig},
		{"context prompt without chunk", contextheader.Config{Tokenizer: tok, ChunkContextPrompt: "{document}"}, contextheader.ErrConfig},
		{"no room for a chunk", contextheader.Config{Tokenizer: tok, MaxHeaderTokens: 10, MaxEmbedTokens: 12}, contextheader.ErrConfig},
		{"ok", contextheader.Config{Tokenizer: tok, Parts: []contextheader.Part{{Kind: contextheader.Custom, Func: custom}}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := contextheader.New(tt.cfg)
			if tt.want == nil {
				require.NoError(t, err)
				require.NotNil(t, d)
				return
			}
			require.ErrorIs(t, err, tt.want)
			require.Nil(t, d)
		})
	}
}

func TestConfigDefaults(t *testing.T) {
	cfg := newDecorator(t, contextheader.Config{Tokenizer: tokentest.Words{}}).Config()
	assert.Equal(t, []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}, {Kind: contextheader.Table}}, cfg.Parts)
	assert.Equal(t, "\n\n", cfg.Separator)
	assert.Equal(t, 128, cfg.MaxHeaderTokens)
	assert.Equal(t, 5000, cfg.SummaryChars)
	assert.Equal(t, 32000, cfg.ChunkContextChars)
	assert.Equal(t, 4, cfg.Concurrency)
	assert.Equal(t, contextheader.DefaultSummaryPrompt, cfg.SummaryPrompt)
	assert.Equal(t, contextheader.DefaultChunkContextPrompt, cfg.ChunkContextPrompt)
	assert.NotNil(t, cfg.Cache)

	// A small embedder window lowers the default header cap to a quarter.
	cfg = newDecorator(t, contextheader.Config{Tokenizer: tokentest.Words{}, MaxEmbedTokens: 128}).Config()
	assert.Equal(t, 32, cfg.MaxHeaderTokens)
	cfg = newDecorator(t, contextheader.Config{Tokenizer: tokentest.Words{}, MaxEmbedTokens: 8192}).Config()
	assert.Equal(t, 128, cfg.MaxHeaderTokens)
}

func TestKindString(t *testing.T) {
	assert.Equal(t, "Title", contextheader.Title.String())
	assert.Equal(t, "Section", contextheader.Section.String())
	assert.Equal(t, "Metadata", contextheader.Metadata.String())
	assert.Equal(t, "Summary", contextheader.Summary.String())
	assert.Equal(t, "ChunkContext", contextheader.ChunkContext.String())
	assert.Equal(t, "Custom", contextheader.Custom.String())
	assert.Equal(t, "Table", contextheader.Table.String())
	assert.Equal(t, "Kind(7)", contextheader.Kind(7).String())
	assert.Equal(t, "Kind(-1)", contextheader.Kind(-1).String())
}

func TestZeroDecorator(t *testing.T) {
	ctx := context.Background()
	doc := document.Document{Text: "Some text."}
	for _, d := range []*contextheader.Decorator{nil, {}} {
		_, err := d.Decorate(ctx, doc, nil)
		require.ErrorIs(t, err, contextheader.ErrConfig)
		_, err = d.Summaries(ctx, []document.Document{doc})
		require.ErrorIs(t, err, contextheader.ErrConfig)
		_, err = d.ChunkMaxTokens()
		require.ErrorIs(t, err, contextheader.ErrConfig)
		require.Equal(t, contextheader.Config{}, d.Config())
	}
}

const policy = `# Travel policy

Staff book travel through the agency.

## Ground transport

### Ride-hailing

Ride-hailing is allowed after 10 pm or when no train runs.

### Trains

Standard class only.
`

func TestDecorateDefaultHeader(t *testing.T) {
	tok := cl100k(t)
	doc := document.Document{ID: "travel", Title: "Acme travel policy", Text: policy, Format: document.Markdown}
	chunks := cutAt(t, tok, doc.Text, "### Ride", "### Trains")
	d := newDecorator(t, contextheader.Config{Tokenizer: tok})
	got, err := d.Decorate(context.Background(), doc, chunks)
	require.NoError(t, err)
	require.Len(t, got, len(chunks))

	var headers []string
	for i, c := range got {
		require.Equal(t, chunks[i], c.Chunk, "the chunk is kept unchanged")
		require.Equal(t, c.Header+"\n\n"+c.Text, c.EmbedText)
		require.Equal(t, tok.Count(c.Header), c.HeaderTokens)
		require.Equal(t, tok.Count(c.EmbedText), c.EmbedTokens)
		require.False(t, c.HeaderCut)
		headers = append(headers, c.Header)
	}
	require.Equal(t, []string{
		"Acme travel policy\nTravel policy",
		"Acme travel policy\nTravel policy > Ground transport > Ride-hailing",
		"Acme travel policy\nTravel policy > Ground transport > Trains",
	}, headers)
	require.Equal(t, []string{"Travel policy", "Ground transport", "Trains"}, got[2].Section)
}

func TestDecorateTitleRepeatedByHeading(t *testing.T) {
	tok := cl100k(t)
	doc := document.Document{Title: "travel  POLICY", Text: policy, Format: document.Markdown}
	chunks := cutAt(t, tok, doc.Text, "### Ride", "### Trains")
	got, err := newDecorator(t, contextheader.Config{Tokenizer: tok}).Decorate(context.Background(), doc, chunks)
	require.NoError(t, err)
	require.Equal(t, "travel POLICY", got[0].Header, "the first heading repeats the title and is left out")
	require.Equal(t, "travel POLICY\nGround transport > Ride-hailing", got[1].Header)

	// Without a Title part, the path keeps its first heading.
	d := newDecorator(t, contextheader.Config{Tokenizer: tok, Parts: []contextheader.Part{{Kind: contextheader.Section}}})
	got, err = d.Decorate(context.Background(), doc, chunks)
	require.NoError(t, err)
	require.Equal(t, "Travel policy > Ground transport > Ride-hailing", got[1].Header)
}

func TestDecorateEmptyHeader(t *testing.T) {
	tok := cl100k(t)
	doc := document.Document{Text: "No title and no headings. Just text."}
	got, err := newDecorator(t, contextheader.Config{Tokenizer: tok}).Decorate(context.Background(), doc, split(t, tok, 50, doc))
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Empty(t, got[0].Header)
	require.Zero(t, got[0].HeaderTokens)
	require.Equal(t, doc.Text, got[0].EmbedText)
	require.Equal(t, tok.Count(doc.Text), got[0].EmbedTokens)
	require.Nil(t, got[0].Section)
}

func TestDecorateParts(t *testing.T) {
	tok := cl100k(t)
	doc := document.Document{
		ID: "q2", Title: "Kestrel  Software\nQ2 report", Text: "REVENUE\n\nUp 14 per cent.",
		Metadata: map[string]string{"company": "Kestrel Software", "year": "2024", "quarter": "Q2", "empty": " "},
		Summary:  "Kestrel Software's results for the second quarter of 2024.",
	}
	custom := func(d document.Document, c chunker.Chunk) string {
		return d.ID + " from byte " + strings.Repeat("I", c.Start+1)
	}
	tests := []struct {
		name  string
		parts []contextheader.Part
		want  string
	}{
		{"title", []contextheader.Part{{Kind: contextheader.Title}}, "Kestrel Software Q2 report"},
		{"label", []contextheader.Part{{Kind: contextheader.Title, Label: "Document: "}}, "Document: Kestrel Software Q2 report"},
		{"section", []contextheader.Part{{Kind: contextheader.Section, Label: "Section: "}}, "Section: REVENUE"},
		{"template", []contextheader.Part{{Kind: contextheader.Metadata, Template: "{company}, {quarter} {year}"}}, "Kestrel Software, Q2 2024"},
		{"template with a missing key", []contextheader.Part{{Kind: contextheader.Metadata, Template: "{company} ({region})"}}, "Kestrel Software ()"},
		{"template of missing keys", []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Metadata, Template: "Region: {region}", Label: "x"}}, "Kestrel Software Q2 report"},
		{"template braces", []contextheader.Part{{Kind: contextheader.Metadata, Template: "{ year } {year} {} {year"}}, "{ year } 2024 {} {year"},
		{"all metadata", []contextheader.Part{{Kind: contextheader.Metadata}}, "company: Kestrel Software; quarter: Q2; year: 2024"},
		{"summary", []contextheader.Part{{Kind: contextheader.Summary}}, "Kestrel Software's results for the second quarter of 2024."},
		{"custom", []contextheader.Part{{Kind: contextheader.Custom, Func: custom}}, "q2 from byte I"},
		{"order", []contextheader.Part{{Kind: contextheader.Section}, {Kind: contextheader.Metadata, Template: "{year}"}, {Kind: contextheader.Title}},
			"REVENUE\n2024\nKestrel Software Q2 report"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A Summary part takes Document.Summary: no Summarizer needed.
			d := newDecorator(t, contextheader.Config{Tokenizer: tok, Parts: tt.parts})
			got, err := d.Decorate(context.Background(), doc, split(t, tok, 50, doc))
			require.NoError(t, err)
			require.Equal(t, tt.want, got[0].Header)
		})
	}
}

// Without a Summarizer, a Summary part takes the summaries documents
// carry, and a document without one is an error that says so.
func TestGivenSummariesOnly(t *testing.T) {
	tok := cl100k(t)
	d := newDecorator(t, contextheader.Config{Tokenizer: tok, Parts: summaryParts})
	doc := document.Document{ID: "given", Title: "Travel", Text: "Rail is booked through the portal.", Summary: "The travel policy of Acme Corp."}
	got, err := d.Decorate(context.Background(), doc, split(t, tok, 50, doc))
	require.NoError(t, err)
	require.Equal(t, "Travel\nThe travel policy of Acme Corp.", got[0].Header)

	doc.ID, doc.Summary = "missing", ""
	_, err = d.Decorate(context.Background(), doc, split(t, tok, 50, doc))
	require.ErrorIs(t, err, contextheader.ErrInvalidDocument)
	require.ErrorContains(t, err, "Summary is empty and Config.Summarizer is nil")
	var de *contextheader.DocumentError
	require.ErrorAs(t, err, &de)
	require.Equal(t, "missing", de.ID)
}

func TestDecorateSeparator(t *testing.T) {
	tok := cl100k(t)
	doc := document.Document{Title: "T", Text: "Body."}
	d := newDecorator(t, contextheader.Config{Tokenizer: tok, Separator: "\n---\n"})
	got, err := d.Decorate(context.Background(), doc, split(t, tok, 50, doc))
	require.NoError(t, err)
	require.Equal(t, "T\n---\nBody.", got[0].EmbedText)
}

func TestDecorateBadInput(t *testing.T) {
	tok := cl100k(t)
	ctx := context.Background()
	d := newDecorator(t, contextheader.Config{Tokenizer: tok, Parts: []contextheader.Part{
		{Kind: contextheader.Title},
		{Kind: contextheader.Custom, Func: func(document.Document, chunker.Chunk) string { return "\xff" }},
	}})
	good := document.Document{Text: "Hello there."}
	chunks := split(t, tok, 50, good)
	tests := []struct {
		name   string
		doc    document.Document
		chunks []chunker.Chunk
		want   error
	}{
		{"empty text", document.Document{Text: " \n "}, nil, contextheader.ErrInvalidDocument},
		{"invalid text", document.Document{Text: "a\xffb"}, nil, contextheader.ErrInvalidDocument},
		{"invalid title", document.Document{Text: "a", Title: "\xfe"}, nil, contextheader.ErrInvalidDocument},
		{"invalid metadata", document.Document{Text: "a", Metadata: map[string]string{"k": "\xfe"}}, nil, contextheader.ErrInvalidDocument},
		{"chunk of another text", document.Document{Text: "Hello, there."}, chunks, contextheader.ErrChunk},
		{"chunk out of range", good, []chunker.Chunk{{Start: 3, End: 40}}, contextheader.ErrChunk},
		{"chunk backwards", good, []chunker.Chunk{{Start: 3, End: 2}}, contextheader.ErrChunk},
		{"chunk negative", good, []chunker.Chunk{{Start: -1, End: 2}}, contextheader.ErrChunk},
		{"invalid custom part", good, chunks, contextheader.ErrInvalidDocument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := d.Decorate(ctx, tt.doc, tt.chunks)
			require.ErrorIs(t, err, tt.want)
			require.Nil(t, got)
		})
	}
}

func TestDecorateNoChunks(t *testing.T) {
	s := &fakeSummarizer{}
	d := newDecorator(t, contextheader.Config{Tokenizer: cl100k(t), Parts: []contextheader.Part{{Kind: contextheader.Summary}}, Summarizer: s})
	got, err := d.Decorate(context.Background(), document.Document{Text: "Text."}, nil)
	require.NoError(t, err)
	require.Empty(t, got)
	require.Zero(t, s.Calls(), "no chunk, no summary")
}

func TestDecorateCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tok := cl100k(t)
	doc := document.Document{ID: "d", Text: "Text."}
	_, err := newDecorator(t, contextheader.Config{Tokenizer: tok}).Decorate(ctx, doc, split(t, tok, 10, doc))
	require.ErrorIs(t, err, context.Canceled)
	var de *contextheader.DocumentError
	require.ErrorAs(t, err, &de)
	require.Equal(t, "d", de.ID)
}
