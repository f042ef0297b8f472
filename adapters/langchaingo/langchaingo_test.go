package langchaingo_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/ragkit/ragkit/adapters/internal/testdoc"
	"github.com/ragkit/ragkit/adapters/langchaingo"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/textsplitter"
	"github.com/tmc/langchaingo/vectorstores"
)

// The adapters are langchaingo's interfaces and ragkit's, at compile time.
var (
	_ textsplitter.TextSplitter = (*langchaingo.Splitter)(nil)
	_ vectorstores.VectorStore  = (*langchaingo.Store)(nil)
	_ embeddings.Embedder       = langchaingo.NewEmbedder(nil)
	_ vectorstore.Embedder      = langchaingo.RagkitEmbedder(nil)
)

func newChunker(t testing.TB, max int) *chunker.Chunker {
	t.Helper()
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: max, Format: document.Markdown})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newStore(t testing.TB) (*langchaingo.Store, *memory.Store) {
	t.Helper()
	mem, err := memory.New(memory.Config{})
	if err != nil {
		t.Fatal(err)
	}
	lex, err := lexical.New(lexical.Config{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := langchaingo.NewStore(langchaingo.StoreConfig{Store: mem, Embedder: lex, DocIDKey: "source"})
	if err != nil {
		t.Fatal(err)
	}
	return s, mem
}

func TestSplitTextMatchesChunker(t *testing.T) {
	c := newChunker(t, 30)
	s, err := langchaingo.NewSplitter(langchaingo.SplitterConfig{Chunker: c})
	if err != nil {
		t.Fatal(err)
	}
	texts, err := s.SplitText(testdoc.Policy)
	if err != nil {
		t.Fatal(err)
	}
	chunks, _ := c.Split(testdoc.Policy)
	if len(texts) != len(chunks) || len(texts) < 3 {
		t.Fatalf("%d texts, %d chunks", len(texts), len(chunks))
	}
	for i, ch := range chunks {
		if texts[i] != ch.Text {
			t.Errorf("text %d = %q; want %q", i, texts[i], ch.Text)
		}
	}
	// langchaingo's own helper runs it, losing the offsets as it does for every splitter.
	docs, err := textsplitter.CreateDocuments(s, []string{testdoc.Policy}, []map[string]any{{"source": "p.md"}})
	if err != nil || len(docs) != len(chunks) || docs[0].Metadata["source"] != "p.md" {
		t.Fatalf("CreateDocuments: %d docs, %v", len(docs), err)
	}
}

func TestSplitDocumentsKeepsPlace(t *testing.T) {
	c := newChunker(t, 30)
	s, _ := langchaingo.NewSplitter(langchaingo.SplitterConfig{Chunker: c, DocIDKey: "source"})
	tok, _ := tokencount.Encoding("cl100k_base")
	in := []schema.Document{{PageContent: testdoc.Policy, Metadata: map[string]any{"source": "travel.md", "year": 2024}}}
	docs, err := s.SplitDocuments(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range docs {
		m := d.Metadata
		start, end := m[meta.StartKey].(int), m[meta.EndKey].(int)
		if testdoc.Policy[start:end] != d.PageContent {
			t.Errorf("chunk %d: offsets [%d:%d] give %q, not its text", i, start, end, testdoc.Policy[start:end])
		}
		if m[meta.IndexKey] != i || m[meta.DocIDKey] != "travel.md" || m["year"] != 2024 || m["source"] != "travel.md" {
			t.Errorf("chunk %d metadata %v", i, m)
		}
		if m[meta.TokensKey] != tok.Count(d.PageContent) {
			t.Errorf("chunk %d: tokens %v, count %d", i, m[meta.TokensKey], tok.Count(d.PageContent))
		}
	}
	// Section paths: the last chunk is under "Hotels".
	last := docs[len(docs)-1].Metadata[meta.SectionKey]
	if last != "Travel policy\nHotels" {
		t.Errorf("last chunk's section = %q", last)
	}
	if in[0].Metadata[meta.IndexKey] != nil {
		t.Error("SplitDocuments changed its input's metadata")
	}
}

// A split document written through the Store keeps its place, so that
// ragkit's windows rebuild the document's text from the store.
func TestSplitStoreWindowRoundTrip(t *testing.T) {
	ctx := context.Background()
	tok, _ := tokencount.Encoding("cl100k_base")
	dec, err := contextheader.New(contextheader.Config{Tokenizer: tok})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := langchaingo.NewSplitter(langchaingo.SplitterConfig{Chunker: newChunker(t, 30), Decorator: dec, DocIDKey: "source"})
	docs, err := s.SplitDocuments(ctx, []schema.Document{{PageContent: testdoc.Policy, Metadata: map[string]any{"source": "travel.md", meta.TitleKey: "Acme travel policy"}}})
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := docs[1].Metadata[meta.NotesKey].(string); !strings.Contains(h, "Acme travel policy") {
		t.Errorf("header = %q", h)
	}
	store, mem := newStore(t)
	ids, err := store.AddDocuments(ctx, docs)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != len(docs) || ids[0] != "travel.md#0" {
		t.Fatalf("ids %v", ids)
	}
	recs, err := mem.Range(ctx, "travel.md", 0, len(docs))
	if err != nil || len(recs) != len(docs) {
		t.Fatalf("Range: %d records, %v", len(recs), err)
	}
	if _, ok := recs[0].Metadata[meta.EmbedTextKey]; ok {
		t.Error("embed text was stored")
	}
	// The vector is that of the header and chunk, not of the bare chunk.
	lex, _ := lexical.New(lexical.Config{})
	want, _ := lex.Embed(ctx, []string{docs[1].Metadata[meta.EmbedTextKey].(string)})
	got, _ := mem.Query(ctx, want[0], 1, vectorstore.Filter{})
	if got[0].ID != "travel.md#1" || got[0].Score < 0.999 {
		t.Errorf("nearest to chunk 1's embed text: %s %v", got[0].ID, got[0].Score)
	}
	ex, err := window.NewExpander(window.ExpanderConfig{Source: mem, Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := ex.Expand(ctx, got)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].Text != testdoc.Policy[ws[0].Start:ws[0].End] || ws[0].Start != 0 || ws[0].End != len(testdoc.Policy) {
		t.Errorf("window [%d:%d] %q; want the whole policy", ws[0].Start, ws[0].End, ws[0].Text)
	}
}

func TestSimilaritySearch(t *testing.T) {
	ctx := context.Background()
	store, mem := newStore(t)
	docs := []schema.Document{
		{PageContent: "The meal allowance is 45 euros a day.", Metadata: map[string]any{"source": "meals", "year": 2024}},
		{PageContent: "Hotels cost at most 150 euros a night.", Metadata: map[string]any{"source": "hotels", "year": 2023}},
		{PageContent: "Trains are taken for trips under four hours.", Metadata: map[string]any{"source": "trains", "year": 2024}},
	}
	if _, err := store.AddDocuments(ctx, docs); err != nil {
		t.Fatal(err)
	}
	got, err := store.SimilaritySearch(ctx, "meal allowance euros", 3)
	if err != nil || len(got) != 3 {
		t.Fatalf("%d docs, %v", len(got), err)
	}
	if got[0].PageContent != docs[0].PageContent || got[0].Metadata["year"] != "2024" || got[0].Metadata[meta.ScoreKindKey] != "Cosine" {
		t.Errorf("first = %+v", got[0])
	}
	for i := 1; i < len(got); i++ {
		if got[i].Score > got[i-1].Score {
			t.Errorf("scores not descending: %v", got)
		}
	}
	// Back to ragkit: the hits the store's own Query gives, less vectors.
	ps, err := langchaingo.Passages(got)
	if err != nil {
		t.Fatal(err)
	}
	var hits []vectorstore.Hit
	for _, p := range ps {
		if len(p.Hits) != 1 || p.Text != p.Hits[0].Text || p.Score != p.Hits[0].Score {
			t.Fatalf("passage %+v", p)
		}
		hits = append(hits, p.Hits[0])
	}
	lex, _ := lexical.New(lexical.Config{})
	qv, _ := lex.Embed(ctx, []string{"meal allowance euros"})
	want, _ := mem.Query(ctx, qv[0], 3, vectorstore.Filter{})
	if diff := cmp.Diff(want, hits, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(vectorstore.Record{}, "Vector")); diff != "" {
		t.Errorf("Passages (-store +adapter):\n%s", diff)
	}
	// A threshold between the first score and the second keeps one.
	th := (got[0].Score + got[1].Score) / 2
	kept, err := store.SimilaritySearch(ctx, "meal allowance euros", 3, vectorstores.WithScoreThreshold(th))
	if err != nil || len(kept) != 1 || kept[0].PageContent != docs[0].PageContent {
		t.Errorf("threshold %v: %v, %v", th, kept, err)
	}
	// Filters: the year as an int matches the year stored from an int.
	f, err := store.SimilaritySearch(ctx, "meal allowance euros", 3, vectorstores.WithFilters(map[string]any{"year": 2023}))
	if err != nil || len(f) != 1 || f[0].Metadata[meta.DocIDKey] != "hotels" {
		t.Errorf("filter year: %v, %v", f, err)
	}
	f, err = store.SimilaritySearch(ctx, "euros", 3, vectorstores.WithFilters(map[string]any{meta.DocIDKey: []string{"trains", "meals"}}))
	if err != nil || len(f) != 2 {
		t.Errorf("filter documents: %v, %v", f, err)
	}
	// langchaingo's own retriever and QA chain run on the store.
	r := vectorstores.ToRetriever(store, 1, vectorstores.WithFilters(map[string]any{"year": 2024}))
	rd, err := r.GetRelevantDocuments(ctx, "hotel night")
	if err != nil || len(rd) != 1 || rd[0].Metadata["year"] != "2024" {
		t.Errorf("ToRetriever: %v, %v", rd, err)
	}
	answer, err := chains.Run(ctx, chains.NewRetrievalQAFromLLM(fake.NewFakeLLM([]string{"45 euros"}), r), "What is the meal allowance?")
	if err != nil || answer != "45 euros" {
		t.Errorf("RetrievalQA: %q, %v", answer, err)
	}
}

func TestUnmappableOptions(t *testing.T) {
	ctx := context.Background()
	store, _ := newStore(t)
	if _, err := store.AddDocuments(ctx, []schema.Document{{PageContent: "a text"}}); err != nil {
		t.Fatal(err)
	}
	for name, opts := range map[string][]vectorstores.Option{
		"namespace":  {vectorstores.WithNameSpace("tenant")},
		"threshold":  {vectorstores.WithScoreThreshold(1.5)},
		"operator":   {vectorstores.WithFilters(map[string]any{"year": map[string]any{"$nin": []any{2020}}})},
		"string >":   {vectorstores.WithFilters(map[string]any{"year": map[string]any{"$gt": "2020"}})},
		"empty list": {vectorstores.WithFilters(map[string]any{"year": []any{}})},
		"type":       {vectorstores.WithFilters("year = 2024")},
		"index":      {vectorstores.WithFilters(map[string]any{meta.IndexKey: 0})},
		"nested doc": {vectorstores.WithFilters(map[string]any{meta.DocIDKey: 3})},
	} {
		if _, err := store.SimilaritySearch(ctx, "text", 1, opts...); !errors.Is(err, meta.ErrUnsupported) {
			t.Errorf("%s: err = %v; want meta.ErrUnsupported", name, err)
		}
	}
	for name, opts := range map[string][]vectorstores.Option{
		"namespace": {vectorstores.WithNameSpace("tenant")},
		"threshold": {vectorstores.WithScoreThreshold(0.5)},
		"filters":   {vectorstores.WithFilters(map[string]any{"a": "b"})},
	} {
		if _, err := store.AddDocuments(ctx, []schema.Document{{PageContent: "b"}}, opts...); !errors.Is(err, meta.ErrUnsupported) {
			t.Errorf("AddDocuments %s: err = %v; want meta.ErrUnsupported", name, err)
		}
	}
	_, err := store.AddDocuments(ctx, []schema.Document{{PageContent: "c", Metadata: map[string]any{"tags": []string{"x"}}}})
	if !errors.Is(err, meta.ErrUnsupported) || !strings.Contains(err.Error(), "tags") {
		t.Errorf("list metadata: %v", err)
	}
}

func TestAddDocumentsOptions(t *testing.T) {
	ctx := context.Background()
	store, mem := newStore(t)
	lex, _ := lexical.New(lexical.Config{Dimension: 64})
	// WithEmbedder: a langchaingo embedder made with langchaingo's own
	// helper from a ragkit embedder.
	lc, err := embeddings.NewEmbedder(embeddings.EmbedderClientFunc(lex.Embed))
	if err != nil {
		t.Fatal(err)
	}
	ids, err := store.AddDocuments(ctx, []schema.Document{{PageContent: "alpha"}, {PageContent: "beta"}},
		vectorstores.WithEmbedder(lc),
		vectorstores.WithDeduplicater(func(_ context.Context, d schema.Document) bool { return d.PageContent == "beta" }))
	if err != nil || len(ids) != 1 {
		t.Fatalf("ids %v, %v", ids, err)
	}
	if mem.Config().Dimension != 64 {
		t.Errorf("dimension %d: WithEmbedder was not used", mem.Config().Dimension)
	}
	// Writing the same text again replaces its record.
	if _, err := store.AddDocuments(ctx, []schema.Document{{PageContent: "alpha"}}, vectorstores.WithEmbedder(lc)); err != nil {
		t.Fatal(err)
	}
	if mem.Len() != 1 {
		t.Errorf("%d records after writing one text twice", mem.Len())
	}
	got, err := store.SimilaritySearch(ctx, "alpha", 1, vectorstores.WithEmbedder(lc))
	if err != nil || len(got) != 1 || got[0].Score < 0.999 {
		t.Errorf("search with WithEmbedder: %v, %v", got, err)
	}
}

func TestEmbedders(t *testing.T) {
	ctx := context.Background()
	lex, _ := lexical.New(lexical.Config{})
	lc := langchaingo.NewEmbedder(lex)
	texts := []string{"line one\nline two", "other"}
	want, _ := lex.Embed(ctx, texts)
	got, err := lc.EmbedDocuments(ctx, texts)
	if err != nil || len(got) != 2 || got[1][0] != want[1][0] {
		t.Fatalf("EmbedDocuments: %v", err)
	}
	q, err := lc.EmbedQuery(ctx, "other")
	if err != nil || len(q) != len(want[1]) {
		t.Fatalf("EmbedQuery: %v", err)
	}
	// Back to ragkit through langchaingo's EmbedderImpl, which strips new
	// lines in the slice it is given: the caller's texts stay as they were.
	impl, _ := embeddings.NewEmbedder(embeddings.EmbedderClientFunc(lex.Embed))
	rk := langchaingo.RagkitEmbedder(impl)
	if _, err := rk.Embed(ctx, texts); err != nil {
		t.Fatal(err)
	}
	if texts[0] != "line one\nline two" {
		t.Errorf("caller's text changed to %q", texts[0])
	}
	// A wrong count of vectors is an error, not a short slice.
	short, _ := embeddings.NewEmbedder(embeddings.EmbedderClientFunc(func(context.Context, []string) ([][]float32, error) {
		return [][]float32{{1}}, nil
	}))
	if _, err := langchaingo.RagkitEmbedder(short).Embed(ctx, texts); !errors.Is(err, meta.ErrEmbedding) {
		t.Errorf("short: %v", err)
	}
}

func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	store, _ := newStore(t)
	if _, err := store.AddDocuments(ctx, []schema.Document{{PageContent: "a"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("AddDocuments: %v", err)
	}
	if _, err := store.SimilaritySearch(ctx, "a", 1); !errors.Is(err, context.Canceled) {
		t.Errorf("SimilaritySearch: %v", err)
	}
	s, _ := langchaingo.NewSplitter(langchaingo.SplitterConfig{Chunker: newChunker(t, 30)})
	if _, err := s.SplitDocuments(ctx, []schema.Document{{PageContent: testdoc.Policy}}); !errors.Is(err, context.Canceled) {
		t.Errorf("SplitDocuments: %v", err)
	}
	lex, _ := lexical.New(lexical.Config{})
	if _, err := langchaingo.NewEmbedder(lex).EmbedQuery(ctx, "a"); !errors.Is(err, context.Canceled) {
		t.Errorf("EmbedQuery: %v", err)
	}
}

func TestConfig(t *testing.T) {
	if _, err := langchaingo.NewSplitter(langchaingo.SplitterConfig{}); !errors.Is(err, langchaingo.ErrConfig) {
		t.Errorf("NewSplitter: %v", err)
	}
	if _, err := langchaingo.NewStore(langchaingo.StoreConfig{}); !errors.Is(err, langchaingo.ErrConfig) {
		t.Errorf("NewStore: %v", err)
	}
	mem, _ := memory.New(memory.Config{})
	if _, err := langchaingo.NewStore(langchaingo.StoreConfig{Store: mem}); !errors.Is(err, langchaingo.ErrConfig) {
		t.Errorf("NewStore without Embedder: %v", err)
	}
}

// Chunks of langchaingo's own splitter share their document's "source" and
// carry no place: each is a record of its own, numbered in order, not one
// record replaced by the next.
func TestAddDocumentsFromLangchaingoSplitter(t *testing.T) {
	ctx := context.Background()
	store, mem := newStore(t)
	split := textsplitter.NewRecursiveCharacter(textsplitter.WithChunkSize(120), textsplitter.WithChunkOverlap(0))
	docs, err := textsplitter.SplitDocuments(split, []schema.Document{{PageContent: testdoc.Policy, Metadata: map[string]any{"source": "travel.md"}}})
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, docs[1]) // the same chunk twice is kept twice
	ids, err := store.AddDocuments(ctx, docs)
	if err != nil {
		t.Fatal(err)
	}
	if mem.Len() != len(docs) || len(docs) < 4 {
		t.Fatalf("%d records for %d chunks", mem.Len(), len(docs))
	}
	recs, err := mem.Range(ctx, "travel.md", 0, len(docs))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		if r.Index != i || r.Text != docs[i].PageContent || r.ID != ids[i] {
			t.Errorf("record %d: %+v (id %s)", i, r, ids[i])
		}
	}
}

// A chunk split again is a document of its own: the keys that described it
// as a unit (its gap, embed text, section) do not reach its pieces.
func TestSplitAgain(t *testing.T) {
	ctx := context.Background()
	tok, _ := tokencount.Encoding("cl100k_base")
	dec, _ := contextheader.New(contextheader.Config{Tokenizer: tok})
	s, _ := langchaingo.NewSplitter(langchaingo.SplitterConfig{Chunker: newChunker(t, 30), Decorator: dec})
	first, err := s.SplitDocuments(ctx, []schema.Document{{PageContent: testdoc.Policy, Metadata: map[string]any{meta.DocIDKey: "travel"}}})
	if err != nil {
		t.Fatal(err)
	}
	src := first[2]
	if src.Metadata[meta.NotesKey] == nil || src.Metadata[meta.EmbedTextKey] == nil {
		t.Fatalf("chunk 2 has no gap or embed text: %v", src.Metadata)
	}
	plain, _ := langchaingo.NewSplitter(langchaingo.SplitterConfig{Chunker: newChunker(t, 10)})
	again, err := plain.SplitDocuments(ctx, []schema.Document{src})
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range again {
		if _, ok := d.Metadata[meta.EmbedTextKey]; ok {
			t.Errorf("piece %d kept the embed text of the chunk it came from", i)
		}
		if i == 0 && d.Metadata[meta.NotesKey] != nil {
			t.Errorf("piece 0 has notes %q", d.Metadata[meta.NotesKey])
		}
		if d.Metadata[meta.StartKey].(int) > len(src.PageContent) {
			t.Errorf("piece %d: offsets not into its document", i)
		}
	}
}
