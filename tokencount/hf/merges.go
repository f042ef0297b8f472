package hf

import (
	"bytes"
	"fmt"
	"unsafe"
)

// Reading the merges of a BPE model: the largest part of a large
// tokenizer.json and most of the time it takes to load. The merges are
// read, then looked up in the vocabulary, then put in the merge table,
// each step a loop of its own so that the table lookups of one merge do
// not wait for those of the one before. (Reading in two halves on two
// goroutines was tried and measured slower on a 2-core machine shared
// with other work.)

// mergeText holds merges as read, before their tokens are looked up: the
// two tokens of each, decoded, one after the other in text (so that
// together they spell the merged token).
type mergeText struct {
	text  []byte
	recs  []mergeRec
	ranks int32 // merges read, with those left out
	odd   bool  // a merge of a <0xXX> token or of the unknown token
	// touch sums what lookup reads ahead, so that the reads stay.
	touch uint32
	// After lookup: the merges with their ids.
	list []pairMerge
}

type mergeRec struct {
	off    uint32
	rank   int32
	na, nb uint16 // tokens are at most maxTokenLen bytes
}

// pairMerge is a merge with its tokens looked up.
type pairMerge struct {
	a, b int32
	merge
}

// mergeReader reads merges into a mergeText: tokens decoded from the
// byte-level alphabet (when byteLvl), merges of tokens that byte-level
// input cannot have (v.skipped) left out but counted in the ranks.
type mergeReader struct {
	skipped map[string]bool
	byteLvl bool
	unk     *string
}

func (r *mergeReader) add(mt *mergeText, a, c []byte) error {
	rank := mt.ranks
	mt.ranks++
	if len(a) > maxTokenLen || len(c) > maxTokenLen || len(mt.text)+len(a)+len(c) > maxSlab {
		return fmt.Errorf("%q %q: a token not in the vocabulary", a, c)
	}
	off := len(mt.text)
	na := len(a)
	if r.byteLvl {
		var ok1, ok2 bool
		mt.text, ok1 = appendFromByteLevel(mt.text, a)
		na = len(mt.text) - off
		mt.text, ok2 = appendFromByteLevel(mt.text, c)
		if !ok1 || !ok2 {
			mt.text = mt.text[:off]
			if (ok1 || r.skipped[string(a)]) && (ok2 || r.skipped[string(c)]) {
				return nil // a merge of tokens byte-level input never has
			}
			return fmt.Errorf("%q %q: a token not in the vocabulary", a, c)
		}
	} else {
		mt.text = append(append(mt.text, a...), c...)
	}
	mt.recs = append(mt.recs, mergeRec{uint32(off), rank, uint16(na), uint16(len(mt.text) - off - na)})
	if isByteToken(a) || isByteToken(c) || r.unk != nil && (string(a) == *r.unk || string(c) == *r.unk) {
		mt.odd = true
	}
	return nil
}

// read reads the merges array raw, of about n merges.
func (r *mergeReader) read(raw []byte, n int) (*mergeText, error) {
	sc := &scan{data: raw}
	if err := sc.expect('['); err != nil {
		return nil, err
	}
	n = min(n, len(raw)/4, maxVocab) // a merge takes at least 4 bytes: "a b"
	mt := &mergeText{text: make([]byte, 0, len(raw)/2), recs: make([]mergeRec, 0, n)}
	var first []byte
	if sc.peek() == ']' {
		sc.pos++
		return mt, sc.end()
	}
	for {
		if mt.ranks >= maxVocab {
			return nil, fmt.Errorf("more than %d merges", maxVocab)
		}
		if sc.peek() == '"' {
			s, err := sc.str()
			if err != nil {
				return nil, err
			}
			sp := bytes.IndexByte(s, ' ')
			if sp < 0 || bytes.IndexByte(s[sp+1:], ' ') >= 0 {
				return nil, fmt.Errorf("%q is not two tokens separated by a space", s)
			}
			if err := r.add(mt, s[:sp], s[sp+1:]); err != nil {
				return nil, err
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
					return r.add(mt, first, s)
				}
				return nil
			})
			if err == nil && k != 2 {
				err = fmt.Errorf("a merge of %d tokens, not 2", k)
			}
			if err != nil {
				return nil, err
			}
		}
		switch sc.peek() {
		case ',':
			sc.pos++
		case ']':
			sc.pos++
			return mt, sc.end()
		default:
			return nil, sc.fail("expected %q", ']')
		}
	}
}

// lookupBatch is how many merges lookup looks up together.
const lookupBatch = 32

// lookup looks up the tokens of mt's merges in vocab into mt.list,
// lookupBatch merges at a time.
func (mt *mergeText) lookup(vocab *tokenTable) error {
	var toks [3 * lookupBatch]string
	var ids [3 * lookupBatch]int32
	var oks [3 * lookupBatch]bool
	mt.list = make([]pairMerge, len(mt.recs))
	recs, out := mt.recs, mt.list
	for len(recs) > 0 {
		n := min(len(recs), lookupBatch)
		for k, r := range recs[:n] {
			both := mt.text[r.off : r.off+uint32(r.na)+uint32(r.nb)]
			s := unsafe.String(unsafe.SliceData(both), len(both))
			toks[3*k], toks[3*k+1], toks[3*k+2] = s[:r.na], s[r.na:], s
		}
		mt.touch += vocab.getMany(toks[:3*n], ids[:], oks[:])
		for k, r := range recs[:n] {
			if !oks[3*k] || !oks[3*k+1] {
				return formatErr("model merges: %q %q: a token not in the vocabulary", toks[3*k], toks[3*k+1])
			}
			if !oks[3*k+2] {
				return formatErr("model merges: %q %q: the merged token is not in the vocabulary", toks[3*k], toks[3*k+1])
			}
			out[k] = pairMerge{ids[3*k], ids[3*k+1], merge{r.rank, ids[3*k+2]}}
		}
		recs, out = recs[n:], out[n:]
	}
	mt.text, mt.recs = nil, nil
	return nil
}

// readBPEMerges reads the merges of a BPE model over vocab into a table.
// odd reports a merge of a <0xXX> token or of unk.
// n is about how many there are.
func readBPEMerges(raw []byte, n int, vocab *tokenTable, skipped map[string]bool, byteLvl bool, unk *string) (*mergeTable, bool, error) {
	if isNull(raw) {
		return newMergeTable(0), false, nil
	}
	mt, err := (&mergeReader{skipped: skipped, byteLvl: byteLvl, unk: unk}).read(raw, n)
	if err != nil {
		return nil, false, formatErr("model merges: %v", err)
	}
	if err := mt.lookup(vocab); err != nil {
		return nil, false, err
	}
	t := newMergeTable(len(mt.list))
	t.addAll(mt.list)
	return t, mt.odd, nil
}
