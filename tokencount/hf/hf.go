package hf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"unicode/utf8"

	"github.com/ragkit/ragkit/tokencount"
)

// Errors returned by Load and LoadFile. Each error wraps one of them, so
// that errors.Is tells a file that is broken from one that needs a
// component this package does not implement.
var (
	// ErrConfig reports a bad setting in Options.
	ErrConfig = errors.New("hf: invalid configuration")
	// ErrFormat reports a tokenizer.json that is not valid JSON, is not
	// a tokenizer, or is inconsistent (a merge of tokens that are not in
	// the vocabulary, an id out of range).
	ErrFormat = errors.New("hf: malformed tokenizer.json")
	// ErrUnsupported reports a normalizer, pre-tokenizer, model or
	// post-processor (or one of their settings) that this package does
	// not implement. The error names the component. Such a file is refused
	// rather than counted approximately.
	ErrUnsupported = errors.New("hf: unsupported tokenizer component")
)

// DefaultMaxFileSize is the largest tokenizer.json Load reads when
// Options.MaxFileSize is zero. The largest files in use (Gemma 3) are
// about 33 MB.
const DefaultMaxFileSize = 256 << 20

// Options configures Load. The zero value is the default.
type Options struct {
	// AddSpecialTokens adds to every count the tokens that the
	// tokenizer's post-processor puts around a single sequence, such as
	// BERT's [CLS] and [SEP]: the count an embedding model sees. False
	// (the default) counts the text alone, as the library's
	// encode(text, add_special_tokens=False) does.
	AddSpecialTokens bool
	// MaxFileSize bounds the bytes read from the tokenizer.json. Zero
	// means DefaultMaxFileSize; negative is refused with ErrConfig.
	MaxFileSize int64
}

// Tokenizer counts tokens as the Hugging Face tokenizer described by a
// tokenizer.json does. It implements tokencount.Tokenizer and
// tokencount.Offsetter, and is safe for concurrent use.
type Tokenizer struct {
	added       *addedVocab // tokens matched in the raw text, or nil
	normAdded   *addedVocab // tokens matched in the normalized text, or nil
	norm        normalizer  // nil for none
	pre         []preTokenizer
	model       model
	special     int // tokens the post-processor adds to a single sequence
	specialLead int // how many of them go before the text
	addSpecial  bool
	metaFirst   bool // a Metaspace pre-tokenizer prepends to the first split only
	states      sync.Pool
}

var _ tokencount.Offsetter = (*Tokenizer)(nil)

// LoadFile reads the tokenizer.json at path. See Load.
func LoadFile(path string, opts Options) (*Tokenizer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("hf: %w", err)
	}
	defer f.Close()
	return Load(f, opts)
}

// Load reads a Hugging Face tokenizer.json from r. A file with a
// component this package does not implement is refused with an error
// wrapping ErrUnsupported that names it; a file that is not a valid
// tokenizer gives an error wrapping ErrFormat.
//
// Load reads all of r first. A BPE's merges, most of a large file, are
// read on a second goroutine while the vocabulary before them is read;
// that goroutine has ended when Load returns.
func Load(r io.Reader, opts Options) (*Tokenizer, error) {
	if opts.MaxFileSize < 0 {
		return nil, fmt.Errorf("%w: MaxFileSize is %d: must not be negative", ErrConfig, opts.MaxFileSize)
	}
	limit := opts.MaxFileSize
	if limit == 0 {
		limit = DefaultMaxFileSize
	}
	// Size the buffer from the file or reader when it tells its size:
	// growing it by doubling would allocate twice the file and copy it.
	var buf bytes.Buffer
	if n := sizeOf(r); n > 0 && n <= limit {
		buf.Grow(int(n) + bytes.MinRead) // ReadFrom wants MinRead free to see the end
	}
	if _, err := buf.ReadFrom(io.LimitReader(r, limit+1)); err != nil {
		return nil, fmt.Errorf("hf: reading tokenizer.json: %w", err)
	}
	data := buf.Bytes()
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: larger than MaxFileSize (%d bytes)", ErrFormat, limit)
	}
	t, err := build(data)
	if err != nil {
		return nil, err
	}
	t.addSpecial = opts.AddSpecialTokens
	return t, nil
}

// Count returns the number of tokens in text. Invalid UTF-8 is not an
// error: each invalid byte is read as U+FFFD, as Go's decoder reads it.
func (t *Tokenizer) Count(text string) int {
	st := t.state()
	defer t.put(st)
	st.want = false
	t.run(st, text)
	return st.n + t.extra()
}

// AppendTokenEnds appends to dst the byte offset in text at which each
// token ends and returns the extended slice: exactly Count(text) offsets,
// non-decreasing, the last one len(text). A token made of characters that
// normalization inserted (a prefix "▁", a space around a Chinese
// character) ends where the text that produced it ends; special tokens
// that AddSpecialTokens adds end at 0 (the leading ones) or len(text).
func (t *Tokenizer) AppendTokenEnds(dst []int, text string) []int {
	st := t.state()
	defer t.put(st)
	st.want = true
	st.ends = st.ends[:0]
	t.run(st, text)
	lead, trail := 0, 0
	if t.addSpecial {
		lead, trail = t.specialLead, t.special-t.specialLead
	}
	start := len(dst)
	for range lead {
		dst = append(dst, 0)
	}
	dst = append(dst, st.ends...)
	for range trail {
		dst = append(dst, len(text))
	}
	if len(dst) > start {
		dst[len(dst)-1] = len(text)
	}
	return dst
}

// sizeOf returns the size of what r reads, if r knows it, or 0.
func sizeOf(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Len() int }:
		return int64(r.Len())
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size()
		}
	}
	return 0
}

func (t *Tokenizer) extra() int {
	if t.addSpecial {
		return t.special
	}
	return 0
}

func (t *Tokenizer) state() *state {
	if st, ok := t.states.Get().(*state); ok {
		st.n = 0
		return st
	}
	return &state{}
}

// put returns st to the pool without what a long text made it hold.
func (t *Tokenizer) put(st *state) {
	const keep = 1 << 16
	if cap(st.ends) > keep {
		st.ends = nil
	}
	if cap(st.orig) > keep {
		st.orig = nil
	}
	st.al = nil
	t.states.Put(st)
}

// state is the scratch space of one Count or AppendTokenEnds call.
type state struct {
	n    int
	want bool  // whether to record ends
	ends []int // recorded ends, in offsets of the original text

	// orig maps a byte offset of the sanitized text to the original
	// text when the text had invalid UTF-8; nil otherwise.
	orig []int32

	tokEnds []int32
	levels  []func(piece) // levels[k] feeds pre-tokenizer k+1

	// Where the pieces of the current stretch come from: see pretokenizeAt.
	al        []int32
	off, base int
}

// run counts text into st.n and, when st.want, records token ends.
func (t *Tokenizer) run(st *state, text string) {
	s := text
	st.orig = st.orig[:0]
	if !utf8.ValidString(text) {
		s = st.sanitize(text)
	}
	if t.added == nil {
		t.segment(st, s, 0)
		return
	}
	t.added.split(s, func(a, b int, token bool) {
		if token {
			st.n++
			if st.want {
				st.emit(b)
			}
			return
		}
		t.segment(st, s[a:b], a)
	})
}

// emit records a token that ends at offset e of the sanitized text.
// A token made only of inserted characters can map before the previous
// end; it is moved up so that ends never decrease.
func (st *state) emit(e int) {
	if len(st.orig) > 0 {
		e = int(st.orig[e])
	}
	if k := len(st.ends); k > 0 && e < st.ends[k-1] {
		e = st.ends[k-1]
	}
	st.ends = append(st.ends, e)
}

// sanitize replaces each invalid byte of text with U+FFFD and records in
// st.orig the original offset of every offset of the result.
func (st *state) sanitize(text string) string {
	buf := make([]byte, 0, len(text)+16)
	st.orig = st.orig[:0]
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && w == 1 {
			buf = append(buf, "\uFFFD"...)
			st.orig = append(st.orig, int32(i), int32(i), int32(i))
		} else {
			buf = append(buf, text[i:i+w]...)
			for k := range w {
				st.orig = append(st.orig, int32(i+k))
			}
		}
		i += w
	}
	// orig[j] is the original offset of sanitized offset j; shift to
	// ends: a sanitized end e maps to the original end of byte e-1.
	for j := range st.orig {
		st.orig[j]++
	}
	st.orig = append([]int32{0}, st.orig...)
	return string(buf)
}

// segment tokenizes s, a stretch of the (sanitized) text between added
// tokens that starts at offset base.
func (t *Tokenizer) segment(st *state, s string, base int) {
	if s == "" {
		return
	}
	ns, al := s, []int32(nil)
	if t.norm != nil {
		ns, al = t.norm.normalize(s, st.want)
		if ns == "" {
			return // the library drops a stretch the normalizer empties
		}
	}
	// The first stretch is Metaspace's first split unless the normalizer
	// removed the text's first character (see dropsLead).
	first := base == 0 && !(t.metaFirst && t.norm != nil && dropsLead(t.norm, s))
	if t.normAdded == nil {
		t.pretokenize(st, ns, al, base, first)
		return
	}
	t.normAdded.split(ns, func(a, b int, token bool) {
		if token {
			st.n++
			if st.want {
				st.emit(base + mapEnd(al, b))
			}
			return
		}
		sub := ns[a:b]
		var subAl []int32
		if al != nil {
			subAl = al[a:b]
		}
		t.pretokenizeAt(st, sub, subAl, a, base, first && a == 0)
	})
}

// mapEnd maps end e of a normalized string to its source through al
// (al[j] is the source end of normalized byte j; nil is the identity).
func mapEnd(al []int32, e int) int {
	if al == nil || e == 0 {
		return e
	}
	return int(al[e-1])
}

func (t *Tokenizer) pretokenize(st *state, ns string, al []int32, base int, first bool) {
	t.pretokenizeAt(st, ns, al, 0, base, first)
}

// pretokenizeAt splits ns (normalized text whose byte j came from source
// end al[j], or from off+j+1 when al is nil) into pieces and runs the
// model on each. Pieces stream through the pre-tokenizers, so that a long
// text is never held as a list of pieces.
func (t *Tokenizer) pretokenizeAt(st *state, ns string, al []int32, off, base int, first bool) {
	st.al, st.off, st.base = al, off, base
	t.feed(st, 0, piece{s: ns, first: first, want: st.want})
}

// feed passes p to pre-tokenizer k, or to the model after the last one.
func (t *Tokenizer) feed(st *state, k int, p piece) {
	if k < len(t.pre) {
		if st.levels == nil {
			st.levels = make([]func(piece), len(t.pre))
			for j := range st.levels {
				st.levels[j] = func(q piece) { t.feed(st, j+1, q) }
			}
		}
		t.pre[k].split(p, st.levels[k])
		return
	}
	if p.s == "" {
		return
	}
	if !st.want {
		st.n += t.model.count(p.s)
		return
	}
	st.tokEnds = t.model.ends(st.tokEnds[:0], p.s)
	st.n += len(st.tokEnds)
	for _, e := range st.tokEnds {
		ne := p.end(int(e)) // end in the normalized text
		src := st.off + ne
		if st.al != nil {
			src = mapEnd(st.al, ne)
		}
		st.emit(st.base + src)
	}
}
