package pgvector

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/vectorstore"
)

// The columns a record is read from, without and with its vector.
const (
	textColumns   = "id, doc_id, idx, start_byte, end_byte, text, metadata, title, section, source, location, notes"
	vectorColumns = textColumns + ", embedding::real[]"
)

// Range returns the records of document docID whose Index is in [from,
// to], in order of Index (then ID), by the btree index on (doc_id, idx,
// id). It returns an error wrapping [vectorstore.ErrNotFound] if the
// document has no records and one wrapping
// [vectorstore.ErrInvalidArgument] if from > to; a range past either end
// of the document is cut to the records that exist.
func (s *Store) Range(ctx context.Context, docID string, from, to int) ([]vectorstore.Record, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if from > to {
		return nil, fmt.Errorf("%w: range start %d is after its end %d", vectorstore.ErrInvalidArgument, from, to)
	}
	if !storable(docID) {
		return nil, fmt.Errorf("%w: document %q", vectorstore.ErrNotFound, docID)
	}
	sql := "SELECT " + vectorColumns + " FROM " + s.table + " WHERE doc_id = $1 AND idx BETWEEN $2 AND $3 ORDER BY idx, id"
	hits, err := s.read(ctx, "range over", sql, true, nil, docID, int64(from), int64(to))
	if err != nil {
		return nil, err
	}
	if len(hits) == 0 {
		var exists bool
		if err := s.pool.QueryRow(ctx, s.sql.exists, docID).Scan(&exists); err != nil {
			return nil, s.wrap("range over", err)
		}
		if !exists {
			return nil, fmt.Errorf("%w: document %q", vectorstore.ErrNotFound, docID)
		}
	}
	out := make([]vectorstore.Record, len(hits))
	for i := range hits {
		out[i] = hits[i].Record
	}
	return out, nil
}

// Query returns the k records most similar to vector by cosine
// similarity, best first (ties in score by ID), among those that match
// filter, which is pushed down: DocIDs as doc_id = ANY(...), Metadata as
// JSONB containment (metadata @> ...), served by the btree and GIN
// indexes, and Where as the package README's Filters section says, with
// parameters only. A filter that [vectorstore.Filter.Check] refuses
// gives its error, wrapping [vectorstore.ErrInvalidArgument]. Scores are 1 minus pgvector's cosine distance (<=>), clamped
// to [-1, 1]. Without [Config.HNSW] the search is an exact scan; with it,
// it is approximate and may return fewer than k hits. Hits carry no
// vectors, which it does not fetch.
//
// A vector that is empty, zero or not finite, or a k below 1, gives an
// error wrapping [vectorstore.ErrInvalidArgument]; a vector whose length
// is not [Config.Dimension] one wrapping
// [vectorstore.ErrDimensionMismatch].
func (s *Store) Query(ctx context.Context, vector []float32, k int, filter vectorstore.Filter) ([]vectorstore.Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := s.checkQuery(vector, k); err != nil {
		return nil, err
	}
	if err := filter.Check(); err != nil {
		return nil, err
	}
	args := []any{appendUnit(nil, vector), int64(k)}
	cond, args, ok := filterSQL(filter, args)
	if !ok {
		return nil, nil
	}
	where := ""
	if cond != "" {
		where = " WHERE " + cond
	}
	order := "dist, id"
	if s.cfg.HNSW {
		order = "dist" // what the index serves; ties are ordered below
	}
	sql := "SELECT " + textColumns + ", embedding <=> $1::real[]::vector AS dist FROM " + s.table +
		where + " ORDER BY " + order + " LIMIT $2"
	hits, err := s.read(ctx, "query", sql, false, similarity, args...)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(hits, func(a, b vectorstore.Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.ID, b.ID))
	})
	return hits, nil
}

// similarity turns a cosine distance into the similarity, within [-1, 1]
// where rounding would step over.
func similarity(dist float64) float32 { return float32(max(-1, min(1, 1-dist))) }

// checkQuery checks the arguments of a vector query.
func (s *Store) checkQuery(vector []float32, k int) error {
	switch n := norm(vector); {
	case len(vector) == 0:
		return fmt.Errorf("%w: empty query vector", vectorstore.ErrInvalidArgument)
	case k <= 0:
		return fmt.Errorf("%w: k is %d, not positive", vectorstore.ErrInvalidArgument, k)
	case len(vector) != s.cfg.Dimension:
		return fmt.Errorf("%w: query has %d, store has %d", vectorstore.ErrDimensionMismatch, len(vector), s.cfg.Dimension)
	case n == 0:
		return fmt.Errorf("%w: query is a zero vector", vectorstore.ErrInvalidArgument)
	case math.IsNaN(n) || math.IsInf(n, 0):
		return fmt.Errorf("%w: query holds NaN or infinity", vectorstore.ErrInvalidArgument)
	}
	return nil
}

// read runs a query whose rows are records (with their vectors if
// vectors is set), followed, if score is not nil, by a number that score
// turns into the hit's score.
func (s *Store) read(ctx context.Context, what, sql string, vectors bool, score func(float64) float32, args ...any) ([]vectorstore.Hit, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, s.wrap(what, err)
	}
	out := []vectorstore.Hit{}
	var (
		h          vectorstore.Hit
		idx, start int64
		end        int64
		md         map[string]string
		section    []string
		loc        document.Location
		nt         vectorstore.Notes
		raw        float64
	)
	dest := []any{&h.ID, &h.DocID, &idx, &start, &end, &h.Text, &md, &h.Title, &section, &h.Source, &loc, &nt}
	if vectors {
		dest = append(dest, &h.Vector)
	}
	if score != nil {
		dest = append(dest, &raw)
	}
	_, err = pgx.ForEachRow(rows, dest, func() error {
		h.Index, h.Start, h.End = int(idx), int(start), int(end)
		if score != nil {
			h.Score = score(raw)
		}
		h.Metadata = nil
		if len(md) > 0 {
			h.Metadata = md
		}
		h.Section = nil
		if len(section) > 0 {
			h.Section = section
		}
		h.Location, h.Notes = loc, nt
		out = append(out, h)
		h.Vector, md, section, loc, nt = nil, nil, nil, document.Location{}, vectorstore.Notes{}
		return nil
	})
	if err != nil {
		return nil, s.wrap(what, err)
	}
	return out, nil
}
