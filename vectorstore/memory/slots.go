package memory

import (
	"slices"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
)

// unit is a record as the store keeps it: the fields every record has
// inline, and its provenance and notes, which many records lack, behind
// one pointer, so that a record without them costs a pointer more, not
// the fields' 216 bytes. The vector lives in the slabs.
type unit struct {
	ID, DocID         string
	Index, Start, End int
	Text              string
	Metadata          map[string]string
	extra             *extra // nil when the record has no provenance and no notes
}

// extra is the provenance and notes of a record that has any.
type extra struct {
	title    string
	section  []string
	source   string
	location document.Location
	notes    vectorstore.Notes
}

// unitOf returns r as the store keeps it, sharing r's strings, with its
// Metadata and Section copied.
func unitOf(r *vectorstore.Record) unit {
	u := unit{ID: r.ID, DocID: r.DocID, Index: r.Index, Start: r.Start, End: r.End, Text: r.Text, Metadata: cloneMetadata(r.Metadata)}
	if r.Title != "" || len(r.Section) > 0 || r.Source != "" || !r.Location.IsZero() || r.Notes != (vectorstore.Notes{}) {
		u.extra = &extra{title: r.Title, source: r.Source, location: r.Location, notes: r.Notes}
		if len(r.Section) > 0 {
			u.extra.section = slices.Clone(r.Section)
		}
	}
	return u
}

// record returns u as a Record, without its vector, with its Metadata and
// Section copied: records a store returns are the caller's to change.
func (u *unit) record() vectorstore.Record {
	r := vectorstore.Record{ID: u.ID, DocID: u.DocID, Index: u.Index, Start: u.Start, End: u.End, Text: u.Text, Metadata: cloneMetadata(u.Metadata)}
	if x := u.extra; x != nil {
		r.Title, r.Section, r.Source, r.Location, r.Notes = x.title, slices.Clone(x.section), x.source, x.location, x.notes
	}
	return r
}

// keywords returns the words keyword search finds u by besides its Text.
func (u *unit) keywords() string {
	if u.extra == nil {
		return ""
	}
	return u.extra.notes.Keywords
}

// slots holds the stored records, one slot per record, densely: slot i's
// vector is vecs.row(i) (or its codes in codes, resid and scales).
// Deleting moves the last slot into the hole, so a scan never skips
// anything.
type slots struct {
	compact bool
	recs    []unit // the vector lives in the slabs
	vecs    slab[float32]
	codes   slab[int8]
	resid   slab[byte]
	scales  []float32
}

// grow makes room for n more records of dim, so that a large batch is
// copied into place once rather than through repeated reallocation. The
// slabs grow a chunk at a time as rows are appended, without copying; an
// empty one starts with room for the n.
func (s *slots) grow(n, dim int) {
	s.setup(dim)
	s.recs = slices.Grow(s.recs, n)
	if !s.compact {
		s.vecs.reserve(n)
		return
	}
	s.codes.reserve(n)
	s.resid.reserve(n)
	s.scales = slices.Grow(s.scales, n)
}

// setup sets the slabs' row widths for vectors of dim, before the first
// slot is appended.
func (s *slots) setup(dim int) {
	if len(s.recs) > 0 {
		return
	}
	if !s.compact {
		s.vecs.setup(dim, 4*dim)
		return
	}
	s.codes.setup(dim, 4*dim)
	s.resid.setup(kernel.ResidualBytes(dim), 4*dim)
}

// appendRecord appends a slot holding r and the unit vector v.
func (s *slots) appendRecord(r unit, v []float32) {
	s.setup(len(v))
	s.recs = append(s.recs, r)
	if !s.compact {
		copy(s.vecs.appendRow(), v)
		return
	}
	resid := s.resid.appendRow()
	clear(resid)
	s.scales = append(s.scales, kernel.Quantize(v, s.codes.appendRow(), resid))
}

// setVector copies the vector of slot j of src into slot i of s.
func (s *slots) setVector(i int, src *slots, j int) {
	if !s.compact {
		copy(s.vecs.row(i), src.vecs.row(j))
		return
	}
	copy(s.codes.row(i), src.codes.row(j))
	copy(s.resid.row(i), src.resid.row(j))
	s.scales[i] = src.scales[j]
}

// appendSlot appends slot j of src to s.
func (s *slots) appendSlot(src *slots, j, dim int) {
	s.setup(dim)
	s.recs = append(s.recs, src.recs[j])
	if !s.compact {
		copy(s.vecs.appendRow(), src.vecs.row(j))
		return
	}
	copy(s.codes.appendRow(), src.codes.row(j))
	copy(s.resid.appendRow(), src.resid.row(j))
	s.scales = append(s.scales, src.scales[j])
}

// appendCodes appends a compact slot holding r and the given codes.
func (s *slots) appendCodes(r unit, codes []int8, resid []byte, scale float32) {
	s.setup(len(codes))
	s.recs = append(s.recs, r)
	copy(s.codes.appendRow(), codes)
	copy(s.resid.appendRow(), resid)
	s.scales = append(s.scales, scale)
}

// truncate drops the last slot.
func (s *slots) truncate() {
	n := len(s.recs) - 1
	s.recs[n] = unit{}
	s.recs = s.recs[:n]
	if !s.compact {
		s.vecs.truncate()
		return
	}
	s.codes.truncate()
	s.resid.truncate()
	s.scales = s.scales[:n]
}

// vector writes the stored vector of slot i into dst.
func (s *slots) vector(dst []float32, i int) {
	if !s.compact {
		copy(dst, s.vecs.row(i))
		return
	}
	kernel.Reconstruct(dst, s.codes.row(i), s.resid.row(i), s.scales[i])
}
