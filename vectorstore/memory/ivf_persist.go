package memory

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// The index section, after the trailer of a file whose header has flag 2:
//
//	index:   lists uvarint | trained size uvarint | (scale f32 | dimension int8 codes) per list | list uvarint per record | CRC-32C of the section u32
//
// The records' lists are in the order of the records in the file, which
// is the order of the slots of the store it loads into, so that [Load]
// puts every record in its list without training.
const flagIndex = 2

// savedIndex is an index read from a file, to be installed by the write
// that adopts the file's records.
type savedIndex struct {
	trainedN int
	cents    []int8
	cscale   []float32
	list     []int32
}

// hasIndex reports whether Save writes the index section. The caller
// holds the read lock.
func (m *Store) hasIndex() bool { return m.ivf != nil && m.ivf.active() && len(m.st.recs) > 0 }

// encodeIndex writes the index section; order is the slots in the order
// Save wrote them.
func (m *Store) encodeIndex(e *encoder, order func(yield func(int32) bool)) {
	ix := m.ivf
	e.crc = 0
	e.uvarint(uint64(ix.lists()))
	e.uvarint(uint64(ix.trainedN))
	var f [4]byte
	for j := range ix.lists() {
		binary.LittleEndian.PutUint32(f[:], math.Float32bits(ix.cscale[j]))
		e.write(f[:])
		e.write(int8Bytes(ix.cents[j*ix.dim : (j+1)*ix.dim]))
	}
	for slot := range order {
		e.uvarint(uint64(ix.list[slot]))
	}
	binary.LittleEndian.PutUint32(f[:], e.crc)
	e.write(f[:])
}

// readIndex reads the index section of a file of n records of dim.
func (d *decoder) readIndex(n, dim int) (*savedIndex, error) {
	d.crc = 0
	// At most one list per record, so that the centroids take no more
	// memory than the records already read.
	lists, err := d.uvarint(uint64(max(1, min(n, maxLists))), "number of lists")
	if err != nil {
		return nil, err
	}
	trained, err := d.uvarint(1<<40, "trained size")
	if err != nil {
		return nil, err
	}
	if lists == 0 || trained == 0 {
		return nil, d.corrupt("index of %d lists, trained at %d records", lists, trained)
	}
	s := &savedIndex{trainedN: int(trained), cents: make([]int8, int(lists)*dim), cscale: make([]float32, lists), list: make([]int32, n)}
	var f [4]byte
	for j := range int(lists) {
		if err := d.read(f[:]); err != nil {
			return nil, err
		}
		s.cscale[j] = math.Float32frombits(binary.LittleEndian.Uint32(f[:]))
		if err := d.read(int8Bytes(s.cents[j*dim : (j+1)*dim])); err != nil {
			return nil, err
		}
	}
	for i := range s.list {
		l, err := d.uvarint(lists-1, "list")
		if err != nil {
			return nil, err
		}
		s.list[i] = int32(l)
	}
	sum := d.crc
	if err := d.read(f[:]); err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint32(f[:]) != sum {
		return nil, d.corrupt("index checksum mismatch")
	}
	return s, nil
}

// install makes the saved index the store's, for a store that has just
// adopted the file's records: the write of a Load.
func (ix *ivf) install(s *savedIndex, dim int) {
	nl := len(s.cscale)
	ix.dim, ix.cents, ix.cscale, ix.list = dim, s.cents, s.cscale, s.list
	counts := make([]int, nl)
	for _, l := range s.list {
		counts[l]++
	}
	ix.members = make([][]int32, nl)
	for j := range nl {
		ix.members[j] = make([]int32, 0, counts[j])
	}
	ix.pos = make([]int32, len(s.list))
	for slot, l := range s.list {
		ix.pos[slot] = int32(len(ix.members[l]))
		ix.members[l] = append(ix.members[l], int32(slot))
	}
	ix.trainedN = s.trainedN
}

// int8Bytes returns the bytes of c, sharing its memory.
func int8Bytes(c []int8) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(c))), len(c))
}
