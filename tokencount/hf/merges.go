package hf

import (
	"bytes"
	"fmt"
	"slices"
	"unsafe"
)

// Reading the merges of a BPE model: the largest part of a large
// tokenizer.json and most of the time it takes to load. Merges are read a
// batch at a time; the tokens of a batch are looked up together, so that
// the table lookups of one merge do not wait for those of the one before,
// and the batch is added to the merge table, sized beforehand for all.
// Nothing is kept of a batch once added. (Reading in two halves on two
// goroutines was tried and measured slower on a 2-core machine shared
// with other work.)

// lookupBatch is how many merges are looked up together.
const lookupBatch = 32

// mergeReader reads merges into a mergeTable: tokens decoded from the
// byte-level alphabet (when byteLvl), merges of tokens that byte-level
// input cannot have (skipped) left out but counted in the ranks.
type mergeReader struct {
	vocab *tokenTable
	byID  *tokensByID // or nil
	last  int32       // the merged token of the merge before
	// The merges read: the pair of each rank (noPair for one left out)
	// and its merged token, and how many are not left out. The table is
	// made of them once all are read.
	pairs   []uint64
	ids     []int32
	n       int
	skipped map[string]bool
	byteLvl bool
	unk     *string
	odd     bool  // a merge of a <0xXX> token or of the unknown token
	ranks   int32 // merges read, with those left out
	// bytePairs, when byteLvl, is the rank of the merge of each pair of
	// one-byte tokens by their bytes (see bpe.bytePairs).
	bytePairs []int32

	// The batch: the two tokens of each merge, decoded, one after the
	// other in text (so that together they spell the merged token).
	text  []byte
	recs  []mergeRec
	touch uint32 // sums what getMany reads ahead, so that the reads stay
}

type mergeRec struct {
	off    uint32
	rank   int32
	na, nb uint16 // tokens are at most maxTokenLen bytes
}

// add reads the merge of a and c into the batch, and flushes a full one.
func (r *mergeReader) add(a, c []byte) error {
	rank := r.ranks
	r.ranks++
	if len(a) > maxTokenLen || len(c) > maxTokenLen {
		return fmt.Errorf("%q %q: a token not in the vocabulary", a, c)
	}
	off := len(r.text)
	na := len(a)
	if r.byteLvl {
		var ok1, ok2 bool
		r.text, ok1 = appendFromByteLevel(r.text, a)
		na = len(r.text) - off
		r.text, ok2 = appendFromByteLevel(r.text, c)
		if !ok1 || !ok2 {
			r.text = r.text[:off]
			if (ok1 || r.skipped[string(a)]) && (ok2 || r.skipped[string(c)]) {
				return nil // a merge of tokens byte-level input never has
			}
			return fmt.Errorf("%q %q: a token not in the vocabulary", a, c)
		}
	} else {
		r.text = append(append(r.text, a...), c...)
	}
	r.recs = append(r.recs, mergeRec{uint32(off), rank, uint16(na), uint16(len(r.text) - off - na)})
	if isByteToken(a) || isByteToken(c) || r.unk != nil && (string(a) == *r.unk || string(c) == *r.unk) {
		r.odd = true
	}
	if len(r.recs) == lookupBatch {
		return r.flush()
	}
	return nil
}

// addQuoted reads a merge at sc of a byte-level tokenizer, "a b" or
// ["a", "b"], in one pass, decoding as it goes, when its tokens are made
// of the byte-level alphabet and have no escapes: the usual case.
// Otherwise it reads nothing and reports false, for the general path.
func (r *mergeReader) addQuoted(sc *scan) (bool, error) {
	if !r.byteLvl {
		return false, nil
	}
	switch sc.peek() {
	case '"', '[':
	default:
		return false, nil
	}
	data := sc.data
	off := len(r.text)
	r.text = slices.Grow(r.text, 64)
	out := r.text[off:cap(r.text)]
	var a, c []byte
	var i, j, na int
	if data[sc.pos] == '"' {
		var sp int
		if i, j, sp, na = decodeQuoted(data, sc.pos+1, out); i < 0 || sp < 0 {
			return false, nil
		}
		a, c = data[sc.pos+1:sp], data[sp+1:i]
	} else {
		// [ "a" , "b" ]
		k := skipWS(data, sc.pos+1)
		if k >= len(data) || data[k] != '"' {
			return false, nil
		}
		ea, n, sp, _ := decodeQuoted(data, k+1, out)
		if ea < 0 || sp >= 0 {
			return false, nil
		}
		a, na = data[k+1:ea], n
		k = skipWS(data, ea+1)
		if k >= len(data) || data[k] != ',' {
			return false, nil
		}
		if k = skipWS(data, k+1); k >= len(data) || data[k] != '"' {
			return false, nil
		}
		eb, m, sp, _ := decodeQuoted(data, k+1, out[n:])
		if eb < 0 || sp >= 0 {
			return false, nil
		}
		c, j = data[k+1:eb], n+m
		if i = skipWS(data, eb+1); i >= len(data) || data[i] != ']' {
			return false, nil
		}
	}
	if len(a) > maxTokenLen || len(c) > maxTokenLen {
		return false, nil
	}
	sc.pos = i + 1
	r.text = r.text[:off+j]
	r.recs = append(r.recs, mergeRec{uint32(off), r.ranks, uint16(na), uint16(j - na)})
	r.ranks++
	if isByteToken(a) || isByteToken(c) || r.unk != nil && (string(a) == *r.unk || string(c) == *r.unk) {
		r.odd = true
	}
	if len(r.recs) == lookupBatch {
		return true, r.flush()
	}
	return true, nil
}

// decodeQuoted decodes the string at data[i:], after its opening quote,
// from the byte-level alphabet into out, and returns where its closing
// quote is and how many bytes it wrote; sp is where its one space is (-1
// for none) and na how many bytes came before. end is -1 when the string
// has an escape, another character or two spaces, or out is too short.
func decodeQuoted(data []byte, i int, out []byte) (end, n, sp, na int) {
	sp = -1
	for ; i < len(data) && n < len(out); i++ {
		c := data[i]
		if c-'!' <= '~'-'!' && c != '"' && c != '\\' { // printable ASCII stands for itself
			out[n] = c
			n++
			continue
		}
		if c == '"' {
			return i, n, sp, na
		}
		if c == ' ' && sp < 0 {
			sp, na = i, n
			continue
		}
		if c < 0xC2 || c > 0xC5 || i+1 >= len(data) || data[i+1]&0xC0 != 0x80 {
			break // an escape, another character, a second space
		}
		ch := rune(c&0x1F)<<6 | rune(data[i+1]&0x3F)
		if ch >= rune(len(byteOf)) || byteOf[ch] < 0 {
			break
		}
		out[n] = byte(byteOf[ch])
		n++
		i++
	}
	return -1, 0, -1, 0
}

// skipWS returns the end of the white space at data[i:].
func skipWS(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ':
			i += spaces(data[i:])
		case '\n', '\t', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// flush looks up the tokens of the batch and adds its merges, in
// order. A merged token is usually the one of the merge before or the
// next token (files list merges in the order their tokens were made):
// checked against byID first, looked up only when neither.
func (r *mergeReader) flush() error {
	var toks [3 * lookupBatch]string
	var ids [3 * lookupBatch]int32
	var oks [3 * lookupBatch]bool
	var merged [lookupBatch]int32 // the merged token's id, or -1-(its index in toks)
	n := 0
	for k, rec := range r.recs {
		both := r.text[rec.off : rec.off+uint32(rec.na)+uint32(rec.nb)]
		s := unsafe.String(unsafe.SliceData(both), len(both))
		toks[n], toks[n+1] = s[:rec.na], s[rec.na:]
		n += 2
		switch {
		case r.byID != nil && r.byID.is(r.last, s):
			merged[k] = r.last
		case r.byID != nil && r.byID.is(r.last+1, s):
			r.last++
			merged[k] = r.last
		default:
			merged[k] = int32(-1 - n)
			toks[n] = s
			n++
		}
	}
	r.touch += r.vocab.getMany(toks[:n], ids[:], oks[:])
	n = 0
	for k, rec := range r.recs {
		a, b := n, n+1
		n += 2
		if !oks[a] || !oks[b] {
			return fmt.Errorf("%q %q: a token not in the vocabulary", toks[a], toks[b])
		}
		id := merged[k]
		if id < 0 {
			if !oks[n] {
				return fmt.Errorf("%q %q: the merged token is not in the vocabulary", toks[a], toks[b])
			}
			id = ids[n]
			r.last = id
			n++
		}
		r.pad(int(rec.rank))
		r.pairs = append(r.pairs, uint64(ids[a])<<32|uint64(uint32(ids[b])))
		r.ids = append(r.ids, id)
		r.n++
		if r.bytePairs != nil && rec.na == 1 && rec.nb == 1 {
			p := &r.bytePairs[int(r.text[rec.off])<<8|int(r.text[rec.off+1])]
			if *p == noMerge { // the first merge of a pair is kept
				*p = rec.rank
			}
		}
	}
	r.text, r.recs = r.text[:0], r.recs[:0]
	return nil
}

// pad leaves out the ranks up to n not yet read.
func (r *mergeReader) pad(n int) {
	for len(r.pairs) < n {
		r.pairs = append(r.pairs, noPair)
		r.ids = append(r.ids, 0)
	}
}

// read reads the merges array at sc.
func (r *mergeReader) read(sc *scan) error {
	if err := sc.expect('['); err != nil {
		return err
	}
	if sc.peek() == ']' {
		sc.pos++
		return nil
	}
	var first []byte
	for {
		if r.ranks >= maxVocab {
			return fmt.Errorf("more than %d merges", maxVocab)
		}
		if done, err := r.addQuoted(sc); done || err != nil {
			if err != nil {
				return err
			}
			goto next
		}
		if sc.peek() == '"' {
			s, err := sc.str()
			if err != nil {
				return err
			}
			sp := bytes.IndexByte(s, ' ')
			if sp < 0 || bytes.IndexByte(s[sp+1:], ' ') >= 0 {
				return fmt.Errorf("%q is not two tokens separated by a space", s)
			}
			if err := r.add(s[:sp], s[sp+1:]); err != nil {
				return err
			}
		} else {
			k := 0
			err := sc.array(func() error {
				s, err := sc.str()
				if err != nil {
					return err
				}
				switch k++; k {
				case 1:
					first = append(first[:0], s...) // s may be scratch space
				case 2:
					return r.add(first, s)
				}
				return nil
			})
			if err == nil && k != 2 {
				err = fmt.Errorf("a merge of %d tokens, not 2", k)
			}
			if err != nil {
				return err
			}
		}
	next:
		switch sc.peek() {
		case ',':
			sc.pos++
		case ']':
			sc.pos++
			return r.flush()
		default:
			return sc.fail("expected %q", ']')
		}
	}
}

// readBPEMerges reads the merges of a BPE model, about n of them, over
// vocab (of ids up to maxID) into a merge table (and r.odd, r.bytePairs).
func readBPEMerges(raw []byte, n int, vocab *tokenTable, v vocabInfo, byteLvl bool, unk *string) (*mergeTable, *mergeReader, error) {
	r := newMergeReader(n, vocab, v, byteLvl, unk)
	if !isNull(raw) {
		sc := &scan{data: raw}
		err := r.read(sc)
		if err == nil {
			err = sc.end()
		}
		if err != nil {
			return nil, nil, formatErr("model merges: %v", err)
		}
	}
	table := r.table(v.maxID)
	if table == nil {
		return nil, nil, unsupported("model BPE with %d tokens and %d merges: too many for a merge table", v.maxID+1, r.ranks)
	}
	return table, r, nil
}

// newMergeReader returns a reader of about n merges over vocab.
func newMergeReader(n int, vocab *tokenTable, v vocabInfo, byteLvl bool, unk *string) *mergeReader {
	r := &mergeReader{vocab: vocab, byID: v.byID, skipped: v.skipped, byteLvl: byteLvl, unk: unk,
		recs: make([]mergeRec, 0, lookupBatch), pairs: make([]uint64, 0, n), ids: make([]int32, 0, n)}
	if byteLvl {
		r.bytePairs = make([]int32, 1<<16)
		for k := range r.bytePairs {
			r.bytePairs[k] = noMerge
		}
	}
	return r
}

// table returns the table of the merges read, of tokens up to maxID, or
// nil when they do not fit one.
func (r *mergeReader) table(maxID int32) *mergeTable {
	r.pad(int(r.ranks))
	return newMergeTableOf(r.pairs, r.ids, r.n, maxID)
}
