package memory_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

func Example() {
	ctx := context.Background()
	emb, _ := lexical.New(lexical.Config{})
	store, _ := memory.New(memory.Config{})

	units := []string{
		"Lucy Honeychurch travels to Florence with her cousin Charlotte.",
		"At the Pension Bertolini they are given rooms without a view.",
		"Mr Emerson offers to exchange rooms so that the ladies can see the Arno.",
	}
	vecs, _ := emb.Embed(ctx, units)
	for i, text := range units {
		store.Upsert(ctx, vectorstore.Record{
			ID: fmt.Sprintf("room-%d", i), DocID: "room", Index: i, Text: text, Vector: vecs[i],
		})
	}

	q, _ := emb.Embed(ctx, []string{"who offers to exchange rooms?"})
	hits, _ := store.Query(ctx, q[0], 1, vectorstore.Filter{})
	fmt.Println(hits[0].ID, hits[0].Text)

	// The neighbours of the hit, for a sentence window.
	window, _ := store.Range(ctx, hits[0].DocID, hits[0].Index-1, hits[0].Index+1)
	for _, r := range window {
		fmt.Println(r.Index, r.ID)
	}
	// Output:
	// room-2 Mr Emerson offers to exchange rooms so that the ladies can see the Arno.
	// 1 room-1
	// 2 room-2
}

func ExampleStore_ReplaceDocument() {
	ctx := context.Background()
	store, _ := memory.New(memory.Config{})
	store.Upsert(ctx,
		vectorstore.Record{ID: "a-0", DocID: "a", Index: 0, Text: "old first", Vector: []float32{1, 0}},
		vectorstore.Record{ID: "a-1", DocID: "a", Index: 1, Text: "old second", Vector: []float32{0, 1}},
	)
	// Re-index document "a": readers see the old units or the new one,
	// never some of each.
	store.ReplaceDocument(ctx, "a",
		vectorstore.Record{ID: "a-0-v2", DocID: "a", Index: 0, Text: "new only", Vector: []float32{1, 1}},
	)
	units, _ := store.Range(ctx, "a", 0, 10)
	for _, u := range units {
		fmt.Println(u.ID, u.Text)
	}
	fmt.Println(store.Len())
	// Output:
	// a-0-v2 new only
	// 1
}

func ExampleStore_Query_filter() {
	ctx := context.Background()
	store, _ := memory.New(memory.Config{})
	store.Upsert(ctx,
		vectorstore.Record{ID: "en", DocID: "guide", Vector: []float32{1, 0.1}, Metadata: map[string]string{"lang": "en"}},
		vectorstore.Record{ID: "de", DocID: "guide", Index: 1, Vector: []float32{1, 0}, Metadata: map[string]string{"lang": "de"}},
	)
	hits, _ := store.Query(ctx, []float32{1, 0}, 5, vectorstore.Filter{Metadata: map[string]string{"lang": "en"}})
	for _, h := range hits {
		fmt.Printf("%s %.3f\n", h.ID, h.Score)
	}
	// Output:
	// en 0.995
}

func ExampleLoad() {
	ctx := context.Background()
	store, _ := memory.New(memory.Config{})
	store.Upsert(ctx, vectorstore.Record{ID: "x", DocID: "d", Text: "kept", Vector: []float32{3, 4}})

	var file bytes.Buffer // or use SaveFile and LoadFile
	store.Save(ctx, &file)
	loaded, _ := memory.Load(ctx, &file, memory.Config{})
	r, _ := loaded.Get(ctx, "x")
	fmt.Println(r.Text, r.Vector)

	// Damaged data is refused whole.
	_, err := memory.Load(ctx, strings.NewReader("RAGKITVS and then garbage"), memory.Config{})
	fmt.Println(err)
	// Output:
	// kept [0.6 0.8]
	// memory: data is truncated or corrupt: data ends early at byte 25
}

// A sentence window reads a hit's neighbours with Range, and rebuilds the
// original text from their offsets; a query's hits carry no vectors.
func ExampleStore_Range() {
	ctx := context.Background()
	doc := "Lucy travels to Florence. The rooms have no view. Mr Emerson offers his."
	store, _ := memory.New(memory.Config{})
	for i, sentence := range []string{"Lucy travels to Florence.", "The rooms have no view.", "Mr Emerson offers his."} {
		start := strings.Index(doc, sentence)
		store.Upsert(ctx, vectorstore.Record{
			ID: fmt.Sprintf("room-%d", i), DocID: "room", Index: i,
			Start: start, End: start + len(sentence), Text: sentence, Vector: []float32{1, float32(i)},
		})
	}

	hits, err := store.Query(ctx, []float32{1, 2}, 1, vectorstore.Filter{})
	if err != nil {
		panic(err)
	}
	units, err := store.Range(ctx, "room", hits[0].Index-1, hits[0].Index+1)
	if err != nil {
		panic(err)
	}
	first, last := units[0], units[len(units)-1]
	fmt.Printf("%q\n", doc[first.Start:last.End]) // the original text, spaces and all
	fmt.Println(hits[0].Vector == nil, len(first.Vector))
	// Output:
	// "The rooms have no view. Mr Emerson offers his."
	// true 2
}

// A keyword search finds an identifier by its words, where a vector
// search ranks by overall likeness.
func ExampleStore_QueryKeywords() {
	ctx := context.Background()
	emb, _ := lexical.New(lexical.Config{})
	store, _ := memory.New(memory.Config{})
	units := []string{
		"Planning application 24/01234 for a two-storey extension was approved.",
		"The council refused several planning applications for extensions this year.",
		"Der Antrag für das Café am Marktplatz wurde abgelehnt.",
	}
	vecs, _ := emb.Embed(ctx, units)
	for i, text := range units {
		store.Upsert(ctx, vectorstore.Record{
			ID: fmt.Sprintf("u%d", i), DocID: "minutes", Index: i, Text: text, Vector: vecs[i],
		})
	}

	hits, _ := store.QueryKeywords(ctx, "what happened to 24/01234?", 3, vectorstore.Filter{})
	for _, h := range hits {
		fmt.Printf("%s %.3f\n", h.ID, h.Score)
	}
	hits, _ = store.QueryKeywords(ctx, "CAFÉ", 3, vectorstore.Filter{}) // case-folded
	fmt.Println(hits[0].ID)
	hits, _ = store.QueryKeywords(ctx, "the of and", 3, vectorstore.Filter{}) // only stop words
	fmt.Println(len(hits))
	// Output:
	// u0 1.927
	// u2
	// 0
}

// A filter with a Where condition: a list of values, a numeric range and
// a time range over metadata, and a value that is not a number ("n/a"),
// which no range lets through.
func ExampleFilter_where() {
	ctx := context.Background()
	var store memory.Store
	rec := func(id, dept, year, updated string) vectorstore.Record {
		return vectorstore.Record{ID: id, DocID: id, Vector: []float32{1, float32(len(id))},
			Metadata: map[string]string{"dept": dept, "year": year, "updated": updated}}
	}
	store.Upsert(ctx,
		rec("handbook", "hr", "2023", "2025-01-10T09:00:00Z"),
		rec("payroll", "hr", "2019", "2025-02-01T12:00:00+01:00"),
		rec("laptops", "it", "2024", "2024-11-30T23:59:59Z"),
		rec("vpn", "it", "n/a", "2025-03-05T08:00:00Z"),
		rec("contracts", "legal", "2022", "2025-01-20T10:00:00Z"),
	)
	filter := vectorstore.Filter{Where: vectorstore.And(
		vectorstore.In("dept", "hr", "it"),
		vectorstore.Or(
			vectorstore.Between("year", 2020, 2024),
			vectorstore.TimeBetween("updated", time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.Time{}),
		),
	)}
	hits, _ := store.Query(ctx, []float32{1, 0}, 10, filter)
	for _, h := range hits {
		fmt.Println(h.ID, h.Metadata["dept"], h.Metadata["year"])
	}
	deep := vectorstore.Exists("dept")
	for range vectorstore.MaxFilterDepth {
		deep = vectorstore.Not(deep)
	}
	_, err := store.Query(ctx, []float32{1, 0}, 10, vectorstore.Filter{Where: deep})
	fmt.Println(errors.Is(err, vectorstore.ErrInvalidArgument))
	// Output:
	// vpn it n/a
	// laptops it 2024
	// handbook hr 2023
	// true
}
