package kernel

// Candidate is a scored slot of the store.
type Candidate struct {
	Score float32
	Slot  int32
}

// TopK keeps the k best candidates seen so far in a min-heap whose root is
// the worst one kept, so a scan compares each new score with one number and
// touches the heap only when the score is good enough. Ties are broken by
// Before, which makes the result independent of the order of the scan.
type TopK struct {
	k      int
	h      []Candidate
	Before func(a, b int32) bool // a ranks before b when their scores are equal
}

// Reset empties t and sets its capacity to k.
func (t *TopK) Reset(k int) {
	t.k = k
	if cap(t.h) < k {
		// Eight spare candidates are a cache line, so that the heaps of
		// goroutines scanning side by side never share one.
		t.h = make([]Candidate, 0, k+8)
	}
	t.h = t.h[:0]
}

// Len returns the number of candidates kept.
func (t *TopK) Len() int { return len(t.h) }

// Accepts reports whether a candidate with this score might be kept: the
// heap is not full, or the score is at least the worst kept score. A scan
// calls Accepts first so that filters run only on promising candidates.
func (t *TopK) Accepts(score float32) bool {
	return len(t.h) < t.k || score >= t.h[0].Score
}

// Push offers a candidate.
func (t *TopK) Push(score float32, slot int32) {
	c := Candidate{score, slot}
	if len(t.h) < t.k {
		t.h = append(t.h, c)
		t.up(len(t.h) - 1)
		return
	}
	if t.k == 0 || !t.better(c, t.h[0]) {
		return
	}
	t.h[0] = c
	t.down(0)
}

// Items returns the kept candidates in no particular order. The slice is
// reused by the next Reset.
func (t *TopK) Items() []Candidate { return t.h }

// Better reports whether a ranks before b: a higher score, or an equal
// score and Before(a, b).
func (t *TopK) better(a, b Candidate) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return t.tie(a.Slot, b.Slot)
}

// tie breaks a tie in score. Ties are rare: it is kept out of better, so
// that better inlines into the heap's loops.
//
//go:noinline
func (t *TopK) tie(a, b int32) bool { return t.Before != nil && t.Before(a, b) }

// Better is the order TopK keeps, for sorting merged results.
func (t *TopK) Better(a, b Candidate) bool { return t.better(a, b) }

func (t *TopK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !t.better(t.h[p], t.h[i]) {
			return
		}
		t.h[p], t.h[i] = t.h[i], t.h[p]
		i = p
	}
}

func (t *TopK) down(i int) {
	n := len(t.h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		w := l // the worse child
		if r := l + 1; r < n && t.better(t.h[l], t.h[r]) {
			w = r
		}
		if !t.better(t.h[i], t.h[w]) {
			return
		}
		t.h[i], t.h[w] = t.h[w], t.h[i]
		i = w
	}
}
