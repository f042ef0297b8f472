package hf

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"math/rand/v2"
	"unsafe"
)

// Hash tables built for a vocabulary and its merges: sized once, open
// addressed with linear probing, and without a Go string or map entry
// per token. Loading a large vocabulary is mostly lookups in them, and
// counting mostly lookups of merges.

// tokenTable maps the tokens of a vocabulary to their ids. A slot holds
// a token's first 8 bytes and its length, so that most probes compare
// two words and read nothing else: the id of a token of up to 8 bytes is
// in its slot; a longer token's slot points into a slab where the rest of
// its bytes follow its id.
//
// Tokens of up to shortLen bytes are in a table of their own, short: most
// tokens a merge names are that short (four in five of Llama 3's), and
// that table is small enough to stay in the processor's cache where the
// one of all tokens is not.
type tokenTable struct {
	slots        []tokenSlot // tokens of more than shortLen bytes
	slab         []byte      // id (4 bytes, little endian) and bytes 8: of each long token
	n, max       int         // distinct tokens in slots, and room before growing
	seed1, seed2 uint64
	seed         maphash.Seed // for long tokens
	short        shortTable
}

type tokenSlot struct {
	head uint64 // the first 8 bytes, zero-padded, little endian
	ref  uint32 // the id, or for a long token the offset of its rest
	info uint32 // len<<tagBits | tag, tag odd: 0 marks an empty slot
}

const (
	tagBits  = 19 // the length above them: tokens are at most maxTokenLen bytes
	tagMask  = 1<<tagBits - 1
	maxSlab  = 1<<32 - 1
	minSlots = 8
)

// slotsFor returns how many slots a table for n keys has: a quarter
// more, so that probe sequences stay short and always end at an empty
// slot.
func slotsFor(n int) int { return max(minSlots, n+n/3+1) }

// newTokenTable returns a table for n tokens (more make it grow).
func newTokenTable(n int) *tokenTable {
	t := &tokenTable{seed1: rand.Uint64(), seed2: rand.Uint64(), seed: maphash.MakeSeed()}
	t.size(n, minSlots)
	return t
}

// size makes the slots of t for long tokens and the short table for
// short ones, n of each (more make them grow).
func (t *tokenTable) size(long, short int) {
	t.slots, t.max = make([]tokenSlot, slotsFor(long)), max(long, minSlots*3/4)
	t.short = newShortTable(short)
}

// len returns how many distinct tokens t has.
func (t *tokenTable) len() int { return t.n + t.short.n }

// home returns the first slot of the hash h: its top bits onto the slots.
func (t *tokenTable) home(h uint64) int {
	i, _ := bits.Mul64(h, uint64(len(t.slots)))
	return int(i)
}

// head returns the first 8 bytes of tok, zero-padded.
func head(tok string) uint64 {
	if len(tok) >= 8 {
		return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(tok), 8))
	}
	var w uint64
	for i := len(tok) - 1; i >= 0; i-- {
		w = w<<8 | uint64(tok[i])
	}
	return w
}

// hash hashes tok, whose head is w: from the head alone (a multiply of
// seeded words, as wyhash mixes) when that is all of it.
func (t *tokenTable) hash(tok string, w uint64) uint64 {
	if len(tok) > 8 {
		return maphash.String(t.seed, tok)
	}
	hi, lo := bits.Mul64(w^t.seed1, uint64(len(tok))^t.seed2)
	return hi ^ lo
}

// find returns the slot of tok and whether it holds tok; when not, the
// slot is the empty one where tok would go.
func (t *tokenTable) find(tok string) (*tokenSlot, bool) {
	w := head(tok)
	return t.findHashed(tok, w, t.hash(tok, w))
}

// findHashed is find with the head and hash of tok.
func (t *tokenTable) findHashed(tok string, w, h uint64) (*tokenSlot, bool) {
	info := uint32(len(tok))<<tagBits | uint32(h)&tagMask | 1
	for i := t.home(h); ; {
		s := &t.slots[i]
		if s.info == 0 {
			return s, false
		}
		if s.info == info && s.head == w && (len(tok) <= 8 || t.rest(s.ref, len(tok)) == tok[8:]) {
			return s, true
		}
		if i++; i == len(t.slots) {
			i = 0
		}
	}
}

// rest returns the bytes after the first 8 of the long token of n bytes
// whose rest is at off.
func (t *tokenTable) rest(off uint32, n int) string {
	b := t.slab[off : int(off)+n-8]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// get returns the id of tok.
func (t *tokenTable) get(tok string) (int32, bool) {
	if isShort(tok) {
		return t.short.get(shortKey(tok))
	}
	s, ok := t.find(tok)
	if !ok {
		return 0, false
	}
	return t.id(s), true
}

func (t *tokenTable) id(s *tokenSlot) int32 {
	if s.info>>tagBits <= 8 {
		return int32(s.ref)
	}
	return int32(binary.LittleEndian.Uint32(t.slab[s.ref-4:]))
}

// getMany sets ids[k], oks[k] to the id of toks[k] and whether it has one.
// It first reads the home slot of every token: loads that do not wait on
// one another, so that the processor has all of them in flight, where
// one lookup after the other would wait for each.
func (t *tokenTable) getMany(toks []string, ids []int32, oks []bool) uint32 {
	var hs [3 * lookupBatch]uint64
	var ws [3 * lookupBatch]uint64
	var touch uint32
	n := min(len(toks), len(hs))
	for k, tok := range toks[:n] {
		if isShort(tok) {
			ids[k], oks[k] = t.short.get(shortKey(tok))
			continue
		}
		ws[k] = head(tok)
		hs[k] = t.hash(tok, ws[k])
		// The home slot read now, its value not waited for: the
		// processor has the loads of the whole batch in flight.
		touch += t.slots[t.home(hs[k])].info
	}
	for k, tok := range toks[:n] {
		if isShort(tok) {
			continue
		}
		s, ok := t.findHashed(tok, ws[k], hs[k])
		oks[k] = ok
		if ok {
			ids[k] = t.id(s)
		}
	}
	return touch
}

// getBytes is get for bytes, which it does not keep.
func (t *tokenTable) getBytes(tok []byte) (int32, bool) {
	return t.get(unsafe.String(unsafe.SliceData(tok), len(tok)))
}

// put sets the id of tok, which it copies; a later id replaces an earlier
// one, as in the library's map. It reports false when the tokens'
// bytes would pass 4 GiB.
func (t *tokenTable) put(tok []byte, id int32) bool {
	key := unsafe.String(unsafe.SliceData(tok), len(tok))
	if isShort(key) {
		t.short.put(shortKey(key), id)
		return true
	}
	return t.putHashed(tok, id, t.hash(key, head(key)))
}

// putHashed is put with the hash of tok.
func (t *tokenTable) putHashed(tok []byte, id int32, h uint64) bool {
	key := unsafe.String(unsafe.SliceData(tok), len(tok))
	w := head(key)
	s, ok := t.findHashed(key, w, h)
	switch {
	case ok && len(tok) <= 8:
		s.ref = uint32(id)
		return true
	case ok:
		binary.LittleEndian.PutUint32(t.slab[s.ref-4:], uint32(id))
		return true
	case t.n == t.max:
		t.grow()
		s, _ = t.findHashed(key, w, h)
	}
	*s = tokenSlot{head: w, ref: uint32(id), info: uint32(len(tok))<<tagBits | uint32(h)&tagMask | 1}
	if len(tok) > 8 {
		if len(t.slab)+len(tok)-4 > maxSlab {
			*s = tokenSlot{}
			return false
		}
		t.slab = binary.LittleEndian.AppendUint32(t.slab, uint32(id))
		s.ref = uint32(len(t.slab))
		t.slab = append(t.slab, tok[8:]...)
	}
	t.n++
	return true
}

// newTokenTableOf returns the table of the tokens of all, whose ids are
// ids (nil for 0, 1, 2, ...), a later id of a token replacing an earlier
// one. It makes each long token's slot first, sorted (stably) into parts
// by the top bits of their hash, each part's home slots a small stretch
// of the table, and then puts them part by part: the stores of a part
// stay in the cache where stores in the file's order would each miss it.
// It reports false when the tokens' bytes would pass 4 GiB.
func newTokenTableOf(all *tokensByID, ids []int32) (*tokenTable, bool) {
	n := len(all.ends) - 1
	slab, short := 0, 0
	for k := range n {
		switch l := int(all.ends[k+1] - all.ends[k]); {
		case l > 8:
			slab += l - 4
		case l > 0 && l <= shortLen:
			short++
		}
	}
	if slab > maxSlab {
		return nil, false
	}
	t := &tokenTable{seed1: rand.Uint64(), seed2: rand.Uint64(), seed: maphash.MakeSeed()}
	t.size(n-short, short)
	t.slab = make([]byte, 0, slab)
	token := func(k int) string {
		b := all.text[all.ends[k]:all.ends[k+1]]
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	id := func(k int) int32 {
		if ids != nil {
			return ids[k]
		}
		return int32(k)
	}
	// Short tokens put, long ones hashed and counted into parts.
	var start [1<<bucketBits + 1]int32
	const shift = 64 - bucketBits
	hashes := make([]uint64, n)
	for k := range n {
		key := token(k)
		if isShort(key) {
			t.short.put(shortKey(key), id(k))
			continue
		}
		h := t.hash(key, head(key))
		hashes[k] = h
		start[h>>shift+1]++
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	// Each long token's slot and home, in order of their parts.
	long := n - short
	sorted := make([]tokenSlot, long)
	homes := make([]uint32, long)
	for k, h := range hashes {
		key := token(k)
		if isShort(key) {
			continue
		}
		ref := uint32(id(k))
		if len(key) > 8 {
			t.slab = binary.LittleEndian.AppendUint32(t.slab, ref)
			ref = uint32(len(t.slab))
			t.slab = append(t.slab, key[8:]...)
		}
		i := &start[h>>shift]
		sorted[*i] = tokenSlot{head: head(key), ref: ref, info: uint32(len(key))<<tagBits | uint32(h)&tagMask | 1}
		homes[*i] = uint32(t.home(h))
		*i++
	}
	for k := range sorted {
		t.putSlot(&sorted[k], int(homes[k]))
	}
	return t, true
}

// putSlot stores the slot p, whose token's home slot is i: in the empty
// slot where its probes end, or, when its token is there, as the token's
// id.
func (t *tokenTable) putSlot(p *tokenSlot, i int) {
	n := int(p.info >> tagBits)
	for {
		s := &t.slots[i]
		if s.info == 0 {
			*s = *p
			t.n++
			return
		}
		if s.info == p.info && s.head == p.head && (n <= 8 || t.rest(s.ref, n) == t.rest(p.ref, n)) {
			if n <= 8 {
				s.ref = p.ref
			} else {
				copy(t.slab[s.ref-4:s.ref], t.slab[p.ref-4:p.ref])
			}
			return
		}
		if i++; i == len(t.slots) {
			i = 0
		}
	}
}

// grow doubles the slots of t.
func (t *tokenTable) grow() {
	old := t.slots
	t.slots = make([]tokenSlot, 2*len(old))
	t.max = len(t.slots) * 3 / 4
	var buf []byte
	for _, o := range old {
		if o.info == 0 {
			continue
		}
		buf = t.appendToken(buf[:0], &o)
		s, _ := t.find(unsafe.String(unsafe.SliceData(buf), len(buf)))
		*s = o
	}
}

// appendToken appends the token of slot s.
func (t *tokenTable) appendToken(dst []byte, s *tokenSlot) []byte {
	n := int(s.info >> tagBits)
	dst = binary.LittleEndian.AppendUint64(dst, s.head)[:len(dst)+min(n, 8)]
	if n > 8 {
		dst = append(dst, t.rest(s.ref, n)...)
	}
	return dst
}

// each calls f with every token (in scratch space, valid during the
// call) and its id, in no particular order.
func (t *tokenTable) each(f func(tok []byte, id int32)) {
	var buf []byte
	for _, s := range t.short.slots {
		if s != 0 {
			n := int(s >> 32 & 7)
			buf = binary.LittleEndian.AppendUint32(buf[:0], uint32(s))[:n]
			f(buf, int32(s>>shortIDShift))
		}
	}
	for k := range t.slots {
		if s := &t.slots[k]; s.info != 0 {
			buf = t.appendToken(buf[:0], s)
			f(buf, t.id(s))
		}
	}
}

// shortLen is the length of the longest token in a shortTable.
const shortLen = 4

// isShort reports whether tok goes in a shortTable.
func isShort(tok string) bool { return uint(len(tok)-1) < shortLen }

// shortTable maps tokens of 1 to shortLen bytes to their ids, open
// addressed with linear probing, one word a slot: the token's bytes, its
// length and its id.
type shortTable struct {
	slots []uint64 // 0 empty, else id<<shortIDShift | key (see shortKey)
	mul   uint64   // odd, random: a key's hash is key*mul
	shift uint     // the hash's top bits index the slots
	n     int
}

const (
	shortIDShift = 35 // above the key; ids are below maxVocab = 1<<22
	shortKeyMask = 1<<shortIDShift - 1
)

// shortKey returns the key of tok, a short token: its length above its
// bytes.
func shortKey(tok string) uint64 {
	var w uint64
	for i := len(tok) - 1; i >= 0; i-- {
		w = w<<8 | uint64(tok[i])
	}
	return uint64(len(tok))<<32 | w
}

// newShortTable returns a table for n tokens (more make it grow): a power
// of two of slots, at most three quarters full.
func newShortTable(n int) shortTable {
	size := minSlots
	for size*3 < 4*(n+1) {
		size *= 2
	}
	return shortTable{slots: make([]uint64, size), mul: rand.Uint64() | 1, shift: uint(64 - bits.TrailingZeros(uint(size)))}
}

// get returns the id of the token whose key is key.
func (t *shortTable) get(key uint64) (int32, bool) {
	mask := len(t.slots) - 1
	for i := int(key * t.mul >> t.shift); ; i = (i + 1) & mask {
		s := t.slots[i]
		if s&shortKeyMask == key {
			return int32(s >> shortIDShift), true
		}
		if s == 0 {
			return 0, false
		}
	}
}

// put sets the id of the token whose key is key.
func (t *shortTable) put(key uint64, id int32) {
	if 4*(t.n+1) > 3*len(t.slots) {
		old := t.slots
		*t = newShortTable(2 * t.n)
		for _, s := range old {
			if s != 0 {
				t.put(s&shortKeyMask, int32(s>>shortIDShift))
			}
		}
	}
	mask := len(t.slots) - 1
	for i := int(key * t.mul >> t.shift); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if *s == 0 || *s&shortKeyMask == key {
			if *s == 0 {
				t.n++
			}
			*s = uint64(id)<<shortIDShift | key
			return
		}
	}
}

// mergeTable maps a pair of token ids to its merge: the rank and the id
// of the merged token. A slot is one word, the pair and the rank packed
// in as many bits as the vocabulary and the merges need, and the table is
// sized for its merges exactly (three quarters full at most): Llama 3's
// 280k merges take 3 MB, where 16-byte slots in a power of two took 8 MB
// for a new process to fault in. The merged token of each rank is in ids.
type mergeTable struct {
	slots  []uint64 // 0 empty, else (a+1)<<aShift | b<<rankBits | rank
	ids    []int32  // the merged token of each rank
	mul    uint64   // odd, random: a pair's hash is key*mul
	aShift uint     // rankBits + bits of b
	bShift uint     // rankBits
	bMask  uint64   // the largest token id
	rMask  uint64
	n, max int // merges in slots, and room
}

// noPair marks, in the pairs given to newMergeTableOf, a rank whose
// merge is left out.
const noPair = ^uint64(0)

// newMergeTableOf returns the table of the merges pairs[rank] (a<<32 | b,
// or noPair), n of them, whose merged tokens are ids[rank], of tokens up
// to maxID; nil when a pair and a rank do not fit a word. The last merge
// of a pair is the one kept, as in the library.
func newMergeTableOf(pairs []uint64, ids []int32, n int, maxID int32) *mergeTable {
	ranks := len(pairs)
	rankBits := uint(bits.Len(uint(ranks)))
	bBits := uint(bits.Len(uint(max(maxID, 0))))
	if rankBits+bBits+uint(bits.Len(uint(max(maxID, 0))+1)) > 64 {
		return nil
	}
	size := max(minSlots, n+n/3+1) // always one empty slot, where probes stop
	t := &mergeTable{slots: make([]uint64, size), ids: ids[:ranks:ranks], mul: rand.Uint64() | 1,
		aShift: rankBits + bBits, bShift: rankBits, bMask: 1<<bBits - 1, rMask: 1<<rankBits - 1, max: n}
	t.fill(pairs, n)
	return t
}

// bucketBits sets how many parts fill sorts the merges into first.
const bucketBits = 10

// fill adds the merges: first sorted (stably: the last of a pair stays
// last, and replaces the ones before) into parts by the top bits of their hash, each part's slots a
// small stretch of the table, so that the inserts of a part stay in the
// cache where inserts in rank order would each miss it.
func (t *mergeTable) fill(pairs []uint64, n int) {
	var start [1<<bucketBits + 1]int32
	const shift = 64 - bucketBits
	for _, p := range pairs {
		if p != noPair {
			start[t.key(p)*t.mul>>shift+1]++
		}
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	sorted := make([]uint64, n)
	for r, p := range pairs {
		if p != noPair {
			key := t.key(p)
			b := key * t.mul >> shift
			sorted[start[b]] = key | uint64(r)
			start[b]++
		}
	}
	for _, v := range sorted {
		key := v &^ t.rMask
		i, _ := bits.Mul64(key*t.mul, uint64(len(t.slots)))
		for {
			s := t.slots[i]
			if s == 0 {
				t.slots[i] = v
				t.n++
				break
			}
			if s&^t.rMask == key {
				t.slots[i] = v // a later merge of the pair: its rank wins
				break
			}
			if i++; i == uint64(len(t.slots)) {
				i = 0
			}
		}
	}
}

// key returns the key of the pair p, a<<32 | b.
func (t *mergeTable) key(p uint64) uint64 {
	return (p>>32+1)<<t.aShift | uint64(uint32(p))<<t.bShift
}

// home returns the key of the pair a, b and its first slot.
func (t *mergeTable) home(a, b int32) (uint64, int) {
	key := uint64(a+1)<<t.aShift | uint64(b)<<t.bShift
	i, _ := bits.Mul64(key*t.mul, uint64(len(t.slots))) // key*mul's top bits onto the slots
	return key, int(i)
}

// rank returns the rank of the merge of the pair a, b.
func (t *mergeTable) rank(a, b int32) (int32, bool) {
	if uint64(uint32(a)) > t.bMask || uint64(uint32(b)) > t.bMask {
		return 0, false
	}
	key, i := t.home(a, b)
	for {
		s := t.slots[i]
		if s&^t.rMask == key {
			return int32(s & t.rMask), true
		}
		if s == 0 {
			return 0, false
		}
		if i++; i == len(t.slots) {
			i = 0
		}
	}
}

// get returns the merge of the pair a, b.
func (t *mergeTable) get(a, b int32) (merge, bool) {
	r, ok := t.rank(a, b)
	if !ok {
		return merge{}, false
	}
	return merge{r, t.ids[r]}, true
}
