package vectorstore

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
)

// MemoryConfig configures a [Memory] store. The zero value is a float32 store
// whose dimension is set by the first vector upserted and whose queries use
// every CPU.
type MemoryConfig struct {
	// Dimension fixes the length of every vector, at most
	// [MaxDimension]. Zero takes it from the first record upserted.
	Dimension int

	// Compact stores each vector as int8 codes with 2-bit refinement codes,
	// under a third of the memory of float32. A query scans the int8
	// codes, then re-ranks its best candidates (every one, in a store or
	// filtered set of at most 64 vectors) against the refined vectors with
	// the float32 query. On amd64 with AVX2 both steps run in assembly and
	// are several times faster than a float32 scan; elsewhere they are
	// plain Go, no faster than float32, and the gain is memory only. The
	// refined vectors are within 1/8 of a quantization step of the
	// originals, so scores differ slightly from exact cosine and the order
	// of near-ties can differ from exact search: recall against exact
	// search is measured in the package README. Vectors returned by a
	// compact store are these reconstructions.
	Compact bool

	// Workers is the most goroutines one query may scan with. Zero means
	// runtime.GOMAXPROCS(0) when the store is made. A query uses as many
	// as its work keeps busy, so small stores are scanned by one.
	Workers int
}

// Memory is an in-memory [VectorStore]: exact cosine search over vectors kept
// in one contiguous slab (or an int8 slab with [MemoryConfig.Compact]), a
// per-document index for [Memory.Range], and persistence with
// [Memory.Save] and [Load]. It is safe for concurrent use: queries run in
// parallel with each other, writes wait for running queries and queries
// for running writes, and every write is all-or-nothing.
//
// The zero Memory is an empty store with the zero [MemoryConfig], ready to
// use; [NewMemory] makes one with another configuration. A Memory must not
// be copied after first use.
type Memory struct {
	once    sync.Once // sets up a zero Memory on first use
	workers int
	minWork int // see minWorkPerWorker; tests lower it to force a fan-out
	compact bool

	mu     sync.RWMutex
	closed bool
	dim    int
	st     slots
	byID   map[string]int32
	docs   map[string][]int32 // slots of each document, sorted by (Index, ID)

	idBefore func(a, b int32) bool // breaks ties in score by ID
}

// slots holds the stored records, one slot per record, densely: slot i's
// vector is vecs[i*dim:(i+1)*dim] (or its codes in codes, resid and
// scales). Deleting moves the last slot into the hole, so a scan never
// skips anything.
type slots struct {
	compact bool
	recs    []Record // Vector is nil; the vector lives in the slab
	vecs    []float32
	codes   []int8
	resid   []byte
	scales  []float32
}

// NewMemory returns an empty store configured by cfg. A Dimension outside
// [0, MaxDimension] or a negative Workers gives a [*ConfigError].
func NewMemory(cfg MemoryConfig) (*Memory, error) {
	if cfg.Dimension < 0 || cfg.Dimension > MaxDimension {
		return nil, &ConfigError{Field: "Dimension", Value: cfg.Dimension, Err: errOutOfRange}
	}
	if cfg.Workers < 0 {
		return nil, &ConfigError{Field: "Workers", Value: cfg.Workers, Err: errNegative}
	}
	m := &Memory{workers: cfg.Workers, compact: cfg.Compact, dim: cfg.Dimension}
	m.init()
	return m, nil
}

// init fills in the defaults of the configuration and makes the maps, once,
// so that the zero Memory works. Every method calls it first.
func (m *Memory) init() {
	m.once.Do(func() {
		if m.workers == 0 {
			m.workers = runtime.GOMAXPROCS(0)
		}
		if m.minWork == 0 {
			m.minWork = minWorkPerWorker
		}
		m.st.compact = m.compact
		m.byID = make(map[string]int32)
		m.docs = make(map[string][]int32)
		m.idBefore = func(a, b int32) bool { return m.st.recs[a].ID < m.st.recs[b].ID }
	})
}

// Len returns the number of records stored; 0 once the store is closed.
func (m *Memory) Len() int {
	m.init()
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.st.recs)
}

// Dimension returns the length of the stored vectors, or 0 while it is not
// yet known. Once known it stays, even when every record is deleted, and
// [Memory.Save] keeps it.
func (m *Memory) Dimension() int {
	m.init()
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.dim
}

// Config returns the store's configuration with its defaults resolved:
// Dimension is the store's dimension (0 while not yet known), Workers the
// number of goroutines a query may use. A store made by [NewMemory] with
// the result accepts the same vectors.
func (m *Memory) Config() MemoryConfig {
	m.init()
	m.mu.RLock()
	defer m.mu.RUnlock()
	return MemoryConfig{Dimension: m.dim, Compact: m.compact, Workers: m.workers}
}

// Close releases the stored data. Every later call returns [ErrClosed].
func (m *Memory) Close() error {
	m.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	m.closed = true
	m.st = slots{compact: m.compact}
	m.byID, m.docs = nil, nil
	return nil
}

// batch is a validated Upsert: records with cloned metadata and their
// normalised (or quantized) vectors in one slab, later duplicates of an ID
// having replaced earlier ones.
type batch struct {
	dim  int
	recs []Record
	st   slots
}

// prepare validates records and lays out their vectors outside the lock.
func (m *Memory) prepare(records []Record, docID string) (*batch, error) {
	b := &batch{st: slots{compact: m.compact}}
	if len(records) == 0 {
		return b, nil
	}
	b.dim = len(records[0].Vector)
	for i := range records {
		if err := checkRecord(&records[i], b.dim, docID); err != nil {
			err.Index, err.ID = i, records[i].ID
			return nil, err
		}
	}
	keep := lastOfEachID(records)
	b.recs = make([]Record, 0, len(keep))
	b.st.grow(len(keep), b.dim)
	vec := make([]float32, b.dim)
	for _, i := range keep {
		r := records[i]
		copy(vec, r.Vector)
		if n := kernel.Normalize(vec); n == 0 || n != n {
			reason := errZero
			if n != n {
				reason = errNonFinite
			}
			return nil, &RecordError{Index: i, ID: r.ID, Field: "Vector", Err: reason}
		}
		b.st.appendVector(vec)
		r.Vector = nil
		r.Metadata = cloneMetadata(r.Metadata)
		b.recs = append(b.recs, r)
	}
	return b, nil
}

// cloneMetadata copies metadata; an empty map becomes nil, as it comes
// back from [Load].
func cloneMetadata(md map[string]string) map[string]string {
	if len(md) == 0 {
		return nil
	}
	return maps.Clone(md)
}

// checkRecord returns what is wrong with r, if anything; the caller fills
// in its position and ID.
func checkRecord(r *Record, dim int, docID string) *RecordError {
	bad := func(field string, err error) *RecordError { return &RecordError{Field: field, Err: err} }
	switch {
	case r.ID == "":
		return bad("ID", errEmpty)
	case !utf8.ValidString(r.ID):
		return bad("ID", errUTF8)
	case r.DocID == "":
		return bad("DocID", errEmpty)
	case !utf8.ValidString(r.DocID):
		return bad("DocID", errUTF8)
	case docID != "" && r.DocID != docID:
		return bad("DocID", fmt.Errorf("is %q, not the document being replaced, %q", r.DocID, docID))
	case r.Index < 0:
		return bad("Index", errNegative)
	case r.Start < 0:
		return bad("Start", errNegative)
	case r.End < r.Start:
		return bad("End", errEndBefore)
	case !utf8.ValidString(r.Text):
		return bad("Text", errUTF8)
	case len(r.Vector) == 0:
		return bad("Vector", errEmpty)
	case len(r.Vector) > MaxDimension:
		return bad("Vector", errTooLong)
	case len(r.Vector) != dim:
		return bad("Vector", fmt.Errorf("%w: %d, not %d like the first record", ErrDimensionMismatch, len(r.Vector), dim))
	}
	for k, v := range r.Metadata {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return bad("Metadata", fmt.Errorf("%w: key %q", errUTF8, k))
		}
	}
	return nil
}

// lastOfEachID returns the positions of the records to keep, in order:
// the last record of each ID.
func lastOfEachID(records []Record) []int {
	if len(records) == 1 {
		return []int{0}
	}
	last := make(map[string]int, len(records))
	for i, r := range records {
		last[r.ID] = i
	}
	out := make([]int, 0, len(last))
	for i, r := range records {
		if last[r.ID] == i {
			out = append(out, i)
		}
	}
	return out
}

// grow makes room for n more slots of dim, so that a large batch is
// copied into place once rather than through repeated reallocation.
func (s *slots) grow(n, dim int) {
	s.recs = slices.Grow(s.recs, n)
	if !s.compact {
		s.vecs = slices.Grow(s.vecs, n*dim)
		return
	}
	s.codes = slices.Grow(s.codes, n*dim)
	s.resid = slices.Grow(s.resid, n*kernel.ResidualBytes(dim))
	s.scales = slices.Grow(s.scales, n)
}

func (s *slots) appendVector(v []float32) {
	if !s.compact {
		s.vecs = append(s.vecs, v...)
		return
	}
	n := len(s.codes)
	s.codes = slices.Grow(s.codes, len(v))[:n+len(v)]
	rb := kernel.ResidualBytes(len(v))
	r := len(s.resid)
	s.resid = slices.Grow(s.resid, rb)[:r+rb]
	clear(s.resid[r:])
	s.scales = append(s.scales, kernel.Quantize(v, s.codes[n:], s.resid[r:]))
}

// setVector copies the vector of slot j of src into slot i of s.
func (s *slots) setVector(i int, src *slots, j, dim int) {
	if !s.compact {
		copy(s.vecs[i*dim:(i+1)*dim], src.vecs[j*dim:(j+1)*dim])
		return
	}
	copy(s.codes[i*dim:(i+1)*dim], src.codes[j*dim:(j+1)*dim])
	rb := kernel.ResidualBytes(dim)
	copy(s.resid[i*rb:(i+1)*rb], src.resid[j*rb:(j+1)*rb])
	s.scales[i] = src.scales[j]
}

// appendSlot appends slot j of src to s.
func (s *slots) appendSlot(src *slots, j, dim int, rec Record) {
	s.recs = append(s.recs, rec)
	if !s.compact {
		s.vecs = append(s.vecs, src.vecs[j*dim:(j+1)*dim]...)
		return
	}
	rb := kernel.ResidualBytes(dim)
	s.codes = append(s.codes, src.codes[j*dim:(j+1)*dim]...)
	s.resid = append(s.resid, src.resid[j*rb:(j+1)*rb]...)
	s.scales = append(s.scales, src.scales[j])
}

// truncate drops the last slot.
func (s *slots) truncate(dim int) {
	n := len(s.recs) - 1
	s.recs[n] = Record{}
	s.recs = s.recs[:n]
	if !s.compact {
		s.vecs = s.vecs[:n*dim]
		return
	}
	s.codes = s.codes[:n*dim]
	s.resid = s.resid[:n*kernel.ResidualBytes(dim)]
	s.scales = s.scales[:n]
}

// vector writes the stored vector of slot i into dst.
func (s *slots) vector(dst []float32, i, dim int) {
	if !s.compact {
		copy(dst, s.vecs[i*dim:(i+1)*dim])
		return
	}
	rb := kernel.ResidualBytes(dim)
	kernel.Reconstruct(dst, s.codes[i*dim:(i+1)*dim], s.resid[i*rb:(i+1)*rb], s.scales[i])
}

// Upsert adds records, replacing any stored record with the same ID (a
// later record in the same call replaces an earlier one). Vectors are
// copied and normalised to unit length. Either every record is stored or,
// on error, none is.
func (m *Memory) Upsert(ctx context.Context, records ...Record) error {
	return m.write(ctx, records, "", false)
}

// ReplaceDocument replaces every record of document docID with records
// (which must all have that DocID) in one step: a concurrent reader sees
// either the old records or the new ones, never a mix. With no records it
// deletes the document.
func (m *Memory) ReplaceDocument(ctx context.Context, docID string, records ...Record) error {
	if docID == "" {
		return fmt.Errorf("%w: empty document ID", ErrInvalidArgument)
	}
	return m.write(ctx, records, docID, true)
}

func (m *Memory) write(ctx context.Context, records []Record, docID string, replace bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.init()
	b, err := m.prepare(records, docID)
	if err != nil {
		return err
	}
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if len(b.recs) > 0 && m.dim != 0 && b.dim != m.dim {
		return &RecordError{Index: 0, ID: records[0].ID, Field: "Vector",
			Err: fmt.Errorf("%w: %d, store has %d", ErrDimensionMismatch, b.dim, m.dim)}
	}
	if replace {
		m.removeDocument(docID)
	}
	if len(b.recs) > 0 {
		m.dim = b.dim
		m.apply(b)
	}
	return nil
}

// apply stores a prepared batch. The caller holds the write lock.
func (m *Memory) apply(b *batch) {
	m.st.grow(len(b.recs), m.dim)
	pending := make(map[string][]int32)
	for i, r := range b.recs {
		slot, ok := m.byID[r.ID]
		if !ok {
			slot = int32(len(m.st.recs))
			m.st.appendSlot(&b.st, i, m.dim, r)
			m.byID[r.ID] = slot
			pending[r.DocID] = append(pending[r.DocID], slot)
			continue
		}
		old := m.st.recs[slot]
		moved := old.DocID != r.DocID || old.Index != r.Index
		if moved {
			m.docRemove(slot)
		}
		m.st.recs[slot] = r
		m.st.setVector(int(slot), &b.st, i, m.dim)
		if moved {
			pending[r.DocID] = append(pending[r.DocID], slot)
		}
	}
	for docID, add := range pending {
		m.docInsert(docID, add)
	}
}

// key orders the slots of one document: by Index, then by ID.
func (m *Memory) key(a, b int32) int {
	ra, rb := &m.st.recs[a], &m.st.recs[b]
	if c := cmp.Compare(ra.Index, rb.Index); c != 0 {
		return c
	}
	return cmp.Compare(ra.ID, rb.ID)
}

// docInsert merges slots (not yet indexed) into the index of docID in
// O(len(existing) + len(slots) log len(slots)), and in O(len(slots)) when
// they come after every existing unit, as they do when a document is
// upserted in order.
func (m *Memory) docInsert(docID string, add []int32) {
	slices.SortFunc(add, m.key)
	cur := m.docs[docID]
	if len(cur) == 0 || m.key(cur[len(cur)-1], add[0]) < 0 {
		m.docs[docID] = append(cur, add...)
		return
	}
	merged := make([]int32, 0, len(cur)+len(add))
	i, j := 0, 0
	for i < len(cur) && j < len(add) {
		if m.key(cur[i], add[j]) < 0 {
			merged = append(merged, cur[i])
			i++
		} else {
			merged = append(merged, add[j])
			j++
		}
	}
	merged = append(merged, cur[i:]...)
	m.docs[docID] = append(merged, add[j:]...)
}

// docPos returns the position of slot in its document's index.
func (m *Memory) docPos(slot int32) (string, int) {
	docID := m.st.recs[slot].DocID
	list := m.docs[docID]
	i, _ := slices.BinarySearchFunc(list, slot, m.key)
	return docID, i
}

// docRemove takes slot out of its document's index.
func (m *Memory) docRemove(slot int32) {
	docID, i := m.docPos(slot)
	list := slices.Delete(m.docs[docID], i, i+1)
	if len(list) == 0 {
		delete(m.docs, docID)
		return
	}
	m.docs[docID] = list
}

// removeSlot deletes the record in slot, which must already be out of the
// document index, by moving the last slot into its place.
func (m *Memory) removeSlot(slot int32) {
	delete(m.byID, m.st.recs[slot].ID)
	last := int32(len(m.st.recs) - 1)
	if slot != last {
		docID, i := m.docPos(last)
		m.docs[docID][i] = slot
		m.st.recs[slot] = m.st.recs[last]
		m.st.setVector(int(slot), &m.st, int(last), m.dim)
		m.byID[m.st.recs[slot].ID] = slot
	}
	m.st.truncate(m.dim)
}

// removeDocument deletes every record of docID. The caller holds the write
// lock.
func (m *Memory) removeDocument(docID string) {
	list := m.docs[docID]
	if len(list) == 0 {
		return
	}
	delete(m.docs, docID)
	// Highest slots first: the last slot, moved into each hole, is then
	// never one that is still to be deleted.
	list = slices.Clone(list)
	slices.SortFunc(list, func(a, b int32) int { return cmp.Compare(b, a) })
	for _, s := range list {
		m.removeSlot(s)
	}
}

// lock takes the write lock, unless ctx is done or the store is closed.
func (m *Memory) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.init()
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return ErrClosed
	}
	return nil
}

// rlock takes the read lock, unless ctx is done or the store is closed.
func (m *Memory) rlock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.init()
	m.mu.RLock()
	if m.closed {
		m.mu.RUnlock()
		return ErrClosed
	}
	return nil
}

// DeleteDocument removes every record of docID. Deleting a document that
// has no records is not an error.
func (m *Memory) DeleteDocument(ctx context.Context, docID string) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	m.removeDocument(docID)
	return nil
}

// Delete removes the records with the given IDs; IDs that are not stored
// are ignored.
func (m *Memory) Delete(ctx context.Context, ids ...string) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	for _, id := range ids {
		if slot, ok := m.byID[id]; ok {
			m.docRemove(slot)
			m.removeSlot(slot)
		}
	}
	return nil
}

// Get returns the record with the given ID, or an error wrapping
// [ErrNotFound].
func (m *Memory) Get(ctx context.Context, id string) (Record, error) {
	if err := m.rlock(ctx); err != nil {
		return Record{}, err
	}
	defer m.mu.RUnlock()
	slot, ok := m.byID[id]
	if !ok {
		return Record{}, fmt.Errorf("%w: record %q", ErrNotFound, id)
	}
	return m.records([]int32{slot})[0], nil
}

// Range returns the records of document docID whose Index is in [from, to],
// in order of Index (then ID), in O(log n + results). It returns an error
// wrapping [ErrNotFound] if the document has no records and one wrapping
// [ErrInvalidArgument] if from > to. A range past either end of the
// document is cut to the records that exist, so a sentence window may ask
// for Index-2 .. Index+2 without checking bounds.
func (m *Memory) Range(ctx context.Context, docID string, from, to int) ([]Record, error) {
	if from > to {
		return nil, fmt.Errorf("%w: range start %d is after its end %d", ErrInvalidArgument, from, to)
	}
	if err := m.rlock(ctx); err != nil {
		return nil, err
	}
	defer m.mu.RUnlock()
	list, ok := m.docs[docID]
	if !ok {
		return nil, fmt.Errorf("%w: document %q", ErrNotFound, docID)
	}
	lo, _ := slices.BinarySearchFunc(list, from, func(s int32, i int) int {
		return cmp.Compare(m.st.recs[s].Index, i)
	})
	hi := lo
	for hi < len(list) && m.st.recs[list[hi]].Index <= to {
		hi++
	}
	return m.records(list[lo:hi]), nil
}

// records returns copies of the records in the given slots, their vectors
// sharing one allocation. The caller holds the read lock.
func (m *Memory) records(sl []int32) []Record {
	out := make([]Record, len(sl))
	slab := make([]float32, len(sl)*m.dim)
	for i, s := range sl {
		out[i] = m.record(s, nth(slab, i, m.dim))
	}
	return out
}

// nth returns the i'th vector of dim in slab, with no room to grow into
// the next one.
func nth(slab []float32, i, dim int) []float32 { return slab[i*dim : (i+1)*dim : (i+1)*dim] }

// record returns a copy of the record in slot, with its metadata copied
// and its vector written into vec. The caller holds the read lock.
func (m *Memory) record(slot int32, vec []float32) Record {
	r := m.st.recs[slot]
	r.Metadata = cloneMetadata(r.Metadata)
	m.st.vector(vec, int(slot), m.dim)
	r.Vector = vec
	return r
}

var _ VectorStore = (*Memory)(nil)
