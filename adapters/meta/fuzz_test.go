package meta_test

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/vectorstore"
)

// A record's fields and metadata survive FromRecord and ToRecord, directly
// and through JSON (where ints come back as float64), whatever they hold.
func FuzzRecordRoundTrip(f *testing.F) {
	f.Add("doc#1", "doc", 1, 0, 10, "text", "k", "v")
	f.Add("", "", 0, 0, 0, "", "", "")
	f.Add("x", "d", 1<<40, 3, 2, "\xff", meta.IndexKey, "7")
	f.Fuzz(func(t *testing.T, id, docID string, index, start, end int, text, k, v string) {
		r := vectorstore.Record{ID: id, DocID: docID, Index: index, Start: start, End: end, Text: text}
		if k != "" {
			r.Metadata = map[string]string{k: v}
		}
		m := meta.FromRecord(r)
		u, err := meta.ToRecord(text, m, "")
		if isFieldKey(k) {
			// A metadata key that names a field is overwritten by it.
			return
		}
		if err != nil {
			t.Fatalf("ToRecord(FromRecord(%+v)): %v", r, err)
		}
		want := r
		if want.DocID == "" {
			want.DocID = u.DocID // made from the text
		}
		if want.ID == "" {
			want.ID = u.ID
		}
		if !equal(want, u.Record) {
			t.Fatalf("direct: %+v -> %+v", r, u.Record)
		}
		for _, s := range []string{id, docID, text, k, v} {
			if !utf8.ValidString(s) {
				return // JSON replaces invalid UTF-8, by its rules
			}
		}
		big := func(n int) bool { return n > 1<<53 || n < -(1<<53) }
		if big(index) || big(start) || big(end) {
			return // beyond float64's integers, JSON loses them
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]any
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		u, err = meta.ToRecord(text, back, "")
		if err != nil || !equal(want, u.Record) {
			t.Fatalf("through JSON: %+v -> %+v, %v", r, u.Record, err)
		}
	})
}

func isFieldKey(k string) bool {
	switch k {
	case meta.IDKey, meta.DocIDKey, meta.IndexKey, meta.StartKey, meta.EndKey,
		meta.TokensKey, meta.EmbedTextKey, meta.ScoreKey, meta.ScoreKindKey:
		return true
	}
	return false
}

func equal(a, b vectorstore.Record) bool {
	if a.ID != b.ID || a.DocID != b.DocID || a.Index != b.Index || a.Start != b.Start || a.End != b.End || a.Text != b.Text || len(a.Metadata) != len(b.Metadata) {
		return false
	}
	for k, v := range a.Metadata {
		if b.Metadata[k] != v {
			return false
		}
	}
	return true
}

// Filter never panics, and what it accepts matches exactly the records
// written from a document with the same metadata.
func FuzzFilter(f *testing.F) {
	f.Add("year", "2024", int64(2024), 0.5, true)
	f.Add(meta.DocIDKey, "d", int64(-1), 1e21, false)
	f.Fuzz(func(t *testing.T, k, s string, n int64, x float64, b bool) {
		for _, v := range []any{s, n, x, b, []any{s}, map[string]any{"$eq": s}} {
			m := map[string]any{k: v}
			flt, err := meta.Filter(m)
			if err != nil {
				if !errors.Is(err, meta.ErrUnsupported) {
					t.Fatalf("Filter(%v): %v", m, err)
				}
				continue
			}
			u, err := meta.ToRecord("text", m, "")
			if err != nil {
				continue
			}
			if !flt.Match(u.Record) {
				t.Fatalf("Filter(%v) = %+v does not match %+v", m, flt, u.Record)
			}
		}
	})
}
