package memory

// A slab holds rows of a fixed width (a vector's components or codes) in
// chunks of a fixed number of rows, so that a store's memory follows its
// size: growing never copies what is stored, and the room allocated ahead
// is at most one chunk, about slabChunkBytes, plus an eighth of the last
// chunk. A single contiguous slab had to double to keep its copies few,
// and then held up to twice its vectors' memory.
//
// Every chunk but the last holds 1<<shift rows; scans go over a chunk at
// a time (span), so the kernels still run over contiguous memory.
type slab[E any] struct {
	width  int
	shift  uint
	chunks [][]E
	n      int // rows
}

// slabChunkBytes is about the size of a full chunk: large enough that a scan
// crosses a chunk boundary rarely (once per 128 vectors of 384 float32s),
// small enough that the room allocated ahead is negligible beside a store
// of 10,000 vectors.
const slabChunkBytes = 192 << 10

// setup sets the row width and the rows per chunk, from the bytes of one
// vector of the store; all the slabs of a store get the same rows per
// chunk. It must be called before the first row is appended.
func (s *slab[E]) setup(width, vecBytes int) {
	s.width, s.shift = width, 0
	for s.shift < 20 && 2<<s.shift*vecBytes <= slabChunkBytes {
		s.shift++
	}
}

// row returns row i, with no capacity beyond it.
func (s *slab[E]) row(i int) []E {
	c := s.chunks[i>>s.shift]
	o := (i & (1<<s.shift - 1)) * s.width
	return c[o : o+s.width : o+s.width]
}

// span returns rows lo to at most hi (exclusive) as one contiguous slice:
// up to the end of lo's chunk. It has a whole number of rows, at least one
// if lo < hi.
func (s *slab[E]) span(lo, hi int) []E {
	c := s.chunks[lo>>s.shift]
	first := lo & (1<<s.shift - 1)
	n := min(hi-lo, 1<<s.shift-first)
	return c[first*s.width : (first+n)*s.width]
}

// reserve makes the first chunk of an empty slab the size of n rows, or
// a full chunk if that is less: a batch of one record takes one row.
func (s *slab[E]) reserve(n int) {
	if len(s.chunks) == 0 {
		s.chunks = append(s.chunks, make([]E, 0, min(n, 1<<s.shift)*s.width))
	}
}

// appendRow appends a row and returns it, to be filled by the caller.
// A new chunk is allocated whole, but the first grows by an eighth (or
// four rows) at a time, so that a store smaller than a chunk holds little
// room ahead too; its copies are of one chunk at most.
func (s *slab[E]) appendRow() []E {
	k := s.n >> s.shift
	if k == len(s.chunks) {
		s.chunks = append(s.chunks, nil)
	}
	c := s.chunks[k]
	if len(c) == cap(c) {
		rows := 1 << s.shift
		if k == 0 {
			rows = min(rows, len(c)/s.width+max(len(c)/s.width/8, 4))
		}
		grown := make([]E, len(c), rows*s.width)
		copy(grown, c)
		c = grown
	}
	c = c[:len(c)+s.width]
	s.chunks[k] = c
	s.n++
	return c[len(c)-s.width:]
}

// truncate drops the last row, and its chunk once empty, so that the
// memory of deleted rows is given back a chunk at a time.
func (s *slab[E]) truncate() {
	s.n--
	k := s.n >> s.shift
	c := s.chunks[k]
	clear(c[len(c)-s.width:])
	if c = c[:len(c)-s.width]; len(c) == 0 {
		s.chunks[k] = nil
		s.chunks = s.chunks[:k]
		return
	}
	s.chunks[k] = c
}
