package pgvector

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ragkit/ragkit/vectorstore"
)

// Every key, value and bound of a filter reaches the server as a
// parameter: none appears in the SQL text, and each placeholder is used.
func TestFilterSQLParametersOnly(t *testing.T) {
	hostile := []string{`k'; DROP TABLE t; --`, `v"\'`, "$x1", "2024-01-01T00:00:00Z"}
	f := vectorstore.Filter{
		DocIDs:   []string{hostile[0]},
		Metadata: map[string]string{hostile[1]: hostile[0]},
		Where: vectorstore.Or(
			vectorstore.In(hostile[0], hostile[1]),
			vectorstore.In(hostile[1], hostile[0], hostile[2]),
			vectorstore.Not(vectorstore.Exists(hostile[2])),
			vectorstore.Between(hostile[0], 12345.5, math.Inf(1)),
			vectorstore.TimeBetween(hostile[1], time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Time{}),
			vectorstore.And(),
		),
	}
	sql, args, ok := filterSQL(f, nil)
	if !ok {
		t.Fatal("filter refused")
	}
	for _, s := range append(hostile, "12345", "2024") {
		if strings.Contains(sql, s) {
			t.Errorf("SQL holds %q:\n%s", s, sql)
		}
	}
	for i := range len(args) {
		if p := fmt.Sprintf("$%d::", i+1); !strings.Contains(sql, p) {
			t.Errorf("parameter %s unused in:\n%s", p, sql)
		}
	}
}
