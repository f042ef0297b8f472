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
// the table lookups of one merge do not wait for those of the one before.
// The pairs are kept and the merge table made of them once all are read.
// A byte-level BPE's merges are mostly read ahead, on a second goroutine
// while the vocabulary is read (ahead.go); this reader reads the rest.

// lookupBatch is how many merges are looked up together.
const lookupBatch = 32

// mergeReader reads merges into a mergeTable: tokens decoded from the
// byte-level alphabet (when byteLvl), merges of tokens that byte-level
// input cannot have (skipped) left out but counted in the ranks.
type mergeReader struct {
	mergeLookup
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
	form    byte  // '"' or '[', the form of the first merge; 0 before it
	ranks   int32 // merges read, with those left out
	// bytePairs, when byteLvl, is the rank of the merge of each pair of
	// one-byte tokens by their bytes (see bpe.bytePairs).
	bytePairs []int32

	// The batch: the two tokens of each merge, decoded, one after the
	// other in text (so that together they spell the merged token).
	text []byte
	recs []mergeRec
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
	var na int
	var okA, okC bool
	if r.text, na, okA, okC = appendMerge(r.text, a, c, r.byteLvl); !okA || !okC {
		if (okA || r.skipped[string(a)]) && (okC || r.skipped[string(c)]) {
			return nil // a merge of tokens byte-level input never has
		}
		return fmt.Errorf("%q %q: a token not in the vocabulary", a, c)
	}
	r.recs = append(r.recs, mergeRec{uint32(off), rank, uint16(na), uint16(len(r.text) - off - na)})
	r.odd = r.odd || oddMerge(a, c, r.unk)
	if len(r.recs) == lookupBatch {
		return r.flush()
	}
	return nil
}

// appendMerge appends the tokens a and c of a merge, decoded from the
// byte-level alphabet when byteLvl, and returns dst, how many bytes the
// first takes, and whether each decoded; when one did not, dst is as it
// was given.
func appendMerge(dst, a, c []byte, byteLvl bool) (out []byte, na int, okA, okC bool) {
	if !byteLvl {
		return append(append(dst, a...), c...), len(a), true, true
	}
	off := len(dst)
	dst, okA = appendFromByteLevel(dst, a)
	na = len(dst) - off
	if dst, okC = appendFromByteLevel(dst, c); !okA || !okC {
		dst = dst[:off]
	}
	return dst, na, okA, okC
}

// addQuoted reads a merge at sc of a byte-level tokenizer, "a b" or
// ["a", "b"], in one pass, decoding as it goes, when its tokens are made
// of the byte-level alphabet and have no escapes: the usual case.
// Otherwise it reads nothing and reports false, for the general path.
func (r *mergeReader) addQuoted(sc *scan) (bool, error) {
	if !r.byteLvl {
		return false, nil
	}
	sc.ws()
	off := len(r.text)
	r.text = slices.Grow(r.text, 64)
	a, c, na, n, end := quotedMerge(sc.data, sc.pos, r.text[off:cap(r.text)])
	if end < 0 {
		return false, nil
	}
	sc.pos = end
	r.text = r.text[:off+n]
	r.recs = append(r.recs, mergeRec{uint32(off), r.ranks, uint16(na), uint16(n - na)})
	r.ranks++
	r.odd = r.odd || oddMerge(a, c, r.unk)
	if len(r.recs) == lookupBatch {
		return true, r.flush()
	}
	return true, nil
}

// quotedMerge reads the merge at data[i:], "a b" or ["a", "b"], when its
// tokens are made of the byte-level alphabet and have no escapes,
// decoding them one after the other into out. It returns the two tokens
// as in the file, how many bytes the first and both decoded take, and
// where the merge ends; end is -1 when the merge is not of that form or
// out is too short.
func quotedMerge(data []byte, i int, out []byte) (a, c []byte, na, n, end int) {
	if i >= len(data) {
		return nil, nil, 0, 0, -1
	}
	if data[i] == '"' {
		e, n, sp, na := decodeQuoted(data, i+1, out)
		if e < 0 || sp < 0 {
			return nil, nil, 0, 0, -1
		}
		if sp-i-1 > maxTokenLen || e-sp-1 > maxTokenLen {
			return nil, nil, 0, 0, -1
		}
		return data[i+1 : sp], data[sp+1 : e], na, n, e + 1
	}
	if data[i] != '[' {
		return nil, nil, 0, 0, -1
	}
	// [ "a" , "b" ]
	k := skipWS(data, i+1)
	if k >= len(data) || data[k] != '"' {
		return nil, nil, 0, 0, -1
	}
	ea, na, sp, _ := decodeQuoted(data, k+1, out)
	if ea < 0 || sp >= 0 {
		return nil, nil, 0, 0, -1
	}
	a = data[k+1 : ea]
	k = skipWS(data, ea+1)
	if k >= len(data) || data[k] != ',' {
		return nil, nil, 0, 0, -1
	}
	if k = skipWS(data, k+1); k >= len(data) || data[k] != '"' {
		return nil, nil, 0, 0, -1
	}
	eb, m, sp, _ := decodeQuoted(data, k+1, out[na:])
	if eb < 0 || sp >= 0 {
		return nil, nil, 0, 0, -1
	}
	c = data[k+1 : eb]
	if k = skipWS(data, eb+1); k >= len(data) || data[k] != ']' || len(a) > maxTokenLen || len(c) > maxTokenLen {
		return nil, nil, 0, 0, -1
	}
	return a, c, na, na + m, k + 1
}

// oddMerge reports whether the merge of a and c (as in the file) is of
// a <0xXX> token or of the unknown token.
func oddMerge(a, c []byte, unk *string) bool {
	return isByteToken(a) || isByteToken(c) || unk != nil && (string(a) == *unk || string(c) == *unk)
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

// mergeLookup finds the ids of the tokens of merges. A merged token is
// usually the one of the merge before or the next token (files list
// merges in the order their tokens were made): checked against byID
// first, looked up only when neither.
type mergeLookup struct {
	vocab *tokenTable
	byID  *tokensByID // or nil
	last  int32       // the merged token of the merge before
	touch uint32      // sums what getMany reads ahead, so that the reads stay
}

// resolve sets out[k] to the ids of the two tokens and the merged token of
// the merge recs[k] (its tokens in text), for up to lookupBatch merges,
// looked up together; it fails on a token not in the vocabulary.
func (l *mergeLookup) resolve(text []byte, recs []mergeRec, out *[lookupBatch][3]int32) error {
	var toks [3 * lookupBatch]string
	var ids [3 * lookupBatch]int32
	var oks [3 * lookupBatch]bool
	n := 0
	for k, rec := range recs {
		both := text[rec.off : rec.off+uint32(rec.na)+uint32(rec.nb)]
		s := unsafe.String(unsafe.SliceData(both), len(both))
		toks[n], toks[n+1] = s[:rec.na], s[rec.na:]
		n += 2
		switch {
		case l.byID != nil && l.byID.is(l.last, s):
			out[k][2] = l.last
		case l.byID != nil && l.byID.is(l.last+1, s):
			l.last++
			out[k][2] = l.last
		default:
			out[k][2] = int32(-1 - n) // the index of its lookup
			toks[n] = s
			n++
		}
	}
	l.touch += l.vocab.getMany(toks[:n], ids[:], oks[:])
	n = 0
	for k := range recs {
		a, b := n, n+1
		n += 2
		if !oks[a] || !oks[b] {
			return fmt.Errorf("%q %q: a token not in the vocabulary", toks[a], toks[b])
		}
		out[k][0], out[k][1] = ids[a], ids[b]
		if out[k][2] < 0 {
			if !oks[n] {
				return fmt.Errorf("%q %q: the merged token is not in the vocabulary", toks[a], toks[b])
			}
			out[k][2] = ids[n]
			l.last = ids[n]
			n++
		}
	}
	return nil
}

// flush looks up the tokens of the batch and adds its merges, in order.
func (r *mergeReader) flush() error {
	var out [lookupBatch][3]int32
	if err := r.resolve(r.text, r.recs, &out); err != nil {
		return err
	}
	for k, rec := range r.recs {
		r.pad(int(rec.rank))
		r.pairs = append(r.pairs, uint64(out[k][0])<<32|uint64(uint32(out[k][1])))
		r.ids = append(r.ids, out[k][2])
		r.n++
	}
	r.noteBytePairs(r.text, r.recs)
	r.text, r.recs = r.text[:0], r.recs[:0]
	return nil
}

// noteBytePairs notes in bytePairs the rank of each merge of recs (its
// tokens in text) of two one-byte tokens, unless one after has it.
func (r *mergeReader) noteBytePairs(text []byte, recs []mergeRec) {
	if r.bytePairs == nil {
		return
	}
	for _, rec := range recs {
		if rec.na == 1 && rec.nb == 1 {
			notePair(r.bytePairs, text[rec.off], text[rec.off+1], rec.rank)
		}
	}
}

// notePair notes rank as the merge of the one-byte tokens a and b,
// unless a later merge has it: the library keeps the last merge of a
// pair (its map of merges is collected in rank order), and chunks read
// ahead may be noted out of order.
func notePair(bytePairs []int32, a, b byte, rank int32) {
	if p := &bytePairs[int(a)<<8|int(b)]; *p == noMerge || *p < rank {
		*p = rank
	}
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
	return r.elements(sc)
}

// elements reads the merges of an array from sc, at the start of one, to
// the end of the array.
func (r *mergeReader) elements(sc *scan) error {
	var first []byte
	for {
		if r.ranks >= maxVocab {
			return fmt.Errorf("more than %d merges", maxVocab)
		}
		if !sameForm(&r.form, sc.peek()) {
			return fmt.Errorf("merge %d: a list of merges mixing \"a b\" and [\"a\", \"b\"] (the library reads one or the other)", r.ranks)
		}
		done, err := r.addQuoted(sc)
		if !done && err == nil {
			var a, c []byte
			if a, c, err = readMerge(sc, &first); err == nil {
				err = r.add(a, c)
			}
		}
		if err != nil {
			return err
		}
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

// sameForm reports whether a merge that starts with c has the form of
// the first merge, *form, which it sets at the first: the library reads
// merges as a list of "a b" strings or as one of pairs, never a mix.
func sameForm(form *byte, c byte) bool {
	if c != '"' && c != '[' {
		return true // not a merge: its reader reports it
	}
	if *form == 0 {
		*form = c
	}
	return *form == c
}

// readMerge reads the merge at sc, "a b" or ["a", "b"], and returns its
// two tokens (in scratch space, valid until the next read at sc); first
// is scratch space for the first of a pair.
func readMerge(sc *scan, first *[]byte) (a, c []byte, err error) {
	if sc.peek() == '"' {
		s, err := sc.str()
		if err != nil {
			return nil, nil, err
		}
		sp := bytes.IndexByte(s, ' ')
		if sp < 0 || bytes.IndexByte(s[sp+1:], ' ') >= 0 {
			return nil, nil, fmt.Errorf("%q is not two tokens separated by a space", s)
		}
		return s[:sp], s[sp+1:], nil
	}
	k := 0
	err = sc.array(func() error {
		s, err := sc.str()
		if err != nil {
			return err
		}
		switch k++; k {
		case 1:
			*first = append((*first)[:0], s...) // s may be scratch space
		case 2:
			a, c = *first, s
		}
		return nil
	})
	if err == nil && k != 2 {
		err = fmt.Errorf("a merge of %d tokens, not 2", k)
	}
	return a, c, err
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
	r := &mergeReader{mergeLookup: mergeLookup{vocab: vocab, byID: v.byID}, skipped: v.skipped, byteLvl: byteLvl, unk: unk,
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
