package pgvector_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/pgvector"
	"github.com/ragkit/ragkit/vectorstore/storetest"
	"github.com/stretchr/testify/require"
)

// URLVar names the environment variable that holds the connection URL
// of the PostgreSQL server (with pgvector) the tests run against, such
// as postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable.
// .ci/run sets it to a PGlite server of its own.
const URLVar = "RAGKIT_PGVECTOR_URL"

var bg = context.Background()

// testPool returns a pool connected to the server of URLVar. Without one
// the test is skipped, unless CI is set: CI must run these tests.
func testPool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	url := os.Getenv(URLVar)
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set: CI runs these tests against a real server (see .ci/run)", URLVar)
		}
		t.Skipf("no PostgreSQL server with pgvector: set %s to a connection URL to run this test", URLVar)
	}
	poolOnce.Do(func() {
		ctx, cancel := context.WithTimeout(bg, 30*time.Second)
		defer cancel()
		pool, poolErr = pgxpool.New(ctx, url)
		if poolErr == nil {
			poolErr = pool.Ping(ctx)
		}
	})
	require.NoError(t, poolErr, "connecting to %s", URLVar)
	return pool
}

var (
	poolOnce sync.Once
	pool     *pgxpool.Pool
	poolErr  error
	tables   atomic.Int64
)

// newStore returns a store in a table of its own, created for t and
// dropped when t ends.
func newStore(t testing.TB, cfg pgvector.Config) *pgvector.Store {
	t.Helper()
	if cfg.Pool == nil {
		cfg.Pool = testPool(t)
	}
	if cfg.Table == "" {
		cfg.Table = fmt.Sprintf("ragkit_test_%d_%d", os.Getpid(), tables.Add(1))
	}
	s, err := pgvector.New(cfg)
	require.NoError(t, err)
	require.NoError(t, s.CreateSchema(bg))
	t.Cleanup(func() {
		_, err := cfg.Pool.Exec(bg, "DROP TABLE IF EXISTS "+pgx.Identifier{cfg.Table}.Sanitize())
		require.NoError(t, err)
	})
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, storetest.Config{
		New: func(t *testing.T, dim int) vectorstore.VectorStore {
			return newStore(t, pgvector.Config{Dimension: dim, BatchSize: 7})
		},
	})
}
