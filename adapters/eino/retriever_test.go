package eino_test

import (
	"context"
	"errors"
	"testing"

	"github.com/cloudwego/eino/components/retriever"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/ragkit/ragkit/adapters/eino"
	"github.com/ragkit/ragkit/adapters/internal/testdoc"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
)

var _ retriever.Retriever = (*eino.PassageRetriever)(nil)

func indexPolicy(t *testing.T, p parts) {
	t.Helper()
	ctx := context.Background()
	docs, err := p.tr.Transform(ctx, []*schema.Document{
		{ID: "travel", Content: testdoc.Policy, MetaData: map[string]any{"lang": "en"}},
		{ID: "other", Content: "Meals on trains are not refunded.", MetaData: map[string]any{"lang": "de"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ix.Store(ctx, docs); err != nil {
		t.Fatal(err)
	}
}

func TestPassageRetriever(t *testing.T) {
	ctx := context.Background()
	p := newParts(t)
	indexPolicy(t, p)
	r, err := retrieve.New(retrieve.Config{Store: p.mem, Embedder: p.lex, Passages: 3})
	if err != nil {
		t.Fatal(err)
	}
	question := "meals refunded euros"
	want, err := r.Retrieve(ctx, question)
	if err != nil {
		t.Fatal(err)
	}
	chain, err := compose.NewChain[string, []*schema.Document]().AppendRetriever(eino.NewPassageRetriever(r)).Compile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := chain.Invoke(ctx, question)
	if err != nil || len(docs) != len(want) {
		t.Fatalf("%d docs for %d passages, %v", len(docs), len(want), err)
	}
	for i, d := range docs {
		if d.Content != want[i].Text || float32(d.Score()) != want[i].Score || d.ID != want[i].Hits[0].ID || d.MetaData[meta.ScoreKindKey] != "Fused" {
			t.Errorf("doc %d: %s %q %v %v", i, d.ID, d.Content, d.Score(), d.MetaData)
		}
	}
	back, err := eino.Passages(docs)
	if err != nil || back[0].DocID != want[0].DocID || back[0].First != want[0].First || back[0].Hits[0].ID != want[0].Hits[0].ID {
		t.Errorf("Passages: %+v, %v", back, err)
	}

	pr := eino.NewPassageRetriever(r)
	one, err := pr.Retrieve(ctx, question, retriever.WithTopK(1))
	if err != nil || len(one) != 1 || one[0].ID != docs[0].ID {
		t.Errorf("TopK 1: %v, %v", one, err)
	}
	de, err := pr.Retrieve(ctx, question, eino.WithFilter(map[string]any{"lang": "de"}))
	if err != nil || len(de) != 1 || de[0].MetaData[meta.DocIDKey] != "other" {
		t.Errorf("filter: %v, %v", de, err)
	}
	// A query embedded by an eino embedder gives the same passages.
	same, err := pr.Retrieve(ctx, question, retriever.WithEmbedding(eino.NewEmbedder(p.lex)))
	if err != nil || len(same) != len(docs) || same[0].ID != docs[0].ID {
		t.Errorf("WithEmbedding: %v, %v", same, err)
	}
	for name, opts := range map[string][]retriever.Option{
		"threshold on fused": {retriever.WithScoreThreshold(0.01)},
		"index":              {retriever.WithIndex("i")},
		"dsl":                {retriever.WithDSLInfo(map[string]any{})},
		"operator":           {eino.WithFilter(map[string]any{"lang": map[string]any{"$ne": "de"}})},
	} {
		if _, err := pr.Retrieve(ctx, question, opts...); !errors.Is(err, meta.ErrUnsupported) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := pr.Retrieve(ctx, question, retriever.WithTopK(0)); !errors.Is(err, vectorstore.ErrInvalidArgument) {
		t.Errorf("TopK 0: %v", err)
	}
	// A filter on a Retriever that has one narrows it.
	filtered, _ := retrieve.New(retrieve.Config{Store: p.mem, Embedder: p.lex, Filter: vectorstore.Filter{DocIDs: []string{"travel"}}})
	if en, err := eino.NewPassageRetriever(filtered).Retrieve(ctx, question, eino.WithFilter(map[string]any{"lang": "en"})); err != nil || len(en) == 0 || en[0].MetaData[meta.DocIDKey] != "travel" {
		t.Errorf("second filter: %v, %v", en, err)
	}
	if de, err := eino.NewPassageRetriever(filtered).Retrieve(ctx, question, eino.WithFilter(map[string]any{"lang": "de"})); err != nil || len(de) != 0 {
		t.Errorf("second filter matching none: %v, %v", de, err)
	}
	// A Vector search gives cosine similarities: a threshold applies.
	vec, _ := retrieve.New(retrieve.Config{Store: p.mem, Embedder: p.lex, Search: retrieve.Vector})
	all, err := eino.NewPassageRetriever(vec).Retrieve(ctx, question)
	if err != nil || len(all) < 2 || all[0].MetaData[meta.ScoreKindKey] != "Cosine" {
		t.Fatalf("vector: %v, %v", all, err)
	}
	th := (all[0].Score() + all[1].Score()) / 2
	kept, err := eino.NewPassageRetriever(vec).Retrieve(ctx, question, retriever.WithScoreThreshold(th))
	if err != nil || len(kept) != 1 {
		t.Errorf("threshold on cosine: %v, %v", kept, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := pr.Retrieve(cctx, question); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
