package pgvector

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/ragkit/ragkit/vectorstore"
)

// ErrSchema: the table is missing, or its layout is not the one the
// [Config] describes (another dimension, a missing column). The error
// also wraps the database's, if it gave one.
var ErrSchema = errors.New("pgvector: table does not match the configuration")

// ErrConfig: [New] refused a [Config]; the error names the field, its
// value and what is allowed.
var ErrConfig = errors.New("pgvector: invalid configuration")

// Defaults of [Config].
const (
	DefaultTable      = "ragkit_records"
	DefaultTextSearch = "english"
	DefaultBatchSize  = 1000
	// MaxDimension is the longest vector pgvector's vector type holds.
	MaxDimension = 16000
	// MaxHNSWDimension is the longest vector an HNSW index of the vector
	// type accepts.
	MaxHNSWDimension = 2000
	// maxName leaves room in PostgreSQL's 63-byte identifiers for the
	// suffixes of the index names.
	maxName = 48
)

// Config configures a [Store].
type Config struct {
	// Pool is the connection pool the store uses; it is required. The
	// store does not close it.
	Pool *pgxpool.Pool

	// Dimension is the length of every vector, 1 to [MaxDimension]; it
	// is required, as the column's type is vector(Dimension).
	Dimension int

	// Schema is the PostgreSQL schema of the table; empty means the
	// connection's search_path.
	Schema string

	// Table is the table's name, at most 48 bytes; empty means
	// [DefaultTable]. Names are quoted, so any name works, and case
	// matters.
	Table string

	// HNSW makes [Store.CreateSchema] add an HNSW index with cosine
	// distance (vector_cosine_ops), and makes Query order by distance
	// alone so that PostgreSQL can use it. Queries are then approximate,
	// as pgvector documents: a query may return fewer than k hits
	// (hnsw.ef_search, 40 by default, bounds how many; pgvector 0.8's
	// hnsw.iterative_scan setting lifts the bound when a filter is
	// selective). Without it, a query is an exact scan. Dimension is at
	// most [MaxHNSWDimension].
	HNSW bool

	// HNSWM and HNSWEfConstruction are the index's m and
	// ef_construction; zero means pgvector's defaults (16 and 64).
	HNSWM, HNSWEfConstruction int

	// TextSearch is the text search configuration of the full-text
	// index behind [Store.QueryKeywords] (a regconfig such as "english"
	// or "simple"); empty means [DefaultTextSearch].
	TextSearch string

	// BatchSize is the most records one INSERT writes; zero means
	// [DefaultBatchSize].
	BatchSize int
}

// Store is a [vectorstore.VectorStore] in a PostgreSQL table with pgvector.
// It implements [vectorstore.DocumentReplacer] and
// [vectorstore.KeywordQuerier] too. It is
// safe for concurrent use, as the pool is.
type Store struct {
	cfg   Config
	pool  *pgxpool.Pool
	table string // quoted, schema-qualified
	sql   statements
}

// New returns a store for the table cfg names. It does not touch the
// database: call [Store.CreateSchema] to create the table, or
// [Store.CheckSchema] to check one made by hand. A configuration it
// refuses gives an error wrapping [ErrConfig] that names the field.
func New(cfg Config) (*Store, error) {
	if err := resolve(&cfg); err != nil {
		return nil, err
	}
	s := &Store{cfg: cfg, pool: cfg.Pool}
	s.table = pgx.Identifier{cfg.Table}.Sanitize()
	if cfg.Schema != "" {
		s.table = pgx.Identifier{cfg.Schema, cfg.Table}.Sanitize()
	}
	s.sql = newStatements(s.table, cfg.Dimension)
	return s, nil
}

// Config returns the store's configuration with its defaults filled in.
func (s *Store) Config() Config { return s.cfg }

// What a refused setting may be.
var (
	errMissing  = "is required"
	errRange    = fmt.Sprintf("must be 1 to MaxDimension (%d)", MaxDimension)
	errHNSW     = fmt.Sprintf("must be at most %d, the most an HNSW index takes", MaxHNSWDimension)
	errNegative = "must be 0 (the default) or more"
	errName     = fmt.Sprintf("must be valid UTF-8 of at most %d bytes without NUL", maxName)
)

// resolve checks cfg and fills in its defaults.
func resolve(cfg *Config) error {
	bad := func(field string, value any, allowed string) error {
		return fmt.Errorf("%w: %s is %v: %s", ErrConfig, field, value, allowed)
	}
	cfg.Table = cmp.Or(cfg.Table, DefaultTable)
	cfg.TextSearch = cmp.Or(cfg.TextSearch, DefaultTextSearch)
	switch {
	case cfg.Pool == nil:
		return bad("Pool", nil, errMissing)
	case cfg.Dimension < 1 || cfg.Dimension > MaxDimension:
		return bad("Dimension", cfg.Dimension, errRange)
	case cfg.HNSW && cfg.Dimension > MaxHNSWDimension:
		return bad("Dimension", cfg.Dimension, errHNSW)
	case cfg.HNSWM < 0:
		return bad("HNSWM", cfg.HNSWM, errNegative)
	case cfg.HNSWEfConstruction < 0:
		return bad("HNSWEfConstruction", cfg.HNSWEfConstruction, errNegative)
	case cfg.BatchSize < 0:
		return bad("BatchSize", cfg.BatchSize, errNegative)
	case !goodName(cfg.Table):
		return bad("Table", fmt.Sprintf("%q", cfg.Table), errName)
	case cfg.Schema != "" && !goodName(cfg.Schema):
		return bad("Schema", fmt.Sprintf("%q", cfg.Schema), errName)
	case !goodName(cfg.TextSearch):
		return bad("TextSearch", fmt.Sprintf("%q", cfg.TextSearch), errName)
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	return nil
}

func goodName(s string) bool {
	return len(s) <= maxName && utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// wrap adds what the store was doing to a database error, and
// [ErrSchema] when the table or a column is missing.
func (s *Store) wrap(what string, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Code == "42P01" || pe.Code == "42703") { // undefined_table, undefined_column
		return fmt.Errorf("%w: %s %s: %w", ErrSchema, what, s.table, err)
	}
	return fmt.Errorf("pgvector: %s %s: %w", what, s.table, err)
}

// begin starts a transaction, unless ctx is done.
func (s *Store) begin(ctx context.Context) (pgx.Tx, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, s.wrap("begin on", err)
	}
	return tx, nil
}

var (
	_ vectorstore.VectorStore      = (*Store)(nil)
	_ vectorstore.DocumentReplacer = (*Store)(nil)
	_ vectorstore.KeywordQuerier   = (*Store)(nil)
)
