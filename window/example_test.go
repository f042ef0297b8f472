package window_test

import (
	"context"
	"fmt"
	"log"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

const lighthouse = "The keeper rose before dawn. He trimmed the wick and polished the lens. " +
	"Ships passed the headland at night. Sailors counted the flashes to know the light. " +
	"In winter storms the keeper stayed awake for days. The supply boat came once a month."

// index embeds the sentence units of a document into a new store, as
// package ingest does.
func index(ctx context.Context, docID, text string) (*memory.Store, vectorstore.Embedder) {
	emb := &lexical.Embedder{}
	store := &memory.Store{}
	ix, err := ingest.New(ingest.Config{Split: ingest.Sentences, Embedder: emb, Store: store})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := ix.Index(ctx, document.Document{ID: docID, Text: text}); err != nil {
		log.Fatal(err)
	}
	return store, emb
}

func Example() {
	ctx := context.Background()
	store, emb := index(ctx, "lighthouse", lighthouse)

	q, err := emb.Embed(ctx, []string{"what did sailors count"})
	if err != nil {
		log.Fatal(err)
	}
	hits, err := store.Query(ctx, q[0], 1, vectorstore.Filter{})
	if err != nil {
		log.Fatal(err)
	}
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		log.Fatal(err)
	}
	e, err := window.NewExpander(window.ExpanderConfig{Source: store, Size: 1, Tokenizer: tok})
	if err != nil {
		log.Fatal(err)
	}
	windows, err := e.Expand(ctx, hits)
	if err != nil {
		log.Fatal(err)
	}
	for _, w := range windows {
		fmt.Printf("hit %d, units %d-%d, %d tokens:\n%s\n", w.Hits[0].Index, w.First, w.Last, w.Tokens, w.Text)
	}
	// Output:
	// hit 3, units 2-4, 29 tokens:
	// Ships passed the headland at night. Sailors counted the flashes to know the light. In winter storms the keeper stayed awake for days.
}

func ExampleExpander_merge() {
	ctx := context.Background()
	store, _ := index(ctx, "lighthouse", lighthouse)
	units, _ := store.Range(ctx, "lighthouse", 0, 5)
	e, err := window.NewExpander(window.ExpanderConfig{Source: store, Size: 1})
	if err != nil {
		log.Fatal(err)
	}
	// Two hits two sentences apart: their windows touch and become one.
	windows, err := e.Expand(ctx, []vectorstore.Hit{{Record: units[1], Score: .8}, {Record: units[3], Score: .6}})
	if err != nil {
		log.Fatal(err)
	}
	for _, w := range windows {
		fmt.Println(w.First, w.Last, len(w.Hits))
	}
	// Output:
	// 0 4 2
}

func ExampleExtractor() {
	ctx := context.Background()
	store, _ := index(ctx, "lighthouse", lighthouse)
	units, _ := store.Range(ctx, "lighthouse", 0, 5)
	// Hits ranked 1, 2 and 3: the first two are one sentence apart, the
	// third three sentences further on.
	hits := []vectorstore.Hit{{Record: units[0], Score: .9}, {Record: units[2], Score: .8}, {Record: units[5], Score: .7}}
	for _, p := range []window.Preset{window.Precision, window.Recall} {
		x, err := window.NewExtractor(window.ExtractorConfig{Source: store, Preset: p})
		if err != nil {
			log.Fatal(err)
		}
		segments, err := x.Extract(ctx, hits)
		if err != nil {
			log.Fatal(err)
		}
		for _, s := range segments {
			fmt.Printf("%v: units %d-%d, value %.2f\n", p, s.First, s.Last, s.Value)
		}
	}
	// Output:
	// Precision: units 0-2, value 1.04
	// Recall: units 0-5, value 2.37
}

// Records that carry their section path (ingest writes it in each
// record's Section) keep windows inside their sections, whatever kind of
// heading opened them: here a plain-text heading line.
func ExampleExpanderConfig_withinSections() {
	ctx := context.Background()
	units := []struct{ text, section string }{
		{"SAFETY", "SAFETY"},
		{"Wear gloves.", "SAFETY"},
		{"COST", "COST"},
		{"Gloves cost two pounds.", "COST"},
		{"Boots cost more.", "COST"},
	}
	var store memory.Store
	for i, u := range units {
		err := store.Upsert(ctx, vectorstore.Record{ID: fmt.Sprint(i), DocID: "guide", Index: i, Text: u.text,
			Vector: []float32{1, float32(i)}, Section: []string{u.section}})
		if err != nil {
			log.Fatal(err)
		}
	}
	hit := vectorstore.Hit{Record: vectorstore.Record{ID: "1", DocID: "guide", Index: 1}, Score: 1}
	for _, within := range []bool{false, true} {
		e, err := window.NewExpander(window.ExpanderConfig{Source: &store, Size: 2, Separator: " / ", WithinSections: within})
		if err != nil {
			log.Fatal(err)
		}
		ws, err := e.Expand(ctx, []vectorstore.Hit{hit})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("WithinSections %v: %s\n", within, ws[0].Text)
	}
	// Output:
	// WithinSections false: SAFETY / Wear gloves. / COST / Gloves cost two pounds.
	// WithinSections true: SAFETY / Wear gloves.
}
