package memory

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
)

// Upsert adds records, replacing any stored record with the same ID (a
// later record in the same call replaces an earlier one). Vectors are
// copied and normalised to unit length. Either every record is stored or,
// on error, none is.
func (m *Store) Upsert(ctx context.Context, records ...vectorstore.Record) error {
	return m.write(ctx, records, "")
}

// ReplaceDocument replaces every record of document docID with records
// (which must all have that DocID) in one step: a concurrent reader sees
// either the old records or the new ones, never a mix. With no records it
// deletes the document.
func (m *Store) ReplaceDocument(ctx context.Context, docID string, records ...vectorstore.Record) error {
	if docID == "" {
		return fmt.Errorf("%w: empty document ID", vectorstore.ErrInvalidArgument)
	}
	return m.write(ctx, records, docID)
}

// write prepares records outside the lock and commits them, replacing the
// records of document replace if it is not empty.
func (m *Store) write(ctx context.Context, records []vectorstore.Record, replace string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.init()
	b, err := m.prepare(records, replace)
	if err != nil {
		return err
	}
	c := change{put: b}
	if replace != "" {
		c.docs = []string{replace}
	}
	return m.commit(ctx, c)
}

// change is one write, all or nothing: the records of the documents in
// docs and those with the IDs in ids are removed, then the records of put
// are stored, replacing any that have the same ID.
type change struct {
	docs []string
	ids  []string
	put  *batch // prepared outside the lock; may be nil
}

// commit applies c under the write lock.
func (m *Store) commit(ctx context.Context, c change) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	return m.apply(c)
}

// apply makes the change c. Every write (Upsert, ReplaceDocument, Delete,
// DeleteDocument, Load) is a change, and apply, with the helpers it
// calls, is the only code that adds, replaces or removes a record: an
// index kept beside the vectors (a keyword index) is kept in step here,
// under the same lock, so that no reader sees one updated without the
// other. The hooks are removeSlot (a record leaves; the last slot moves
// into its place, so an index by slot must follow), adopt (the records of
// an empty store arrive) and insert (a record arrives in a new slot, or
// replaces the record in its slot). The caller holds the write lock.
func (m *Store) apply(c change) error {
	b := c.put
	if b != nil && len(b.st.recs) > 0 && m.dim != 0 && b.dim != m.dim {
		return &vectorstore.RecordError{Index: b.pos[0], ID: b.st.recs[0].ID, Field: "Vector",
			Err: fmt.Errorf("%w: %d, store has %d", vectorstore.ErrDimensionMismatch, b.dim, m.dim)}
	}
	m.writes++
	for _, docID := range c.docs {
		m.removeDocument(docID)
	}
	for _, id := range c.ids {
		if slot, ok := m.byID[id]; ok {
			m.docRemove(slot)
			m.removeSlot(slot)
		}
	}
	before := len(m.st.recs)
	if b != nil && len(b.st.recs) > 0 {
		m.dim = b.dim
		m.put(b)
	}
	m.ivfAfterWrite(before, b)
	return nil
}

// put stores the records of b, replacing those with the same IDs, and
// indexes them by document.
func (m *Store) put(b *batch) {
	var added map[string][]int32
	if len(m.st.recs) == 0 {
		added = m.adopt(b)
	} else {
		added = m.insert(b)
	}
	for docID, slots := range added {
		m.docInsert(docID, slots)
	}
}

// adopt makes b's slots and keyword index the empty store's own, rather
// than copying them (a Load, a first Upsert), and returns the slots of
// each document.
func (m *Store) adopt(b *batch) map[string][]int32 {
	added := make(map[string][]int32)
	m.st, m.kw = b.st, b.kw
	for i, r := range m.st.recs {
		m.byID[r.ID] = int32(i)
		added[r.DocID] = append(added[r.DocID], int32(i))
	}
	return added
}

// insert copies b's records into the store, each into a new slot or over
// the record with its ID, merges b's keyword index into the store's, and
// returns the slots that the document index is to gain, by document.
func (m *Store) insert(b *batch) map[string][]int32 {
	added := make(map[string][]int32)
	dest := make([]int32, len(b.st.recs))
	m.st.grow(len(b.st.recs), m.dim)
	var c *coder
	for i, r := range b.st.recs {
		slot, ok := m.byID[r.ID]
		if !ok {
			slot = int32(len(m.st.recs))
			dest[i] = slot
			m.st.appendSlot(&b.st, i, m.dim)
			m.byID[r.ID] = slot
			added[r.DocID] = append(added[r.DocID], slot)
			continue
		}
		dest[i] = slot
		old := m.st.recs[slot]
		m.kw.kill(&m.an, slot, &old)
		moved := old.DocID != r.DocID || old.Index != r.Index
		if moved {
			m.docRemove(slot)
		}
		m.st.recs[slot] = r
		m.st.setVector(int(slot), &b.st, i)
		m.ivfReplaced(&c, slot)
		if moved {
			added[r.DocID] = append(added[r.DocID], slot)
		}
	}
	m.kw.merge(&b.kw, dest)
	return added
}

// DeleteDocument removes every record of docID. Deleting a document that
// has no records is not an error.
func (m *Store) DeleteDocument(ctx context.Context, docID string) error {
	return m.commit(ctx, change{docs: []string{docID}})
}

// Delete removes the records with the given IDs; IDs that are not stored
// are ignored.
func (m *Store) Delete(ctx context.Context, ids ...string) error {
	return m.commit(ctx, change{ids: ids})
}

// batch is a validated write: records with cloned metadata and their
// normalised (or quantized) vectors, in slots of their own, later
// duplicates of an ID having replaced earlier ones, and the keyword index
// of their texts.
type batch struct {
	dim   int
	st    slots
	kw    keywords
	pos   []int       // where each record was among the caller's records
	saved *savedIndex // the index of a loaded file, or nil
}

// index builds the keyword index of b's texts, outside the lock.
func (m *Store) index(b *batch) {
	a := anPool.Get().(*analyzer)
	a.keepStops = m.bm25.keepStops
	b.kw = a.index(b.st.recs)
	anPool.Put(a)
}

var anPool = sync.Pool{New: func() any { return new(analyzer) }}

// prepare validates records and lays out their vectors outside the lock.
func (m *Store) prepare(records []vectorstore.Record, docID string) (*batch, error) {
	b := &batch{st: slots{compact: m.compact}}
	if len(records) == 0 {
		return b, nil
	}
	b.dim = len(records[0].Vector)
	if err := vectorstore.CheckRecords(docID, b.dim, records...); err != nil {
		return nil, err // every record, so that Store refuses what adapters refuse
	}
	b.pos = lastOfEachID(records)
	b.st.grow(len(b.pos), b.dim)
	vec := make([]float32, b.dim)
	for _, i := range b.pos {
		copy(vec, records[i].Vector)
		kernel.Normalize(vec) // CheckRecords refused every vector without a direction
		b.st.appendRecord(unitOf(&records[i]), vec)
	}
	m.index(b)
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

// lastOfEachID returns the positions of the records to keep, in order:
// the last record of each ID.
func lastOfEachID(records []vectorstore.Record) []int {
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

// key orders the slots of one document: by Index, then by ID.
func (m *Store) key(a, b int32) int {
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
func (m *Store) docInsert(docID string, add []int32) {
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
func (m *Store) docPos(slot int32) (string, int) {
	docID := m.st.recs[slot].DocID
	list := m.docs[docID]
	i, _ := slices.BinarySearchFunc(list, slot, m.key)
	return docID, i
}

// docRemove takes slot out of its document's index.
func (m *Store) docRemove(slot int32) {
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
func (m *Store) removeSlot(slot int32) {
	m.kw.removeSlot(&m.an, slot, &m.st.recs[slot])
	delete(m.byID, m.st.recs[slot].ID)
	last := int32(len(m.st.recs) - 1)
	m.ivfRemove(slot, last)
	if slot != last {
		docID, i := m.docPos(last)
		m.docs[docID][i] = slot
		m.st.recs[slot] = m.st.recs[last]
		m.st.setVector(int(slot), &m.st, int(last))
		m.byID[m.st.recs[slot].ID] = slot
	}
	m.st.truncate()
}

// removeDocument deletes every record of docID. The caller holds the write
// lock.
func (m *Store) removeDocument(docID string) {
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
