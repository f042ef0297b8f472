package pgvector

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
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
	title      text NOT NULL,
	section    text[] NOT NULL,
	source     text NOT NULL,
	location   jsonb NOT NULL,
	notes      jsonb NOT NULL,
	embedding  vector(%d) NOT NULL,
	tsv        tsvector GENERATED ALWAYS AS (to_tsvector(%s::regconfig, text || ' ' || coalesce(notes->>'keywords', ''))) STORED
)`, s.table, c.Dimension, quoteLiteral(c.TextSearch)),
		fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s (doc_id, idx, id)", index("_doc"), s.table),
		fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s USING gin (metadata jsonb_path_ops)", index("_metadata"), s.table),
		fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s (source)", index("_source"), s.table),
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

// MigrationSQL returns the statements that bring a table made before
// records had provenance and notes (ragkit before v0.1) up to
// [Store.SchemaSQL]'s layout: the new columns, the library's metadata
// keys moved out of metadata into them, and the tsv column made again to
// read the notes. Run them in one transaction; they rewrite the table.
func (s *Store) MigrationSQL() []string {
	t := s.table
	return []string{
		"ALTER TABLE " + t + ` ADD COLUMN IF NOT EXISTS title text NOT NULL DEFAULT '',
	ADD COLUMN IF NOT EXISTS section text[] NOT NULL DEFAULT '{}',
	ADD COLUMN IF NOT EXISTS source text NOT NULL DEFAULT '',
	ADD COLUMN IF NOT EXISTS location jsonb NOT NULL DEFAULT '{}',
	ADD COLUMN IF NOT EXISTS notes jsonb NOT NULL DEFAULT '{}'`,
		"UPDATE " + t + ` SET title = coalesce(metadata->>'document.title', ''),
	section = coalesce(string_to_array(nullif(metadata->>'document.section', ''), E'\n'), '{}'),
	source = coalesce(metadata->>'loader.path', ''),
	notes = jsonb_strip_nulls(jsonb_build_object('keywords', metadata->>'vectorstore.keywords',
		'gap', metadata->>'window.gap', 'embed', metadata->>'ingest.embed', 'fingerprint', metadata->>'ingest.doc',
		'summary', metadata->>'ingest.summary', 'summary_of', metadata->>'ingest.summary.of')),
	metadata = metadata - ARRAY['document.title', 'document.section', 'loader.path', 'vectorstore.keywords',
		'window.gap', 'ingest.embed', 'ingest.doc', 'ingest.summary', 'ingest.summary.of']`,
		"ALTER TABLE " + t + " DROP COLUMN IF EXISTS tsv",
		fmt.Sprintf("ALTER TABLE %s ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector(%s::regconfig, text || ' ' || coalesce(notes->>'keywords', ''))) STORED", t, quoteLiteral(s.cfg.TextSearch)),
		fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s USING gin (tsv)", pgx.Identifier{s.cfg.Table + "_tsv"}.Sanitize(), t),
		fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s (source)", pgx.Identifier{s.cfg.Table + "_source"}.Sanitize(), t),
	}
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
		"text": "text", "metadata": "jsonb", "title": "text", "section": "text[]", "source": "text",
		"location": "jsonb", "notes": "jsonb", "embedding": fmt.Sprintf("vector(%d)", s.cfg.Dimension), "tsv": "tsvector",
	}
	for _, col := range slices.Sorted(maps.Keys(want)) {
		if got, ok := have[col]; !ok || got != want[col] {
			return fmt.Errorf("%w: %s: column %s is %q, want %s", ErrSchema, s.table, col, got, want[col])
		}
	}
	return nil
}
