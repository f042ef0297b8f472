package meta_test

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/vectorstore"
)

func TestEncode(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{"héllo", "héllo"},
		{"", ""},
		{true, "true"},
		{false, "false"},
		{2024, "2024"},
		{int8(-3), "-3"},
		{int64(math.MinInt64), "-9223372036854775808"},
		{uint64(math.MaxUint64), "18446744073709551615"},
		{uint8(7), "7"},
		{2024.0, "2024"}, // as JSON brings back an int: equal to the int's form
		{1e6, "1000000"},
		{0.5, "0.5"},
		{float32(0.1), "0.1"}, // float32 precision, not 0.10000000149011612
		{1e21, "1e+21"},
		{1e-7, "1e-7"},
		{json.Number("12.50"), "12.50"},
		{time.Date(2026, 3, 1, 10, 30, 0, 0, time.FixedZone("CET", 3600)), "2026-03-01T09:30:00Z"},
	} {
		got, err := meta.Encode(tc.v)
		if err != nil || got != tc.want {
			t.Errorf("Encode(%T %v) = %q, %v; want %q", tc.v, tc.v, got, err, tc.want)
		}
	}
}

func TestEncodeRefuses(t *testing.T) {
	for _, v := range []any{nil, math.NaN(), math.Inf(1), float32(math.Inf(-1)), []string{"a"}, []any{1}, map[string]any{"a": 1}, struct{}{}, []byte("x")} {
		if got, err := meta.Encode(v); !errors.Is(err, meta.ErrUnsupported) {
			t.Errorf("Encode(%T %v) = %q, %v; want ErrUnsupported", v, v, got, err)
		}
	}
}

func TestStringsNamesKey(t *testing.T) {
	_, err := meta.Strings(map[string]any{"ok": "x", "tags": []string{"a", "b"}})
	if !errors.Is(err, meta.ErrUnsupported) || !strings.Contains(err.Error(), `"tags"`) || !strings.Contains(err.Error(), "[]string") {
		t.Fatalf("err = %v; want ErrUnsupported naming \"tags\" and its type", err)
	}
	got, err := meta.Strings(map[string]any{"year": 2024, "draft": false, "title": "T"})
	want := map[string]string{"year": "2024", "draft": "false", "title": "T"}
	if err != nil || !cmp.Equal(got, want) {
		t.Fatalf("Strings = %v, %v; want %v", got, err, want)
	}
}

func TestRecordRoundTrip(t *testing.T) {
	recs := []vectorstore.Record{
		{ID: "doc#3", DocID: "doc", Index: 3, Start: 10, End: 42, Text: "some text",
			Metadata: map[string]string{"year": "2024"}, Title: "Title", Source: "docs/a.pdf", Section: []string{"A", "B"},
			Location: document.Location{Page: 2, LastPage: 3}, Notes: vectorstore.Notes{Gap: "\n\n", Keywords: "Title\n", Embed: "e"}},
		{ID: "x", DocID: "d", Index: 0, Text: "no offsets"},
		{ID: "d#0", DocID: "d", Index: 0, Start: 0, End: 5, Text: "first"},
	}
	for _, r := range recs {
		m := meta.FromRecord(r)
		// Through JSON, as a framework's store may keep it: ints become float64.
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]any
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		for _, mm := range []map[string]any{m, back} {
			u, err := meta.ToRecord(r.Text, mm, "")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(r, u.Record, cmp.Comparer(func(a, b map[string]string) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b) })); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
			if u.EmbedText != r.Text {
				t.Errorf("EmbedText = %q; want the text", u.EmbedText)
			}
		}
	}
}

func TestToRecordIDs(t *testing.T) {
	// No ID anywhere: the text names the document, so writing it twice is one record.
	a, err := meta.ToRecord("same text", nil, "source")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := meta.ToRecord("same text", map[string]any{"other": 1}, "source")
	c, _ := meta.ToRecord("other text", nil, "source")
	if a.DocID != b.DocID || a.ID != b.ID || a.DocID == c.DocID || !strings.HasPrefix(a.DocID, "sha256:") || a.ID != a.DocID+"#0" {
		t.Errorf("made IDs: %q %q / %q %q / %q", a.DocID, a.ID, b.DocID, b.ID, c.DocID)
	}
	// The caller's key names the document; meta.DocIDKey wins over it.
	u, _ := meta.ToRecord("t", map[string]any{"source": "a.txt", meta.IndexKey: 2}, "source")
	if u.DocID != "a.txt" || u.ID != "a.txt#2" || u.Metadata["source"] != "a.txt" {
		t.Errorf("from source: %+v", u.Record)
	}
	u, _ = meta.ToRecord("t", map[string]any{"source": "a.txt", meta.DocIDKey: "D"}, "source")
	if u.DocID != "D" {
		t.Errorf("DocIDKey did not win: %q", u.DocID)
	}
	// Consumed keys are not stored; the embed text is taken.
	u, _ = meta.ToRecord("chunk", map[string]any{meta.EmbedTextKey: "Header\n\nchunk", meta.TokensKey: 2, meta.ScoreKey: 0.5, meta.ScoreKindKey: "Cosine", "k": "v"}, "")
	if u.EmbedText != "Header\n\nchunk" || !cmp.Equal(u.Metadata, map[string]string{"k": "v"}) {
		t.Errorf("consumed keys: %q %v", u.EmbedText, u.Metadata)
	}
}

func TestToRecordRefuses(t *testing.T) {
	for _, m := range []map[string]any{
		{meta.IndexKey: "three"},
		{meta.IndexKey: 1.5},
		{meta.StartKey: []int{1}},
		{meta.IDKey: 7},
		{meta.DocIDKey: 7},
		{"nested": map[string]any{"a": 1}},
		{"nil": nil},
	} {
		if _, err := meta.ToRecord("t", m, ""); !errors.Is(err, meta.ErrUnsupported) {
			t.Errorf("ToRecord(%v): err = %v; want ErrUnsupported", m, err)
		}
	}
}

func TestFilter(t *testing.T) {
	f, err := meta.Filter(map[string]any{"year": 2024.0, "lang": "en", meta.DocIDKey: []any{"a", "b"}})
	want := vectorstore.Filter{DocIDs: []string{"a", "b"}, Metadata: map[string]string{"year": "2024", "lang": "en"}}
	if err != nil || !cmp.Equal(f.DocIDs, want.DocIDs) || !cmp.Equal(f.Metadata, want.Metadata) || f.Where.Kind() != vectorstore.KindAll {
		t.Fatalf("Filter = %+v, %v; want %+v", f, err, want)
	}
	// The filter matches a record written from a document with the same values.
	u, _ := meta.ToRecord("t", map[string]any{"year": 2024, "lang": "en", meta.DocIDKey: "b"}, "")
	if !f.Match(u.Record) {
		t.Errorf("filter %+v does not match %+v", f, u.Record)
	}
	if f, err := meta.Filter(nil); err != nil || len(f.DocIDs) != 0 || len(f.Metadata) != 0 {
		t.Errorf("Filter(nil) = %+v, %v", f, err)
	}
	for _, m := range []map[string]any{
		{"year": map[string]any{"$ne": 2020}},
		{"year": map[string]any{"$gt": "2020"}},
		{"year": map[string]any{"$gt": true}},
		{"year": map[string]any{}},
		{"lang": []any{}},
		{"lang": []any{"en", nil}},
		{"lang": map[string]any{"$in": "en"}},
		{meta.DocIDKey: []string{}},
		{meta.DocIDKey: 3},
		{meta.DocIDKey: []any{"a", 3}},
		{meta.IndexKey: 2},
		{meta.IDKey: "x"},
		{"x": nil},
		// The zero time is no instant: as an open bound it would match
		// every time.
		{"at": map[string]any{"$lte": time.Time{}}},
		{"at": map[string]any{"$gte": time.Time{}}},
	} {
		if _, err := meta.Filter(m); !errors.Is(err, meta.ErrUnsupported) {
			t.Errorf("Filter(%v): err = %v; want ErrUnsupported", m, err)
		}
	}
}

// Lists and comparisons map onto In and ranges that match what the
// framework's filter would.
func TestFilterOperators(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	f, err := meta.Filter(map[string]any{
		"lang":  []any{"en", "fr"},
		"tag":   map[string]any{"$in": []string{"a", "b"}, "$eq": "a"},
		"year":  map[string]any{"$gt": 2020, "$lte": 2024.0},
		"at":    map[string]any{"$gte": at},
		"level": "3",
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		md   map[string]any
		want bool
	}{
		{map[string]any{"lang": "fr", "tag": "a", "year": 2024, "at": at, "level": "3"}, true},
		{map[string]any{"lang": "fr", "tag": "a", "year": 2021, "at": at.Add(time.Hour), "level": 3}, true},
		{map[string]any{"lang": "de", "tag": "a", "year": 2024, "at": at, "level": "3"}, false},
		{map[string]any{"lang": "en", "tag": "b", "year": 2024, "at": at, "level": "3"}, false},
		{map[string]any{"lang": "en", "tag": "a", "year": 2020, "at": at, "level": "3"}, false},
		{map[string]any{"lang": "en", "tag": "a", "year": 2025, "at": at, "level": "3"}, false},
		{map[string]any{"lang": "en", "tag": "a", "year": "soon", "at": at, "level": "3"}, false},
		{map[string]any{"lang": "en", "tag": "a", "year": 2022, "at": at.Add(-1), "level": "3"}, false},
		{map[string]any{"lang": "en", "tag": "a", "year": 2022, "level": "3"}, false},
	} {
		u, err := meta.ToRecord("t", tc.md, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Match(u.Record); got != tc.want {
			t.Errorf("filter matches %v: %v, want %v", tc.md, got, tc.want)
		}
	}
}

func TestCheckThreshold(t *testing.T) {
	for _, tc := range []struct {
		k  meta.ScoreKind
		t  float64
		ok bool
	}{
		{meta.Cosine, 0.7, true}, {meta.Cosine, -1, true}, {meta.Cosine, 1, true},
		{meta.Cosine, 1.5, false}, {meta.Cosine, math.NaN(), false},
		{meta.Keyword, 0.5, false}, {meta.Fused, 0.01, false},
	} {
		err := meta.CheckThreshold(tc.k, tc.t)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, meta.ErrUnsupported)) {
			t.Errorf("CheckThreshold(%v, %v) = %v", tc.k, tc.t, err)
		}
	}
	if meta.Fused.String() != "Fused" || meta.ScoreKind(9).String() != "ScoreKind(9)" {
		t.Error("ScoreKind.String")
	}
}

func TestFromHit(t *testing.T) {
	m := meta.FromHit(vectorstore.Hit{Record: vectorstore.Record{ID: "a", DocID: "d"}, Score: 0.25}, meta.Keyword)
	if m[meta.ScoreKey] != 0.25 || m[meta.ScoreKindKey] != "Keyword" || m[meta.IDKey] != "a" {
		t.Errorf("FromHit = %v", m)
	}
}

func TestNumber(t *testing.T) {
	var units []meta.Unit
	for _, c := range []struct {
		text string
		m    map[string]any
	}{
		{"a", map[string]any{"source": "x"}},
		{"b", map[string]any{"source": "y"}},
		{"c", map[string]any{"source": "x"}},
		{"a", map[string]any{"source": "x"}},
		{"p", map[string]any{"source": "x", meta.IndexKey: 7}},
	} {
		u, err := meta.ToRecord(c.text, c.m, "source")
		if err != nil {
			t.Fatal(err)
		}
		units = append(units, u)
	}
	meta.Number(units)
	for i, want := range []int{0, 0, 1, 2, 7} {
		if units[i].Index != want {
			t.Errorf("unit %d: Index %d; want %d", i, units[i].Index, want)
		}
	}
	if units[3].ID != units[0].ID+"-1" || units[4].ID != "x#7" {
		t.Errorf("IDs %q %q %q", units[0].ID, units[3].ID, units[4].ID)
	}
}
