package pgvector

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/ragkit/ragkit/vectorstore"
)

// statements are the store's fixed SQL, built once for its table.
type statements struct {
	insert, deleteDoc, lockDoc, exists string
}

func newStatements(table string, dim int) statements {
	d := strconv.Itoa(dim)
	return statements{
		// One statement per batch: unnest turns the parallel arrays into
		// rows, so a batch costs one round trip whatever its size. The
		// vectors travel as one binary float4 array, each row's slice of
		// it cast to vector: pgvector's text form costs far more to parse
		// (on PGlite, about 50 times more).
		// A record's section path travels as a JSON array (unnest
		// cannot take an array of arrays of different lengths) and is
		// turned into text[] in the statement.
		insert: `INSERT INTO ` + table + ` (id, doc_id, idx, start_byte, end_byte, text, metadata,
	title, section, source, location, notes, embedding)
SELECT u.id, u.doc_id, u.idx, u.s, u.e, u.text, u.md::jsonb,
	u.title, ARRAY(SELECT jsonb_array_elements_text(u.section::jsonb)), u.source, u.loc::jsonb, u.notes::jsonb,
	($13::real[])[(u.n - 1) * ` + d + ` + 1 : u.n * ` + d + `]::vector
FROM unnest($1::text[], $2::text[], $3::int8[], $4::int8[], $5::int8[], $6::text[], $7::text[],
	$8::text[], $9::text[], $10::text[], $11::text[], $12::text[])
	WITH ORDINALITY AS u(id, doc_id, idx, s, e, text, md, title, section, source, loc, notes, n)
ON CONFLICT (id) DO UPDATE SET doc_id = excluded.doc_id, idx = excluded.idx,
	start_byte = excluded.start_byte, end_byte = excluded.end_byte, text = excluded.text,
	metadata = excluded.metadata, title = excluded.title, section = excluded.section,
	source = excluded.source, location = excluded.location, notes = excluded.notes,
	embedding = excluded.embedding`,
		deleteDoc: `DELETE FROM ` + table + ` WHERE doc_id = $1`,
		// Replacements of one document wait for each other, so that two
		// of them cannot interleave their rows.
		lockDoc: `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`,
		exists:  `SELECT EXISTS (SELECT 1 FROM ` + table + ` WHERE doc_id = $1)`,
	}
}

// Upsert adds records, replacing those with the same ID (a later record
// in the same call replaces an earlier one), in batches of
// [Config.BatchSize] within one transaction: either every record is
// stored or, on error, none is. Vectors are stored at unit length.
// Records are checked with [vectorstore.CheckRecords] first; a text, ID,
// DocID or metadata holding a NUL byte, which PostgreSQL's text cannot,
// is refused too ([*vectorstore.RecordError]).
func (s *Store) Upsert(ctx context.Context, records ...vectorstore.Record) error {
	return s.write(ctx, "", records)
}

// ReplaceDocument replaces every record of document docID with records
// (which must all have that DocID) in one transaction: a concurrent
// reader sees the old records or the new ones, never a mix. With no
// records it deletes the document. It implements
// [vectorstore.DocumentReplacer].
func (s *Store) ReplaceDocument(ctx context.Context, docID string, records ...vectorstore.Record) error {
	if docID == "" {
		return fmt.Errorf("%w: empty document ID", vectorstore.ErrInvalidArgument)
	}
	return s.write(ctx, docID, records)
}

// DeleteDocument removes every record of docID. Deleting a document that
// has no records is not an error.
func (s *Store) DeleteDocument(ctx context.Context, docID string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !storable(docID) {
		return nil // no such document can be stored
	}
	if _, err := s.pool.Exec(ctx, s.sql.deleteDoc, docID); err != nil {
		return s.wrap("delete from", err)
	}
	return nil
}

// write stores records, after deleting document replace if it is not
// empty, in one transaction.
func (s *Store) write(ctx context.Context, replace string, records []vectorstore.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkRecords(replace, s.cfg.Dimension, records); err != nil {
		return err
	}
	if replace == "" && len(records) == 0 {
		return nil
	}
	rows := newColumns(lastOfEachID(records), s.cfg.BatchSize)
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if replace != "" {
		if err := s.deleteLocked(ctx, tx, replace); err != nil {
			return err
		}
	}
	for _, b := range rows {
		if _, err := tx.Exec(ctx, s.sql.insert, b.args()...); err != nil {
			return s.wrap("insert into", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return s.wrap("commit to", err)
	}
	return nil
}

// deleteLocked deletes document docID within tx, holding the document's
// lock until tx ends.
func (s *Store) deleteLocked(ctx context.Context, tx pgx.Tx, docID string) error {
	if _, err := tx.Exec(ctx, s.sql.lockDoc, s.table+" "+docID); err != nil {
		return s.wrap("lock document in", err)
	}
	if _, err := tx.Exec(ctx, s.sql.deleteDoc, docID); err != nil {
		return s.wrap("delete from", err)
	}
	return nil
}

var errNUL = errors.New("holds a NUL byte, which PostgreSQL text cannot store")

// checkRecords is [vectorstore.CheckRecords] and the refusal of NUL bytes.
func checkRecords(docID string, dim int, records []vectorstore.Record) error {
	if err := vectorstore.CheckRecords(docID, dim, records...); err != nil {
		return err
	}
	for i, r := range records {
		field := ""
		switch {
		case strings.IndexByte(r.ID, 0) >= 0:
			field = "ID"
		case strings.IndexByte(r.DocID, 0) >= 0:
			field = "DocID"
		case strings.IndexByte(r.Text, 0) >= 0:
			field = "Text"
		case strings.IndexByte(r.Title, 0) >= 0:
			field = "Title"
		case strings.IndexByte(r.Source, 0) >= 0:
			field = "Source"
		case strings.IndexByte(strings.Join(r.Section, ""), 0) >= 0:
			field = "Section"
		case strings.IndexByte(r.Location.Sheet, 0) >= 0:
			field = "Location"
		case hasNUL(r.Notes):
			field = "Notes"
		default:
			for k, v := range r.Metadata {
				if strings.IndexByte(k, 0) >= 0 || strings.IndexByte(v, 0) >= 0 {
					field = "Metadata"
				}
			}
		}
		if field != "" {
			return &vectorstore.RecordError{Index: i, ID: r.ID, Field: field, Err: errNUL}
		}
	}
	return nil
}

// hasNUL reports whether a note holds a NUL byte.
func hasNUL(n vectorstore.Notes) bool {
	for _, s := range [...]string{n.Keywords, n.Gap, n.Embed, n.Fingerprint, n.Summary, n.SummaryOf} {
		if strings.IndexByte(s, 0) >= 0 {
			return true
		}
	}
	return false
}

// storable reports whether s can be stored in a text column, and so can
// be an ID or a DocID of a stored record.
func storable(s string) bool { return s != "" && strings.IndexByte(s, 0) < 0 && utf8.ValidString(s) }

// lastOfEachID returns the records to write: the last of each ID, in
// order of ID, so that concurrent writers lock rows in the same order.
func lastOfEachID(records []vectorstore.Record) []vectorstore.Record {
	last := make(map[string]int, len(records))
	for i, r := range records {
		last[r.ID] = i
	}
	out := make([]vectorstore.Record, 0, len(last))
	for i, r := range records {
		if last[r.ID] == i {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b vectorstore.Record) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// columns is one batch of records as the parallel arrays of the insert.
type columns struct {
	ids, docs, texts, metadata             []string
	titles, sections, sources, locs, notes []string // sections, locs and notes as JSON
	idx, starts, ends                      []int64
	vectors                                []float32 // every record's, one after another
}

func (c *columns) args() []any {
	return []any{c.ids, c.docs, c.idx, c.starts, c.ends, c.texts, c.metadata,
		c.titles, c.sections, c.sources, c.locs, c.notes, c.vectors}
}

// newColumns lays records out in batches of at most size.
func newColumns(records []vectorstore.Record, size int) []columns {
	var out []columns
	for chunk := range slices.Chunk(records, size) {
		c := columns{}
		for _, r := range chunk {
			md := r.Metadata
			if md == nil {
				md = map[string]string{}
			}
			js, _ := json.Marshal(md) // a map of strings always marshals
			c.ids = append(c.ids, r.ID)
			c.docs = append(c.docs, r.DocID)
			c.idx = append(c.idx, int64(r.Index))
			c.starts = append(c.starts, int64(r.Start))
			c.ends = append(c.ends, int64(r.End))
			c.texts = append(c.texts, r.Text)
			c.metadata = append(c.metadata, string(js))
			section := r.Section
			if section == nil {
				section = []string{}
			}
			js, _ = json.Marshal(section) // strings always marshal
			c.titles = append(c.titles, r.Title)
			c.sections = append(c.sections, string(js))
			c.sources = append(c.sources, r.Source)
			js, _ = json.Marshal(r.Location)
			c.locs = append(c.locs, string(js))
			js, _ = json.Marshal(r.Notes)
			c.notes = append(c.notes, string(js))
			c.vectors = appendUnit(c.vectors, r.Vector)
		}
		out = append(out, c)
	}
	return out
}

// appendUnit appends v scaled to unit length to dst.
func appendUnit(dst, v []float32) []float32 {
	n := norm(v)
	for _, x := range v {
		dst = append(dst, float32(float64(x)/n))
	}
	return dst
}

// norm returns the length of v, computed in float64.
func norm(v []float32) float64 {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	return math.Sqrt(ss)
}
