package memory_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/stretchr/testify/require"
)

func saved(t testing.TB, m *memory.Store) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, m.Save(bg, &buf))
	return buf.Bytes()
}

// contents returns every record of m by document, in order, for
// comparing stores.
func contents(t testing.TB, m *memory.Store, docs []string) map[string][]vectorstore.Record {
	t.Helper()
	out := map[string][]vectorstore.Record{}
	for _, d := range docs {
		recs, err := m.Range(bg, d, 0, math.MaxInt)
		if errors.Is(err, vectorstore.ErrNotFound) {
			continue
		}
		require.NoError(t, err)
		out[d] = recs
	}
	return out
}

// sameContents checks that two stores hold the same records, vectors bit
// for bit, and have the same configuration.
func sameContents(t testing.TB, want, got *memory.Store, docs []string) {
	t.Helper()
	require.Equal(t, want.Len(), got.Len())
	require.Equal(t, want.Config(), got.Config())
	require.Equal(t, contents(t, want, docs), contents(t, got, docs))
}

func docNames(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("d%d", i))
	}
	return out
}

func TestSaveLoadRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	recs := makeRecords(r, 6, 25, 19)
	recs[3].Metadata = map[string]string{"a": "1", "b": "", "ü": "x\ny"}
	recs[3].Title, recs[3].Source = "Guide", "docs/guide.pdf"
	recs[3].Section = []string{"Install", "Linux"}
	recs[3].Location = document.Location{Page: 3, LastPage: 4, Line: 10, LastLine: 12, Sheet: "Costs", Row: 2, LastRow: 5}
	recs[3].Notes = vectorstore.Notes{Keywords: "zanzibarian header", Gap: "\n\n", Embed: "e", Fingerprint: "f", Summary: "s", SummaryOf: "o"}
	recs[7].Notes.Gap = "\n"                        // notes alone
	recs[8].Title, recs[9].Title = "Guide", "Guide" // shared strings load shared
	recs[4].Metadata = nil
	recs[5].Text = ""
	recs[6].Start, recs[6].End = 100, 250
	for _, compact := range []bool{false, true} {
		t.Run(fmt.Sprintf("compact=%v", compact), func(t *testing.T) {
			m := newMemory(t, memory.Config{Compact: compact}, recs...)
			data := saved(t, m)
			got, err := memory.Load(bg, bytes.NewReader(data), memory.Config{})
			require.NoError(t, err)
			sameContents(t, m, got, docNames(6))
			require.Equal(t, data, saved(t, got), "saving a loaded store gives different bytes")
			q := randVec(r, 19)
			h1, err := m.Query(bg, q, 10, vectorstore.Filter{})
			require.NoError(t, err)
			h2, err := got.Query(bg, q, 10, vectorstore.Filter{})
			require.NoError(t, err)
			require.Equal(t, h1, h2, "loaded store answers differently")
			k1, err := m.QueryKeywords(bg, "zanzibarian", 10, vectorstore.Filter{})
			require.NoError(t, err)
			k2, err := got.QueryKeywords(bg, "zanzibarian", 10, vectorstore.Filter{})
			require.NoError(t, err)
			require.Len(t, k1, 1, "a word of the notes' keywords")
			require.Equal(t, k1, k2, "loaded store's keyword index differs")
			// The loaded store takes writes.
			require.NoError(t, got.Upsert(bg, vectorstore.Record{ID: "new", DocID: "d0", Index: 99, Vector: randVec(r, 19)}))
		})
	}
	t.Run("float file into compact store", func(t *testing.T) {
		m := newMemory(t, memory.Config{}, recs...)
		c, err := memory.Load(bg, bytes.NewReader(saved(t, m)), memory.Config{Compact: true})
		require.NoError(t, err)
		direct := newMemory(t, memory.Config{Compact: true}, recs...)
		sameContents(t, direct, c, docNames(6))
	})
	t.Run("empty store", func(t *testing.T) {
		m := newMemory(t, memory.Config{})
		got, err := memory.Load(bg, bytes.NewReader(saved(t, m)), memory.Config{Dimension: 8})
		require.NoError(t, err)
		require.Zero(t, got.Len())
		require.Equal(t, 8, got.Config().Dimension)
	})
}

// TestHugeIndexRoundTrip is the regression test for data loss: Upsert
// took any Index >= 0 and SaveFile wrote it, but LoadFile refused an Index
// above MaxInt32 as corrupt, losing every record.
func TestHugeIndexRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chat.rkv")
	m := newMemory(t, memory.Config{},
		vectorstore.Record{ID: "a", DocID: "chat", Index: int(min(timestamp, math.MaxInt)), Vector: []float32{1, 0}},
		vectorstore.Record{ID: "b", DocID: "chat", Index: math.MaxInt, Start: math.MaxInt - 1, End: math.MaxInt, Vector: []float32{0, 1}},
	)
	require.NoError(t, m.SaveFile(bg, path))
	got, err := memory.LoadFile(bg, path, memory.Config{})
	require.NoError(t, err)
	sameContents(t, m, got, []string{"chat"})
}

// TestEmptiedStoreKeepsDimension is the regression test for an emptied
// store that lost its dimension across Save and Load and then took
// vectors of another length.
func TestEmptiedStoreKeepsDimension(t *testing.T) {
	for _, compact := range []bool{false, true} {
		m := newMemory(t, memory.Config{Compact: compact}, vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1, 2, 3}})
		require.NoError(t, m.DeleteDocument(bg, "d"))
		got, err := memory.Load(bg, bytes.NewReader(saved(t, m)), memory.Config{})
		require.NoError(t, err)
		require.Equal(t, 3, got.Config().Dimension)
		err = got.Upsert(bg, vectorstore.Record{ID: "b", DocID: "d", Vector: []float32{1, 2}})
		require.ErrorIs(t, err, vectorstore.ErrDimensionMismatch)
		_, err = memory.Load(bg, bytes.NewReader(saved(t, m)), memory.Config{Dimension: 2})
		require.ErrorIs(t, err, vectorstore.ErrDimensionMismatch)
	}
}

// timestamp is an Index above MaxInt32, such as a chat log keyed by time
// in milliseconds would use.
var timestamp int64 = 1700000000000

// v1Records are the records of the version-1 files in testdata, written
// by the package before version 2 (Save of a store upserted with them).
// Record chat-1 has an Index above MaxInt32, which that version's Load
// refused: those files load now.
func v1Records() []vectorstore.Record {
	return []vectorstore.Record{
		{ID: "a-0", DocID: "a", Index: 0, Text: "first unit", Vector: []float32{1, 0, 0, 0, 0}, Metadata: map[string]string{"lang": "en", "ü": "x\ny"}},
		{ID: "a-1", DocID: "a", Index: 1, Text: "", Vector: []float32{1, 2, 3, 4, 5}},
		{ID: "a-1b", DocID: "a", Index: 1, Text: "same index, later ID", Vector: []float32{-1, 2, -3, 4, -5}},
		{ID: "chat-1", DocID: "chat", Index: int(timestamp), Text: "an Index above MaxInt32", Vector: []float32{0, 1, 0, 0, 0}},
		{ID: "日本", DocID: "文書", Index: 7, Text: "日本語のテキスト", Vector: []float32{0.25, -0.5, 0.125, 3, 1e-3}, Metadata: map[string]string{"k": ""}},
	}
}

func TestLoadVersion1(t *testing.T) {
	if math.MaxInt < timestamp {
		t.Skip("the files hold an Index that an int of this platform cannot")
	}
	docs := []string{"a", "chat", "文書"}
	for _, tt := range []struct {
		file    string
		compact bool
	}{{"v1.rkv", false}, {"v1-compact.rkv", true}} {
		t.Run(tt.file, func(t *testing.T) {
			got, err := memory.LoadFile(bg, filepath.Join("testdata", tt.file), memory.Config{})
			require.NoError(t, err)
			want := newMemory(t, memory.Config{Compact: tt.compact}, v1Records()...)
			sameContents(t, want, got, docs)
			// Saved again, it is a version-2 file of the same store.
			again, err := memory.Load(bg, bytes.NewReader(saved(t, got)), memory.Config{})
			require.NoError(t, err)
			sameContents(t, want, again, docs)
		})
	}
	t.Run("v1-emptied.rkv", func(t *testing.T) {
		got, err := memory.LoadFile(bg, filepath.Join("testdata", "v1-emptied.rkv"), memory.Config{})
		require.NoError(t, err)
		require.Zero(t, got.Len())
		require.Equal(t, 3, got.Config().Dimension)
	})
}

// v2Records are the records of the version-2 files in testdata, written
// by the package before it had a keyword index (Save of a store upserted
// with them): their texts hold identifiers, accented and Japanese words,
// only stop words, and nothing.
func v2Records() []vectorstore.Record {
	return []vectorstore.Record{
		{ID: "plan-0", DocID: "plan", Index: 0, Start: 0, End: 62, Text: "Planning application 24/01234 was approved by the board.", Vector: []float32{1, 0, 0, 0, 0, 0}, Metadata: map[string]string{"kind": "report"}},
		{ID: "plan-1", DocID: "plan", Index: 1, Start: 63, End: 140, Text: "The environmental review of application 24/01234 found no issues.", Vector: []float32{0.9, 0.1, 0, 0, 0, 0}, Metadata: map[string]string{"kind": "report"}},
		{ID: "log-0", DocID: "log", Index: 0, Text: "Connection failed: ERR_CONN_RESET after 3 retries.", Vector: []float32{0, 1, 0, 0, 0, 0}},
		{ID: "travel-0", DocID: "travel", Index: 0, Text: "Un café à Zürich, naïve and CAFÉ.", Vector: []float32{0, 0, 1, 0, 0, 0}, Metadata: map[string]string{"lang": "fr"}},
		{ID: "travel-1", DocID: "travel", Index: 1, Text: "東京都の天気は晴れです。", Vector: []float32{0, 0, 0.5, 1, 0, 0}, Metadata: map[string]string{"lang": "ja"}},
		{ID: "stop-0", DocID: "stop", Index: 0, Text: "the of and to", Vector: []float32{0, 0, 0, 0, 1, 0}},
		{ID: "empty-0", DocID: "stop", Index: 1, Text: "", Vector: []float32{0, 0, 0, 0, 0, 1}},
	}
}

func TestLoadVersion2(t *testing.T) {
	for _, tt := range []struct {
		file    string
		compact bool
	}{{"v2.rkv", false}, {"v2-compact.rkv", true}} {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tt.file))
			require.NoError(t, err)
			got, err := memory.Load(bg, bytes.NewReader(data), memory.Config{})
			require.NoError(t, err)
			want := newMemory(t, memory.Config{Compact: tt.compact}, v2Records()...)
			sameContents(t, want, got, []string{"plan", "log", "travel", "stop"})
			again, err := memory.Load(bg, bytes.NewReader(saved(t, got)), memory.Config{})
			require.NoError(t, err)
			sameContents(t, want, again, []string{"plan", "log", "travel", "stop"})
		})
	}
}

// TestLoadVersion2Ingest loads a store that ingest wrote in format
// version 2 (testdata/genv2 says how it was made), when the library kept
// provenance and bookkeeping under metadata keys: the keys come out of
// Metadata, which keeps the caller's own, into the typed fields and the
// notes, and the store works as one written now.
func TestLoadVersion2Ingest(t *testing.T) {
	got, err := memory.LoadFile(bg, filepath.Join("testdata", "v2-ingest.rkv"), memory.Config{})
	require.NoError(t, err)
	guide, err := got.Range(bg, "guide", 0, math.MaxInt)
	require.NoError(t, err)
	require.Len(t, guide, 2)
	for _, r := range guide {
		require.Equal(t, map[string]string{"team": "keepers"}, r.Metadata, "only the caller's key is left")
		require.Equal(t, "Lighthouse guide", r.Title)
		require.Equal(t, "docs/guide.md", r.Source)
		require.Equal(t, "How to set up the lighthouse.", r.Notes.Summary)
		require.NotEmpty(t, r.Notes.SummaryOf)
		require.Len(t, r.Notes.Embed, 64, "a SHA-256 in hex")
		require.NotEmpty(t, r.Notes.Fingerprint)
		require.Contains(t, r.Notes.Keywords, "Lighthouse guide", "the header")
	}
	require.Equal(t, []string{"Install"}, guide[0].Section)
	require.Equal(t, []string{"Install", "Linux"}, guide[1].Section)
	require.Equal(t, "\n\n", guide[1].Notes.Gap)
	notes, err := got.Range(bg, "notes", 0, math.MaxInt)
	require.NoError(t, err)
	require.Nil(t, notes[0].Metadata)
	require.Equal(t, "Notes", notes[0].Title)
	require.Nil(t, notes[0].Section)

	// The header's words (the title's) are found by keyword search, as they were.
	hits, err := got.QueryKeywords(bg, "guide", 5, vectorstore.Filter{})
	require.NoError(t, err)
	require.Len(t, hits, 2)
	// A caller's filter on a legacy key finds nothing: it is no longer metadata.
	hits, err = got.QueryKeywords(bg, "lighthouse", 5, vectorstore.Filter{Where: vectorstore.Exists("document.title")})
	require.NoError(t, err)
	require.Empty(t, hits)
	hits, err = got.QueryKeywords(bg, "lighthouse", 5, vectorstore.Filter{Sources: []string{"docs/guide.md"}, Section: []string{"Install", "Linux"}})
	require.NoError(t, err)
	require.Len(t, hits, 1)
	require.Equal(t, guide[1].ID, hits[0].ID)
}

// TestSaveLoadProperty: any store that Upsert accepted round-trips through
// Save and Load to an equal store. The records are random in every field,
// over the whole range Upsert accepts, and the stores have seen deletes
// and replacements.
func TestSaveLoadProperty(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 30
	}
	for seed := range uint64(n) {
		r := rand.New(rand.NewPCG(seed, 99))
		compact := seed%2 == 1
		m := newMemory(t, memory.Config{Compact: compact})
		dim := 1 + r.IntN(40)
		if seed%10 == 0 {
			dim = 1 + r.IntN(vectorstore.MaxDimension)
		}
		docs := map[string]bool{}
		for op := range 1 + r.IntN(8) {
			batch := make([]vectorstore.Record, r.IntN(6))
			for i := range batch {
				batch[i] = randomRecord(r, dim, op)
				docs[batch[i].DocID] = true
			}
			switch r.IntN(4) {
			case 0:
				if len(batch) > 0 {
					require.NoError(t, m.ReplaceDocument(bg, batch[0].DocID, sameDoc(batch)...))
				}
			case 1:
				require.NoError(t, m.DeleteDocument(bg, randomString(r, 2)))
			default:
				require.NoError(t, m.Upsert(bg, batch...))
			}
		}
		data := saved(t, m)
		got, err := memory.Load(bg, bytes.NewReader(data), memory.Config{})
		require.NoError(t, err, "seed %d", seed)
		sameContents(t, m, got, slices.Sorted(maps.Keys(docs)))
		require.Equal(t, data, saved(t, got), "seed %d", seed)
	}
}

func sameDoc(recs []vectorstore.Record) []vectorstore.Record {
	for i := range recs {
		recs[i].DocID = recs[0].DocID
	}
	return recs
}

// randomRecord returns a record that Upsert accepts, random in every
// field: IDs from a small alphabet (so that writes replace records), an
// Index anywhere in [0, MaxInt], offsets or none, any valid text and
// metadata, and a vector of any magnitude.
func randomRecord(r *rand.Rand, dim, op int) vectorstore.Record {
	rec := vectorstore.Record{
		ID: randomString(r, 3), DocID: randomString(r, 2), Text: randomString(r, 20),
		Index: []int{0, r.IntN(10), int(r.Int64N(min(1<<40, math.MaxInt))), math.MaxInt - r.IntN(3)}[r.IntN(4)],
	}
	if r.IntN(2) == 0 {
		rec.Start = r.IntN(math.MaxInt)
		rec.End = rec.Start + r.IntN(math.MaxInt-rec.Start+1)
	}
	switch r.IntN(3) {
	case 0:
		rec.Metadata = map[string]string{}
	case 1:
		rec.Metadata = map[string]string{randomString(r, 4): randomString(r, 4), fmt.Sprint(op): ""}
	}
	if r.IntN(2) == 0 { // provenance and notes, in any mix
		some := func(n int) string {
			if r.IntN(3) == 0 {
				return ""
			}
			return randomString(r, n)
		}
		rec.Title, rec.Source = some(4), some(6)
		for range r.IntN(3) {
			rec.Section = append(rec.Section, randomString(r, 3))
		}
		rec.Location = document.Location{Page: r.IntN(3), LastPage: r.IntN(math.MaxInt), Line: r.IntN(2), Sheet: some(2), LastRow: r.IntN(9)}
		rec.Notes = vectorstore.Notes{Keywords: some(5), Gap: some(2), Embed: some(3)}
	}
	scale := math.Pow(10, float64(r.IntN(60)-30))
	rec.Vector = make([]float32, dim)
	for i := range rec.Vector {
		rec.Vector[i] = float32(r.NormFloat64() * scale)
	}
	rec.Vector[r.IntN(dim)] = float32(scale) // never all zero
	return rec
}

// randomString returns up to n runes of ASCII, Latin, CJK, emoji and
// control characters.
func randomString(r *rand.Rand, n int) string {
	alphabet := []rune("ab\x00\n é日本🙂\u200d")
	var b strings.Builder
	for range 1 + r.IntN(n) {
		b.WriteRune(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

func TestSaveIsDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	recs := makeRecords(r, 5, 10, 4)
	a := newMemory(t, memory.Config{}, recs...)
	shuffled := slices.Clone(recs)
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	b := newMemory(t, memory.Config{Workers: 1})
	for _, rec := range shuffled {
		require.NoError(t, b.Upsert(bg, rec))
	}
	require.Equal(t, saved(t, a), saved(t, b), "equal stores built in different orders save different bytes")
}

func TestLoadReadsNoFurther(t *testing.T) {
	m := newMemory(t, memory.Config{}, makeRecords(rand.New(rand.NewPCG(1, 2)), 2, 3, 5)...)
	data := saved(t, m)
	rd := bytes.NewReader(append(slices.Clone(data), "after"...))
	// A reader without buffering of its own, so that Load's buffer is the
	// only one: Load must stop at the end of the store.
	_, err := memory.Load(bg, io.LimitReader(rd, int64(len(data))), memory.Config{})
	require.NoError(t, err)
	_, err = memory.Load(bg, bytes.NewReader(append(slices.Clone(data), data...)), memory.Config{})
	require.NoError(t, err, "trailing data")
}

func TestLoadRefusesDamage(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	recs := makeRecords(r, 3, 4, 6)
	recs[0].Metadata = map[string]string{"k": "v"}
	recs[1].Start, recs[1].End = 3, 9
	for _, compact := range []bool{false, true} {
		data := saved(t, newMemory(t, memory.Config{Compact: compact}, recs...))
		t.Run(fmt.Sprintf("compact=%v/truncated", compact), func(t *testing.T) {
			for n := range len(data) {
				m, err := memory.Load(bg, bytes.NewReader(data[:n]), memory.Config{})
				require.ErrorIs(t, err, memory.ErrCorrupt, "cut at %d of %d", n, len(data))
				require.Nil(t, m)
			}
		})
		t.Run(fmt.Sprintf("compact=%v/flipped", compact), func(t *testing.T) {
			for i := range data {
				for _, bit := range []byte{1, 0x80} {
					bad := slices.Clone(data)
					bad[i] ^= bit
					m, err := memory.Load(bg, bytes.NewReader(bad), memory.Config{})
					require.Nil(t, m, "byte %d ^ %#x: loaded", i, bit)
					if !errors.Is(err, memory.ErrVersion) {
						require.ErrorIs(t, err, memory.ErrCorrupt, "byte %d", i)
					}
				}
			}
		})
	}
	t.Run("version", func(t *testing.T) {
		for _, v := range []uint32{0, 4} {
			data := saved(t, newMemory(t, memory.Config{}, recs...))
			binary.LittleEndian.PutUint32(data[8:], v)
			binary.LittleEndian.PutUint32(data[32:], memory.Crc32c(data[:32]))
			_, err := memory.Load(bg, bytes.NewReader(data), memory.Config{})
			require.ErrorIs(t, err, memory.ErrVersion, "version %d", v)
		}
	})
	t.Run("not a store", func(t *testing.T) {
		_, err := memory.Load(bg, bytes.NewReader([]byte("hello, this is not a vector store at all")), memory.Config{})
		require.ErrorIs(t, err, memory.ErrCorrupt)
	})
	t.Run("dimension", func(t *testing.T) {
		data := saved(t, newMemory(t, memory.Config{}, recs...))
		_, err := memory.Load(bg, bytes.NewReader(data), memory.Config{Dimension: 7})
		require.ErrorIs(t, err, vectorstore.ErrDimensionMismatch)
	})
	t.Run("duplicate ID", func(t *testing.T) {
		data := saved(t, newMemory(t, memory.Config{},
			vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1, 0}},
			vectorstore.Record{ID: "b", DocID: "d", Index: 1, Vector: []float32{0, 1}},
		))
		// Rename b to a, keeping the checksums right.
		i := bytes.Index(data, []byte("\x01b\x01d"))
		require.Positive(t, i)
		data[i+1] = 'a'
		end := len(data) - 4
		binary.LittleEndian.PutUint32(data[end:], memory.Crc32c(data[36:end]))
		_, err := memory.Load(bg, bytes.NewReader(data), memory.Config{})
		require.ErrorIs(t, err, memory.ErrCorrupt)
		require.ErrorContains(t, err, `duplicate ID "a"`)
	})
	t.Run("read error", func(t *testing.T) {
		data := saved(t, newMemory(t, memory.Config{}, recs...))
		boom := errors.New("disk on fire")
		_, err := memory.Load(bg, io.MultiReader(bytes.NewReader(data[:50]), errReader{boom}), memory.Config{})
		require.ErrorIs(t, err, boom)
	})
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestSaveFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.rkv")
	r := rand.New(rand.NewPCG(13, 13))
	old := newMemory(t, memory.Config{}, makeRecords(r, 2, 5, 8)...)
	require.NoError(t, old.SaveFile(bg, path))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	loaded, err := memory.LoadFile(bg, path, memory.Config{})
	require.NoError(t, err)
	sameContents(t, old, loaded, docNames(2))

	// A save that fails midway leaves the old file as it was, and no
	// temporary file behind.
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	bigger := newMemory(t, memory.Config{}, makeRecords(r, 4, 600, 8)...)
	require.Error(t, bigger.SaveFile(newLateCancel(), path), "cancelled SaveFile succeeded")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, before, after, "a failed save changed the file")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "directory holds more after a failed save")
	// A successful save replaces it and keeps its mode.
	require.NoError(t, os.Chmod(path, 0o640))
	require.NoError(t, bigger.SaveFile(bg, path))
	fi, err = os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o640), fi.Mode().Perm())
	loaded, err = memory.LoadFile(bg, path, memory.Config{})
	require.NoError(t, err)
	require.Equal(t, bigger.Len(), loaded.Len())
	_, err = memory.LoadFile(bg, filepath.Join(dir, "missing"), memory.Config{})
	require.ErrorIs(t, err, os.ErrNotExist)
	require.Error(t, bigger.SaveFile(bg, filepath.Join(dir, "no", "such", "dir", "x")), "SaveFile into a missing directory")
}

// TestSaveFileSymlink is the regression test for SaveFile replacing a
// symbolic link with a regular file: the link stays and its target gets
// the data, through a chain of links, relative or absolute, and when the
// target does not exist yet.
func TestSaveFileSymlink(t *testing.T) {
	dir := t.TempDir()
	m := newMemory(t, memory.Config{}, makeRecords(rand.New(rand.NewPCG(14, 14)), 2, 3, 4)...)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "data"), 0o755))
	target := filepath.Join(dir, "data", "store.rkv")
	require.NoError(t, os.Symlink(filepath.Join("data", "store.rkv"), filepath.Join(dir, "current"))) // dangling
	require.NoError(t, os.Symlink(filepath.Join(dir, "current"), filepath.Join(dir, "link")))
	for range 2 { // create the target, then replace it
		require.NoError(t, m.SaveFile(bg, filepath.Join(dir, "link")))
		for _, link := range []string{"link", "current"} {
			fi, err := os.Lstat(filepath.Join(dir, link))
			require.NoError(t, err)
			require.NotZero(t, fi.Mode()&os.ModeSymlink, "%s is no longer a link", link)
		}
		data, err := os.ReadFile(target)
		require.NoError(t, err)
		require.Equal(t, saved(t, m), data)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 3, "temporary files left behind")

	require.NoError(t, os.Symlink("loop", filepath.Join(dir, "loop")))
	require.Error(t, m.SaveFile(bg, filepath.Join(dir, "loop")))
}

// TestSaveFileBadPath is the regression test for SaveFile("") failing with
// an unclear rename error.
func TestSaveFileBadPath(t *testing.T) {
	m := newMemory(t, memory.Config{})
	dir := t.TempDir()
	for _, path := range []string{"", dir, dir + string(filepath.Separator)} {
		err := m.SaveFile(bg, path)
		require.ErrorIs(t, err, vectorstore.ErrInvalidArgument, "%q", path)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, entries)
}
