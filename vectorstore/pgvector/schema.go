package pgvector

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/ragkit/ragkit/vectorstore"
)

// SchemaSQL returns the statements that [Store.CreateSchema] runs, for a
// DBA who creates the table by hand (the HNSW index only if
// [Config.HNSW] is set). Each is idempotent.
func (s *Store) SchemaSQL() []string {
	c := s.cfg
	index := func(suffix string) string { return pgx.Identifier{c.Table + suffix}.Sanitize() }
	stmts := []string{
		"CREATE EXTENSION IF NOT EXISTS vector",
		fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s (
	id         text PRIMARY KEY,
	doc_id     text NOT NULL,
	idx        bigint NOT NULL,
	start_byte bigint NOT NULL,
	end_byte   bigint NOT NULL,
	text       text NOT NULL,
	metadata   jsonb NOT NULL,
	embedding  vector(%d) NOT NULL,
	tsv        tsvector GENERATED ALWAYS AS (to_tsvector(%s::regconfig, text || ' ' || coalesce(metadata->>%s, ''))) STORED
)`, s.table, c.Dimension, quoteLiteral(c.TextSearch), quoteLiteral(vectorstore.KeywordsKey)),
		fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s (doc_id, idx, id)", index("_doc"), s.table),
		fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s USING gin (metadata jsonb_path_ops)", index("_metadata"), s.table),
		fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s USING gin (tsv)", index("_tsv"), s.table),
	}
	if c.HNSW {
		var with []string
		if c.HNSWM > 0 {
			with = append(with, fmt.Sprintf("m = %d", c.HNSWM))
		}
		if c.HNSWEfConstruction > 0 {
			with = append(with, fmt.Sprintf("ef_construction = %d", c.HNSWEfConstruction))
		}
		stmt := fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s USING hnsw (embedding vector_cosine_ops)", index("_hnsw"), s.table)
		if len(with) > 0 {
			stmt += " WITH (" + strings.Join(with, ", ") + ")"
		}
		stmts = append(stmts, stmt)
	}
	return stmts
}

// quoteLiteral quotes s as an SQL string literal (standard conforming
// strings, PostgreSQL's default since 9.1).
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// CreateSchema creates the pgvector extension, the table and its indexes
// if they do not exist, in one transaction, and then checks the table
// with [Store.CheckSchema] (a table that existed may have another
// layout).
func (s *Store) CreateSchema(ctx context.Context) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	for _, stmt := range s.SchemaSQL() {
		if _, err := tx.Exec(ctx, stmt); err != nil {
			return s.wrap("create schema of", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return s.wrap("create schema of", err)
	}
	return s.CheckSchema(ctx)
}

// CheckSchema checks that the table exists and has the columns of
// [Store.SchemaSQL] with their types (vector of the configured
// dimension); other columns are allowed. A table that does not match
// gives an error wrapping [ErrSchema].
func (s *Store) CheckSchema(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	rows, err := s.pool.Query(ctx, `SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
		WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`, s.table)
	if err != nil {
		return s.wrap("check schema of", err)
	}
	have := map[string]string{}
	var name, typ string
	_, err = pgx.ForEachRow(rows, []any{&name, &typ}, func() error {
		have[name] = typ
		return nil
	})
	if err != nil {
		return s.wrap("check schema of", err)
	}
	want := map[string]string{
		"id": "text", "doc_id": "text", "idx": "bigint", "start_byte": "bigint", "end_byte": "bigint",
		"text": "text", "metadata": "jsonb", "embedding": fmt.Sprintf("vector(%d)", s.cfg.Dimension), "tsv": "tsvector",
	}
	for _, col := range slices.Sorted(maps.Keys(want)) {
		if got, ok := have[col]; !ok || got != want[col] {
			return fmt.Errorf("%w: %s: column %s is %q, want %s", ErrSchema, s.table, col, got, want[col])
		}
	}
	return nil
}
