package vectorstore

import (
	"slices"

	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
)

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

// grow makes room for n more slots of dim, so that a large batch is
// copied into place once rather than through repeated reallocation.
func (s *slots) grow(n, dim int) {
	s.recs = growSlab(s.recs, n)
	if !s.compact {
		s.vecs = growSlab(s.vecs, n*dim)
		return
	}
	s.codes = growSlab(s.codes, n*dim)
	s.resid = growSlab(s.resid, n*kernel.ResidualBytes(dim))
	s.scales = growSlab(s.scales, n)
}

// doubleBelow is the capacity up to which growSlab doubles a slab.
const doubleBelow = 1 << 28

// growSlab returns s with room for n more elements. Where it must
// reallocate, it at least doubles the capacity of a slab of fewer than
// doubleBelow elements: append grows large slices by a quarter, so that a
// store filled by many small writes (an index written a document at a
// time) copied its slab about five times over, and doubling copies it
// about twice. Beyond doubleBelow it leaves the growth to append, as
// the slack of a doubled slab would be gigabytes.
func growSlab[S ~[]E, E any](s S, n int) S {
	if n <= cap(s)-len(s) {
		return s
	}
	if c := cap(s); c < doubleBelow {
		// One more than double makes append allocate exactly that much.
		n = max(n, 2*c+1-len(s))
	}
	return slices.Grow(s, n)
}

// appendRecord appends a slot holding r and the unit vector v.
func (s *slots) appendRecord(r Record, v []float32) {
	s.recs = append(s.recs, r)
	if !s.compact {
		s.vecs = append(s.vecs, v...)
		return
	}
	n := len(s.codes)
	s.codes = slices.Grow(s.codes, len(v))[:n+len(v)]
	rb := kernel.ResidualBytes(len(v))
	r0 := len(s.resid)
	s.resid = slices.Grow(s.resid, rb)[:r0+rb]
	clear(s.resid[r0:])
	s.scales = append(s.scales, kernel.Quantize(v, s.codes[n:], s.resid[r0:]))
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
func (s *slots) appendSlot(src *slots, j, dim int) {
	s.recs = append(s.recs, src.recs[j])
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
