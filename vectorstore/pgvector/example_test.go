package pgvector_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/pgvector"
)

// Example stores two records in PostgreSQL and finds the nearest to a
// vector. It needs a server, so go test compiles it without running it.
func Example() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()
	store, err := pgvector.New(pgvector.Config{Pool: pool, Dimension: 3, Table: "docs"})
	if err != nil {
		log.Fatal(err)
	}
	if err := store.CreateSchema(ctx); err != nil { // or CheckSchema, for a table made by a DBA
		log.Fatal(err)
	}
	err = store.Upsert(ctx,
		vectorstore.Record{ID: "a-0", DocID: "a", Index: 0, Start: 0, End: 11, Text: "first unit.", Vector: []float32{1, 0, 0},
			Metadata: map[string]string{"lang": "en"}},
		vectorstore.Record{ID: "a-1", DocID: "a", Index: 1, Start: 12, End: 24, Text: "second unit.", Vector: []float32{0, 1, 0},
			Metadata: map[string]string{"lang": "en"}},
	)
	if err != nil {
		log.Fatal(err)
	}
	hits, err := store.Query(ctx, []float32{0.9, 0.1, 0}, 1, vectorstore.Filter{Metadata: map[string]string{"lang": "en"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Printf("%s %.3f %q\n", h.ID, h.Score, h.Text)
	}
}
