package hf

import (
	"bytes"
	"slices"
	"sync"
	"sync/atomic"
)

// Reading a BPE's merges ahead, on a second goroutine, while the
// vocabulary before them is read: a large tokenizer.json is mostly these
// two, and neither needs the other until a merge's tokens are looked up.
// The goroutine finds the merges array by its key, decodes the merges a
// chunk at a time and hands each chunk on; once the vocabulary's table is
// made, both goroutines look up the chunks' tokens.
//
// Finding the array by its key is a guess (a string elsewhere may spell
// it): what was read ahead is used only when the reading of the file in
// order arrives at the same array. The goroutine stops at the first merge
// it cannot read (of tokens outside the byte-level alphabet of a
// byte-level BPE, which its vocabulary may have left out; a syntax
// error): the reader in order goes on from there as if it had read all
// before.

// chunkMerges is how many merges a chunk read ahead holds.
const chunkMerges = 1024

// testHookChunk, when set by a test, is called before each chunk is
// decoded, with how many were.
var testHookChunk func(decoded int)

// mergesKey is how a file names its merges.
var mergesKey = []byte(`"merges"`)

// ahead is the reading ahead of one merges array.
type ahead struct {
	data    []byte
	unk     *string
	byteLvl bool
	stop    atomic.Bool // the reader in order has no use for what is read

	found chan struct{} // closed once start is set
	start int           // where the array read is, its '[' (-1 for none)

	// pairs and ids are where the chunks' lookups put the pair and the
	// merged token of each rank, sized for at most as many merges as
	// the rest of the file can hold (see bound); a chunk past them has
	// its own.
	pairs []uint64
	ids   []int32

	work  chan *mergeChunk // chunks to look up; closed after the last
	ready chan struct{}    // closed once vocab is set, or on cancel
	vocab *tokenTable      // nil on cancel
	byID  *tokensByID
	once  sync.Once // closes ready
	done  sync.WaitGroup

	// Set by the goroutine before done: the chunks decoded, in order,
	// and where it stopped: just after the array (complete), at the
	// start of the merge it could not decode (ranks merges before it),
	// or elsewhere (end < 0: nothing read ahead is of use).
	chunks   []*mergeChunk
	end      int
	complete bool
	ranks    int32

	sc    scan   // for merges with escapes
	first []byte // scratch for readMerge
	form  byte   // '"' or '[', the form of the first merge; 0 before it
}

// mergeChunk is a run of merges decoded ahead, and once looked up their
// pairs and merged tokens.
type mergeChunk struct {
	rank  int32    // of its first merge
	text  []byte   // the two tokens of each merge, decoded, one after the other
	lens  []uint32 // how many bytes the tokens of each merge take: a<<16 | b
	odd   bool     // a merge of a <0xXX> token or of the unknown token
	pairs []uint64 // where its lookups go
	ids   []int32
	last  int32 // the merged token of its last merge
	err   error // a token not in the vocabulary
	touch uint32
}

// readAhead starts reading ahead the merges of a BPE whose vocabulary is
// at data[from:], whose unknown token is unk and whose tokens are of the
// byte-level alphabet when byteLvl.
func readAhead(data []byte, from int, unk *string, byteLvl bool) *ahead {
	a := &ahead{data: data, unk: unk, byteLvl: byteLvl, start: -1, end: -1, found: make(chan struct{}), ready: make(chan struct{})}
	// A merge takes at least six bytes ("a b",), so the rest of the file
	// holds at most this many chunks: sending one never waits.
	a.work = make(chan *mergeChunk, (len(data)-from)/(6*chunkMerges)+1)
	a.done.Add(1)
	go a.run(from)
	return a
}

// run finds the merges array after from, decodes it and then looks up
// chunks until none is left. A panic here would end the program, out of
// the caller's reach: it is recovered as nothing read ahead being of
// use, so that the reader in order reads the merges again, on the
// caller's goroutine.
func (a *ahead) run(from int) {
	found, decoded := false, false
	defer func() {
		if recover() != nil {
			a.end = -1
		}
		if !found {
			close(a.found)
		}
		if !decoded {
			close(a.work)
		}
		a.done.Done()
	}()
	a.start = findMerges(a.data, from)
	close(a.found)
	found = true
	if a.start >= 0 {
		n := a.bound()
		a.pairs, a.ids = make([]uint64, n), make([]int32, n)
		a.decode()
	}
	close(a.work)
	decoded = true
	<-a.ready
	if a.vocab != nil {
		a.lookUp()
	}
}

// findMerges returns where the array of the first "merges": [ at or
// after from starts, or -1.
func findMerges(data []byte, from int) int {
	for from < len(data) {
		k := bytes.Index(data[from:], mergesKey)
		if k < 0 {
			return -1
		}
		i := skipWS(data, from+k+len(mergesKey))
		if i < len(data) && data[i] == ':' {
			if i = skipWS(data, i+1); i < len(data) && data[i] == '[' {
				return i
			}
		}
		from += k + 1
	}
	return -1
}

// bound returns how many merges the rest of the file can hold, at most:
// each has two quotes, or four when written as a pair as the first is.
func (a *ahead) bound() int {
	quotes := bytes.Count(a.data[a.start:], []byte{'"'})
	if i := skipWS(a.data, a.start+1); i < len(a.data) && a.data[i] == '[' {
		return min(quotes/4, maxVocab)
	}
	return min(quotes/2, maxVocab)
}

// decode decodes the merges of the array at start, a chunk at a time,
// until its end, a merge it cannot decode, or stop.
func (a *ahead) decode() {
	data := a.data
	i := skipWS(data, a.start+1)
	if i < len(data) && data[i] == ']' {
		a.end, a.complete = i+1, true
		return
	}
	for !a.stop.Load() {
		if testHookChunk != nil {
			testHookChunk(len(a.chunks))
		}
		c := &mergeChunk{rank: a.ranks, lens: make([]uint32, 0, chunkMerges), text: make([]byte, 0, 8*chunkMerges)}
		var more bool
		i, more = a.decodeChunk(c, i)
		if n := len(c.lens); n > 0 {
			if end := int(c.rank) + n; end <= len(a.pairs) {
				c.pairs, c.ids = a.pairs[c.rank:end], a.ids[c.rank:end]
			} else {
				c.pairs, c.ids = make([]uint64, n), make([]int32, n)
			}
			a.chunks = append(a.chunks, c)
			a.work <- c
		}
		if !more {
			return
		}
	}
	a.end = -1
}

// decodeChunk decodes merges into c from data[i:], the start of a merge,
// until c is full, and returns where the next merge starts and whether
// to go on; when it stops, it sets a.end, a.complete.
func (a *ahead) decodeChunk(c *mergeChunk, i int) (next int, more bool) {
	data := a.data
	for len(c.lens) < chunkMerges {
		a.end = i
		if a.ranks >= maxVocab {
			return i, false // the reader in order refuses the file
		}
		if i < len(data) && !sameForm(&a.form, data[i]) {
			return i, false // the reader in order refuses the file
		}
		m, n, end := a.decodeMerge(c, i)
		if end < 0 {
			return i, false
		}
		c.odd = c.odd || oddMerge(m, n, a.unk)
		a.ranks++
		switch i = skipWS(data, end); {
		case i < len(data) && data[i] == ',':
			i = skipWS(data, i+1)
		case i < len(data) && data[i] == ']':
			a.end, a.complete = i+1, true
			return a.end, false
		default:
			a.end = -1 // for the reader in order to report
			return i, false
		}
	}
	a.end = i
	return i, true
}

// decodeMerge decodes the merge at data[i:] into c and returns its two
// tokens as JSON strings and where it ends; end is -1 when it cannot:
// a token outside the byte-level alphabet (which the vocabulary may have
// left out), or bad JSON.
func (a *ahead) decodeMerge(c *mergeChunk, i int) (m, n []byte, end int) {
	off := len(c.text)
	na, k := 0, 0
	end = -1
	if a.byteLvl {
		c.text = slices.Grow(c.text, 64)
		m, n, na, k, end = quotedMerge(a.data, i, c.text[off:cap(c.text)])
	}
	if end < 0 {
		// Escapes, a merge too long for the room left, or not byte-level.
		sc := &a.sc
		sc.data, sc.pos = a.data, i
		var err error
		if m, n, err = readMerge(sc, &a.first); err != nil || len(m) > maxTokenLen || len(n) > maxTokenLen {
			return nil, nil, -1
		}
		var okM, okN bool
		if c.text, na, okM, okN = appendMerge(c.text, m, n, a.byteLvl); !okM || !okN {
			return nil, nil, -1
		}
		k, end = len(c.text)-off, sc.pos
	}
	c.text = c.text[:off+k]
	c.lens = append(c.lens, uint32(na)<<16|uint32(k-na))
	return m, n, end
}

// lookUp looks up the tokens of chunks until none is left.
func (a *ahead) lookUp() {
	for c := range a.work {
		c.resolve(a.vocab, a.byID)
	}
}

// resolve looks up the tokens of c's merges.
func (c *mergeChunk) resolve(vocab *tokenTable, byID *tokensByID) {
	l := mergeLookup{vocab: vocab, byID: byID}
	var batch [lookupBatch]mergeRec
	var out [lookupBatch][3]int32
	off := uint32(0)
	for i := 0; i < len(c.lens); i += lookupBatch {
		recs := batch[:min(len(c.lens)-i, lookupBatch)]
		for k := range recs {
			n := c.lens[i+k]
			recs[k] = mergeRec{off: off, na: uint16(n >> 16), nb: uint16(n)}
			off += n>>16 + n&0xFFFF
		}
		if c.err = l.resolve(c.text, recs, &out); c.err != nil {
			return
		}
		for k := range recs {
			c.pairs[i+k] = uint64(out[k][0])<<32 | uint64(uint32(out[k][1]))
			c.ids[i+k] = out[k][2]
		}
	}
	c.last, c.touch = l.last, l.touch
}

// setVocab hands the vocabulary's table to the goroutine, to look up
// tokens with.
func (a *ahead) setVocab(vocab *tokenTable, byID *tokensByID) {
	a.once.Do(func() {
		a.vocab, a.byID = vocab, byID
		close(a.ready)
	})
}

// cancel stops the goroutine and waits for it.
func (a *ahead) cancel() {
	a.stop.Store(true)
	a.once.Do(func() { close(a.ready) })
	a.done.Wait()
}

// at reports whether the array read ahead is the one at pos; it waits
// until the goroutine has looked for it.
func (a *ahead) at(pos int) bool {
	<-a.found
	return a.start == pos
}

// finish looks up chunks along with the goroutine until all are, and
// adds what was read ahead to r, whose vocabulary it was set. It reports
// false, adding nothing, when nothing read ahead is of use (or a token is
// not in the vocabulary: the reader in order then reports it);
// otherwise r goes on at a.end unless a.complete.
func (a *ahead) finish(r *mergeReader) bool {
	a.lookUp()
	a.done.Wait()
	if a.end < 0 {
		return false
	}
	for _, c := range a.chunks {
		if c.err != nil {
			return false
		}
	}
	// The chunks' lookups are in place in a.pairs and a.ids, but for
	// chunks past them.
	n, inPlace := int(a.ranks), 0
	for _, c := range a.chunks {
		if end := int(c.rank) + len(c.lens); end <= len(a.pairs) {
			inPlace = end
		}
	}
	r.pairs, r.ids = a.pairs[:inPlace], a.ids[:inPlace]
	if !a.complete {
		extra := min((len(a.data)-a.end)/16, maxVocab)
		r.pairs, r.ids = slices.Grow(r.pairs, n+extra-inPlace), slices.Grow(r.ids, n+extra-inPlace)
	}
	for _, c := range a.chunks {
		if int(c.rank) >= inPlace {
			r.pairs = append(r.pairs, c.pairs...)
			r.ids = append(r.ids, c.ids...)
		}
		r.odd = r.odd || c.odd
		c.noteBytePairs(r.bytePairs)
		r.last = c.last
		r.touch += c.touch
	}
	r.n, r.ranks = n, a.ranks
	r.form = a.form
	return true
}

// noteBytePairs notes in bytePairs (when not nil) the rank of each merge
// of c of two one-byte tokens, unless a later one has it.
func (c *mergeChunk) noteBytePairs(bytePairs []int32) {
	if bytePairs == nil {
		return
	}
	off := 0
	for k, n := range c.lens {
		if n == 1<<16|1 {
			notePair(bytePairs, c.text[off], c.text[off+1], c.rank+int32(k))
		}
		off += int(n>>16 + n&0xFFFF)
	}
}
