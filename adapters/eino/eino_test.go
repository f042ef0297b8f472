package eino_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/cloudwego/eino/components/document"
	"github.com/cloudwego/eino/components/embedding"
	"github.com/cloudwego/eino/components/indexer"
	"github.com/cloudwego/eino/components/retriever"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/ragkit/ragkit/adapters/eino"
	"github.com/ragkit/ragkit/adapters/internal/testdoc"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/chunker"
	rkdoc "github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// The adapters are eino's interfaces and ragkit's, at compile time.
var (
	_ document.Transformer = (*eino.Transformer)(nil)
	_ indexer.Indexer      = (*eino.Indexer)(nil)
	_ retriever.Retriever  = (*eino.Retriever)(nil)
	_ embedding.Embedder   = eino.NewEmbedder(nil)
	_ vectorstore.Embedder = eino.RagkitEmbedder(nil)
)

type parts struct {
	mem *memory.Store
	lex *lexical.Embedder
	tr  *eino.Transformer
	ix  *eino.Indexer
	rt  *eino.Retriever
}

func newParts(t testing.TB) parts {
	t.Helper()
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 30, Format: rkdoc.Markdown})
	if err != nil {
		t.Fatal(err)
	}
	p := parts{mem: new(memory.Store)}
	if p.lex, err = lexical.New(lexical.Config{}); err != nil {
		t.Fatal(err)
	}
	if p.tr, err = eino.NewTransformer(eino.TransformerConfig{Chunker: c}); err != nil {
		t.Fatal(err)
	}
	cfg := eino.StoreConfig{Store: p.mem, Embedder: p.lex}
	if p.ix, err = eino.NewIndexer(cfg); err != nil {
		t.Fatal(err)
	}
	if p.rt, err = eino.NewRetriever(cfg); err != nil {
		t.Fatal(err)
	}
	return p
}

// Documents go through eino's own chains: transform and index, then retrieve.
func TestChains(t *testing.T) {
	ctx := context.Background()
	p := newParts(t)
	index, err := compose.NewChain[[]*schema.Document, []string]().
		AppendDocumentTransformer(p.tr).AppendIndexer(p.ix).Compile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	in := &schema.Document{ID: "travel", Content: testdoc.Policy, MetaData: map[string]any{"year": 2024}}
	ids, err := index.Invoke(ctx, []*schema.Document{in.WithDenseVector([]float64{1, 2})})
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) < 3 || ids[0] != "travel#0" || p.mem.Len() != len(ids) {
		t.Fatalf("ids %v, %d records", ids, p.mem.Len())
	}
	// The chunks were embedded (the whole document's dense vector was not copied to them).
	if p.mem.Config().Dimension != p.lex.Config().Dimension {
		t.Errorf("dimension %d", p.mem.Config().Dimension)
	}
	recs, err := p.mem.Range(ctx, "travel", 0, 100)
	if err != nil || len(recs) != len(ids) {
		t.Fatalf("Range: %d, %v", len(recs), err)
	}
	for i, r := range recs {
		if r.Index != i || testdoc.Policy[r.Start:r.End] != r.Text || r.Metadata["year"] != "2024" {
			t.Errorf("record %d: %+v", i, r)
		}
	}
	search, err := compose.NewChain[string, []*schema.Document]().AppendRetriever(p.rt).Compile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := search.Invoke(ctx, "meal allowance euros", compose.WithRetrieverOption(retriever.WithTopK(1)))
	if err != nil || len(docs) != 1 {
		t.Fatalf("%d docs, %v", len(docs), err)
	}
	d := docs[0]
	if d.MetaData[meta.DocIDKey] != "travel" || d.MetaData[meta.ScoreKindKey] != "Cosine" || d.Score() <= 0 || d.MetaData[meta.SectionKey] != "Travel policy\nMeals" {
		t.Errorf("doc %s: score %v, metadata %v", d.ID, d.Score(), d.MetaData)
	}
	// Read back and written again, a document is the same record.
	if _, err := p.ix.Store(ctx, docs); err != nil {
		t.Fatal(err)
	}
	again, _ := p.mem.Get(ctx, d.ID)
	if again.Text != d.Content || again.Index != d.MetaData[meta.IndexKey] || p.mem.Len() != len(ids) {
		t.Errorf("rewritten: %+v, %d records", again, p.mem.Len())
	}
}

func TestRetrieveOptions(t *testing.T) {
	ctx := context.Background()
	p := newParts(t)
	docs := []*schema.Document{
		{ID: "meals", Content: "The meal allowance is 45 euros a day.", MetaData: map[string]any{"year": 2024}},
		{ID: "hotels", Content: "Hotels cost at most 150 euros a night.", MetaData: map[string]any{"year": 2023}},
	}
	if _, err := p.ix.Store(ctx, docs); err != nil {
		t.Fatal(err)
	}
	all, err := p.rt.Retrieve(ctx, "meal allowance euros")
	if err != nil || len(all) != 2 || all[0].ID != "meals" {
		t.Fatalf("%v, %v", all, err)
	}
	ps, err := eino.Passages(all)
	if err != nil {
		t.Fatal(err)
	}
	var hits []vectorstore.Hit
	for _, p := range ps {
		if len(p.Hits) != 1 || p.Text != p.Hits[0].Text {
			t.Fatalf("passage %+v", p)
		}
		hits = append(hits, p.Hits[0])
	}
	qv, _ := p.lex.Embed(ctx, []string{"meal allowance euros"})
	want, _ := p.mem.Query(ctx, qv[0], eino.DefaultTopK, vectorstore.Filter{})
	if diff := cmp.Diff(want, hits, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(vectorstore.Record{}, "Vector")); diff != "" {
		t.Errorf("Passages (-store +adapter):\n%s", diff)
	}
	th := (all[0].Score() + all[1].Score()) / 2
	got, err := p.rt.Retrieve(ctx, "meal allowance euros", retriever.WithScoreThreshold(th))
	if err != nil || len(got) != 1 {
		t.Errorf("threshold: %v, %v", got, err)
	}
	got, err = p.rt.Retrieve(ctx, "meal allowance euros", eino.WithFilter(map[string]any{"year": 2023}))
	if err != nil || len(got) != 1 || got[0].ID != "hotels" {
		t.Errorf("filter: %v, %v", got, err)
	}
	// A list of values and a comparison map onto ragkit's In and Range.
	for _, f := range []map[string]any{{"year": []any{2023, 2022}}, {"year": map[string]any{"$lte": 2023.5, "$gt": 2022}}} {
		got, err = p.rt.Retrieve(ctx, "meal allowance euros", eino.WithFilter(f))
		if err != nil || len(got) != 1 || got[0].ID != "hotels" {
			t.Errorf("filter %v: %v, %v", f, got, err)
		}
	}
	// A query embedded by an eino embedder (here ragkit's, through eino's type).
	got, err = p.rt.Retrieve(ctx, "hotels", retriever.WithEmbedding(eino.NewEmbedder(p.lex)), retriever.WithTopK(1))
	if err != nil || len(got) != 1 || got[0].ID != "hotels" {
		t.Errorf("WithEmbedding: %v, %v", got, err)
	}
	for name, opts := range map[string][]retriever.Option{
		"index":     {retriever.WithIndex("i")},
		"sub index": {retriever.WithSubIndex("s")},
		"dsl":       {retriever.WithDSLInfo(map[string]any{"q": 1})},
		"threshold": {retriever.WithScoreThreshold(2)},
		"operator":  {eino.WithFilter(map[string]any{"year": map[string]any{"$ne": 2023}})},
		"empty":     {eino.WithFilter(map[string]any{"year": []any{}})},
	} {
		if _, err := p.rt.Retrieve(ctx, "euros", opts...); !errors.Is(err, meta.ErrUnsupported) {
			t.Errorf("%s: %v; want meta.ErrUnsupported", name, err)
		}
	}
	if _, err := p.rt.Retrieve(ctx, "euros", retriever.WithTopK(0)); !errors.Is(err, vectorstore.ErrInvalidArgument) {
		t.Errorf("TopK 0: %v", err)
	}
}

func TestIndexerRefuses(t *testing.T) {
	ctx := context.Background()
	p := newParts(t)
	withSub := (&schema.Document{ID: "a", Content: "a"}).WithSubIndexes([]string{"s"})
	sparse := (&schema.Document{ID: "b", Content: "b"}).WithSparseVector(map[int]float64{1: 1})
	nested := &schema.Document{ID: "c", Content: "c", MetaData: map[string]any{"tags": []string{"x"}}}
	huge := (&schema.Document{ID: "d", Content: "d"}).WithDenseVector([]float64{1, math.MaxFloat64})
	for name, docs := range map[string][]*schema.Document{"sub-indexes": {withSub}, "sparse": {sparse}, "nested": {nested}} {
		if _, err := p.ix.Store(ctx, docs); !errors.Is(err, meta.ErrUnsupported) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := p.ix.Store(ctx, []*schema.Document{huge}); !errors.Is(err, meta.ErrEmbedding) {
		t.Errorf("dense vector beyond float32: %v", err)
	}
	if _, err := p.ix.Store(ctx, []*schema.Document{{Content: "x"}}, indexer.WithSubIndexes([]string{"s"})); !errors.Is(err, meta.ErrUnsupported) {
		t.Errorf("WithSubIndexes: %v", err)
	}
	if _, err := p.ix.Store(ctx, []*schema.Document{nil}); err == nil {
		t.Error("nil document stored")
	}
	if p.mem.Len() != 0 {
		t.Errorf("%d records written by refused calls", p.mem.Len())
	}
}

func TestDenseVector(t *testing.T) {
	ctx := context.Background()
	p := newParts(t)
	d := (&schema.Document{ID: "v", Content: "vector given"}).WithDenseVector([]float64{0.1, 0.2, 0.3})
	if _, err := p.ix.Store(ctx, []*schema.Document{d}); err != nil {
		t.Fatal(err)
	}
	r, err := p.mem.Get(ctx, "v")
	if err != nil || len(r.Vector) != 3 || r.DocID != "v" {
		t.Fatalf("%+v, %v", r, err)
	}
	// The store keeps it at unit length; the direction is the document's.
	n := math.Sqrt(0.1*0.1 + 0.2*0.2 + 0.3*0.3)
	for i, x := range []float64{0.1, 0.2, 0.3} {
		if math.Abs(float64(r.Vector[i])-x/n) > 1e-6 {
			t.Errorf("component %d: %v; want %v", i, r.Vector[i], x/n)
		}
	}
}

type einoEmbedder func(ctx context.Context, texts []string, opts ...embedding.Option) ([][]float64, error)

func (f einoEmbedder) EmbedStrings(ctx context.Context, texts []string, opts ...embedding.Option) ([][]float64, error) {
	return f(ctx, texts, opts...)
}

func TestEmbedders(t *testing.T) {
	ctx := context.Background()
	lex, _ := lexical.New(lexical.Config{Dimension: 32})
	e := eino.NewEmbedder(lex)
	v64, err := e.EmbedStrings(ctx, []string{"a text", "b"})
	if err != nil || len(v64) != 2 {
		t.Fatal(err)
	}
	v32, _ := lex.Embed(ctx, []string{"a text", "b"})
	// There and back is exact for float32 values.
	back, err := eino.RagkitEmbedder(e).Embed(ctx, []string{"a text", "b"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range v32 {
		for j := range v32[i] {
			if float64(v32[i][j]) != v64[i][j] || back[i][j] != v32[i][j] {
				t.Fatalf("[%d][%d]: %v %v %v", i, j, v32[i][j], v64[i][j], back[i][j])
			}
		}
	}
	if _, err := e.EmbedStrings(ctx, []string{"a"}, embedding.WithModel("other")); !errors.Is(err, meta.ErrUnsupported) {
		t.Errorf("WithModel: %v", err)
	}
	// float64 to float32 rounds to nearest, within 2^-24 relative.
	x := 0.1234567890123
	got, err := eino.RagkitEmbedder(einoEmbedder(func(_ context.Context, texts []string, _ ...embedding.Option) ([][]float64, error) {
		return [][]float64{{x, 1}}, nil
	})).Embed(ctx, []string{"t"})
	if err != nil || math.Abs(float64(got[0][0])-x) > x*math.Pow(2, -24) {
		t.Errorf("rounding: %v, %v", got, err)
	}
	for name, v := range map[string][][]float64{"overflow": {{1e39}}, "nan": {{math.NaN()}}, "count": {{1}, {2}}} {
		_, err := eino.RagkitEmbedder(einoEmbedder(func(context.Context, []string, ...embedding.Option) ([][]float64, error) {
			return v, nil
		})).Embed(ctx, []string{"t"})
		if !errors.Is(err, meta.ErrEmbedding) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := newParts(t)
	if _, err := p.tr.Transform(ctx, []*schema.Document{{ID: "a", Content: testdoc.Policy}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Transform: %v", err)
	}
	if _, err := p.ix.Store(ctx, []*schema.Document{{ID: "a", Content: "a"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Store: %v", err)
	}
	if _, err := p.rt.Retrieve(ctx, "a"); !errors.Is(err, context.Canceled) {
		t.Errorf("Retrieve: %v", err)
	}
	if _, err := eino.NewEmbedder(p.lex).EmbedStrings(ctx, []string{"a"}); !errors.Is(err, context.Canceled) {
		t.Errorf("EmbedStrings: %v", err)
	}
}

func TestConfig(t *testing.T) {
	mem := new(memory.Store)
	lex, _ := lexical.New(lexical.Config{})
	for _, cfg := range []eino.StoreConfig{{}, {Store: mem}, {Store: mem, Embedder: lex, TopK: -1}} {
		if _, err := eino.NewRetriever(cfg); !errors.Is(err, eino.ErrConfig) {
			t.Errorf("NewRetriever(%+v): %v", cfg, err)
		}
		if _, err := eino.NewIndexer(cfg); !errors.Is(err, eino.ErrConfig) {
			t.Errorf("NewIndexer(%+v): %v", cfg, err)
		}
	}
	if _, err := eino.NewTransformer(eino.TransformerConfig{}); !errors.Is(err, eino.ErrConfig) {
		t.Errorf("NewTransformer: %v", err)
	}
}
