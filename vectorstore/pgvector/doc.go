// Package pgvector is a [vectorstore.VectorStore] in PostgreSQL with the
// pgvector extension, for when one process's memory is no longer the
// place for the index: several services share it, it must outlive a
// deploy, or it outgrows a machine. It passes the conformance suite of
// [github.com/ragkit/ragkit/vectorstore/storetest], as
// [memory.Store] does, so code written against one works with the
// other.
//
// # The table
//
// A [Store] keeps one record per row of one table ([Config.Table],
// quoted, so any name is safe), made by [Store.CreateSchema] or by hand
// from [Store.SchemaSQL]:
//
//	CREATE EXTENSION IF NOT EXISTS vector;
//	CREATE TABLE IF NOT EXISTS ragkit_records (
//		id         text PRIMARY KEY,    -- Record.ID
//		doc_id     text NOT NULL,       -- Record.DocID
//		idx        bigint NOT NULL,     -- Record.Index
//		start_byte bigint NOT NULL,     -- Record.Start
//		end_byte   bigint NOT NULL,     -- Record.End
//		text       text NOT NULL,       -- Record.Text
//		metadata   jsonb NOT NULL,      -- Record.Metadata, {} when empty
//		embedding  vector(384) NOT NULL, -- Record.Vector at unit length; Config.Dimension
//		tsv        tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig,
//		           text || ' ' || coalesce(metadata->>'vectorstore.keywords', ''))) STORED
//	);
//	CREATE INDEX IF NOT EXISTS ragkit_records_doc ON ragkit_records (doc_id, idx, id);
//	CREATE INDEX IF NOT EXISTS ragkit_records_metadata ON ragkit_records USING gin (metadata jsonb_path_ops);
//	CREATE INDEX IF NOT EXISTS ragkit_records_tsv ON ragkit_records USING gin (tsv);
//	-- with Config.HNSW only:
//	CREATE INDEX IF NOT EXISTS ragkit_records_hnsw ON ragkit_records USING hnsw (embedding vector_cosine_ops);
//
// [Store.CheckSchema] checks a table made otherwise.
//
// # How the methods map onto SQL
//
// [Store.Upsert] writes batches of [Config.BatchSize] records, each one
// INSERT ... SELECT FROM unnest($1::text[], ...) ON CONFLICT (id) DO
// UPDATE, all in one transaction. [Store.Query] is ORDER BY embedding <=>
// $1 LIMIT k, with the [vectorstore.Filter] in the WHERE clause (doc_id =
// ANY($2), metadata @> $3); the score is 1 minus the cosine distance.
// [Store.Range] is a scan of the (doc_id, idx, id) index.
// [Store.ReplaceDocument] deletes and inserts in one transaction, so no
// reader sees a document half replaced. [Store.QueryKeywords] is
// PostgreSQL's full-text search over the tsv column (the text and the
// notes' Keywords, [vectorstore.Notes]), ranked by ts_rank, so that
// package retrieve's Retriever fuses it with the vector search. A record's
// provenance is in columns of its own (title, section as text[], source,
// location as JSONB) and the library's notes in a JSONB column, apart
// from the caller's metadata: a Filter's Sources and Section are
// source = ANY(...) and a comparison of the section's first headings. A
// table made before records had provenance lacks those columns, and
// [Store.CheckSchema] refuses it; the statements that bring it up to date
// are [MigrationSQL]'s. Every method passes its context to pgx and stops
// when it is cancelled.
//
// Records are checked with [vectorstore.CheckRecords], so this store
// refuses what [memory.Store] refuses, plus strings holding a NUL
// byte, which PostgreSQL's text type cannot store. Errors wrap the
// vectorstore sentinels ([vectorstore.ErrNotFound],
// [vectorstore.ErrInvalidArgument], ...), [ErrSchema] when the table is
// missing or different, and the driver's error (test with [errors.As]
// for a *pgconn.PgError).
//
// # Exact or approximate
//
// Without [Config.HNSW] a query is an exact scan, whose results match
// [memory.Store]'s; its cost grows with the table. With it,
// PostgreSQL answers from the HNSW index in time that grows slowly with
// the table, at a recall below 1 that its ef_search setting trades
// against speed (see pgvector's documentation). The repository's
// benchmarks/README.md has the measured figures and when to move from
// Memory to PostgreSQL (https://github.com/ragkit/ragkit/blob/main/benchmarks/README.md#memory-or-postgresql).
//
// # Tests
//
// The tests run against the server whose connection URL is in the
// environment variable RAGKIT_PGVECTOR_URL (any PostgreSQL with pgvector;
// each test makes a table of its own and drops it), and are skipped when
// it is not set, unless CI is set. The repository's .ci/run starts PGlite
// (PostgreSQL compiled to WebAssembly, with pgvector) from npm for them.
package pgvector
