package pgvector

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/vectorstore"
)

// keywordQuery turns the query text ($1) into a tsquery that any of its
// lexemes matches (plainto_tsquery would demand all of them): the
// lexemes of to_tsvector, the same as the tsv column's, quoted and joined
// by |. A query of stop words only has no lexeme, and the NULL tsquery
// matches nothing.
// Backslashes are written as escape strings (E'…'), which read the same
// whatever standard_conforming_strings says: a plain '\' is an
// unterminated string when it is off.
const keywordQuery = `(SELECT string_agg('''' || replace(replace(l, E'\\', E'\\\\'), '''', '''''') || '''', ' | ')::tsquery AS q
	FROM unnest(tsvector_to_array(to_tsvector($3::regconfig, $1))) AS l) AS kq`

// QueryKeywords returns at most k records whose text holds a word of
// query, among those that match filter, best first by PostgreSQL's
// ts_rank (ties by ID), through the GIN index on the generated tsvector
// column. Words are found as [Config.TextSearch] parses them: with
// "english", stemmed ("invoices" finds "invoice") and without English
// stop words. It implements [vectorstore.KeywordQuerier]: hits carry no
// vectors, an empty query (or one of white space only, or invalid UTF-8)
// or a k below 1 gives an error wrapping
// [vectorstore.ErrInvalidArgument], and a query with no searchable word
// gives no hits and no error. Scores are ts_rank's, not comparable with
// [memory.Store]'s BM25 scores; fuse them by rank
// (package retrieve's Fuse).
func (s *Store) QueryKeywords(ctx context.Context, query string, k int, filter vectorstore.Filter) ([]vectorstore.Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch {
	case k <= 0:
		return nil, fmt.Errorf("%w: k is %d, not positive", vectorstore.ErrInvalidArgument, k)
	case !utf8.ValidString(query):
		return nil, fmt.Errorf("%w: query is not valid UTF-8", vectorstore.ErrInvalidArgument)
	case strings.TrimFunc(query, unicode.IsSpace) == "":
		return nil, fmt.Errorf("%w: query is empty", vectorstore.ErrInvalidArgument)
	}
	if err := filter.Check(); err != nil {
		return nil, err
	}
	query = strings.ReplaceAll(query, "\x00", " ")
	cond, args, ok := filterSQL(filter, []any{query, int64(k), s.cfg.TextSearch})
	if !ok {
		return nil, nil
	}
	where := " WHERE tsv @@ kq.q"
	if cond != "" {
		where += " AND " + cond
	}
	sql := "SELECT " + textColumns + ", ts_rank(tsv, kq.q) AS score FROM " + s.table + ", " + keywordQuery +
		where + " ORDER BY score DESC, id LIMIT $2"
	return s.read(ctx, "keyword query", sql, false, func(x float64) float32 { return float32(x) }, args...)
}
