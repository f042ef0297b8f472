package lexical

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/stem"
	"github.com/ragkit/ragkit/vectorstore"
)

// Config configures an [Embedder]. The zero value gives
// 2048-dimensional vectors with English stop words left out of the unigrams.
type Config struct {
	// Dimension is the length of the vectors; zero means 2048. More
	// dimensions mean fewer hash collisions between unrelated words.
	Dimension int
	// KeepStopWords counts very common English words ("the", "of", ...)
	// as unigram features too. By default they only take part in bigrams
	// with a word that is not a stop word.
	KeepStopWords bool
}

// ErrConfig: a [Config] was refused; the error names the field, its
// value and what is allowed.
var ErrConfig = errors.New("lexical: invalid configuration")

// defaultLexicalDimension is the dimension of an [Embedder] whose
// configuration leaves it zero.
const defaultLexicalDimension = 2048

// Embedder is a deterministic [vectorstore.Embedder] that needs no model and no network:
// it hashes the words of a text and their bigrams into a fixed number of
// dimensions (the "hashing trick"), weights each feature by 1+ln(count),
// and scales the vector to unit length. Words are runs of letters and
// digits, lowercased; apostrophes inside a word are dropped.
//
// Embedder matches words, not meanings. Two texts are close when they share
// words and word pairs; "car" and "automobile" are as unrelated as "car" and
// "banana", and a question phrased in other words than the answer will not
// find it. It works for finding passages by their own vocabulary (names,
// terms, identifiers, quoted phrases), for tests, demos and offline
// pipelines, and as a baseline. Bring a neural embedder (any
// [vectorstore.Embedder]: a sentence-transformer served locally, or a hosted
// embeddings API) when users ask questions in their own words, when texts
// are paraphrased or multilingual, or when retrieval quality matters more
// than having no dependencies.
//
// The dimension trades memory and query time for fewer hash collisions,
// which make unrelated texts look alike. The default, 2048, was chosen on
// the project's retrieval evaluation: from 384 up to 2048 each doubling
// found clearly more answers, beyond it each found few more (the table
// is in the repository's benchmarks/README.md). A float32 vector costs 4
// bytes per dimension, 8 KiB at 2048, and a query's scan grows with it; set a
// smaller Dimension for large stores, or use the memory store's Compact setting. A
// store is queried with vectors of the dimension it was built with.
//
// An Embedder is safe for concurrent use, and the same text always gives the
// same vector, on every platform. The zero Embedder (and a nil *Embedder) is
// the default embedder, as [New] makes it from the zero
// [Config].
type Embedder struct {
	dim       int
	keepStops bool
}

// New returns a lexical embedder. A Dimension outside [0,
// vectorstore.MaxDimension] gives an error wrapping [ErrConfig].
func New(cfg Config) (*Embedder, error) {
	if cfg.Dimension < 0 || cfg.Dimension > vectorstore.MaxDimension {
		return nil, fmt.Errorf("%w: Dimension is %d: must be 0 (2048) to MaxDimension (65536)", ErrConfig, cfg.Dimension)
	}
	return &Embedder{dim: cfg.Dimension, keepStops: cfg.KeepStopWords}, nil
}

// Config returns the configuration of l with its default resolved:
// Dimension is never zero.
func (l *Embedder) Config() Config {
	if l == nil {
		return Config{Dimension: defaultLexicalDimension}
	}
	return Config{Dimension: l.Dimension(), KeepStopWords: l.keepStops}
}

// Dimension returns the length of the vectors l makes.
func (l *Embedder) Dimension() int {
	if l == nil || l.dim == 0 {
		return defaultLexicalDimension
	}
	return l.dim
}

// Embed returns one unit-length vector per text. A text must be valid UTF-8
// and hold at least one character that is not white space; otherwise the
// error wraps [vectorstore.ErrInvalidArgument] and names the text's position. A text of
// only punctuation is embedded by its symbols.
func (l *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	cfg := l.Config()
	out := make([][]float32, len(texts))
	slab := make([]float32, len(texts)*cfg.Dimension)
	var f features
	for i, text := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !utf8.ValidString(text) {
			return nil, fmt.Errorf("%w: text %d is not valid UTF-8", vectorstore.ErrInvalidArgument, i)
		}
		v := slab[i*cfg.Dimension : (i+1)*cfg.Dimension : (i+1)*cfg.Dimension]
		if !embed(&f, text, v, cfg.KeepStopWords) {
			return nil, fmt.Errorf("%w: text %d has nothing to embed (it is empty or white space)", vectorstore.ErrInvalidArgument, i)
		}
		out[i] = v
	}
	return out, nil
}

// features collects the hashed features of one text; reused across texts.
type features struct {
	buf    []byte // the lowercased words, back to back
	ends   []int  // where each word ends in buf
	stop   []bool // whether each word is a stop word
	hashes []uint64
}

// embed writes the vector of text into v and reports whether the text had
// any feature.
func embed(f *features, text string, v []float32, keepStops bool) bool {
	f.split(text)
	f.hashes = f.hashes[:0]
	for i := range f.ends {
		if keepStops || !f.stop[i] {
			f.hashes = append(f.hashes, hashFeature(1, f.word(i), nil))
		}
		if i > 0 && !(f.stop[i-1] && f.stop[i]) {
			f.hashes = append(f.hashes, hashFeature(2, f.word(i-1), f.word(i)))
		}
	}
	if len(f.hashes) == 0 { // only stop words: count them after all
		for i := range f.ends {
			f.hashes = append(f.hashes, hashFeature(1, f.word(i), nil))
		}
	}
	if len(f.hashes) == 0 { // no words: punctuation or symbols
		for i, r := range text {
			if !unicode.IsSpace(r) {
				f.hashes = append(f.hashes, hashFeature(3, []byte(text[i:i+utf8.RuneLen(r)]), nil))
			}
		}
	}
	if len(f.hashes) == 0 {
		return false
	}
	// Equal hashes are equal features: sort to count them.
	slices.Sort(f.hashes)
	for i := 0; i < len(f.hashes); {
		j := i + 1
		for j < len(f.hashes) && f.hashes[j] == f.hashes[i] {
			j++
		}
		h := f.hashes[i]
		w := float32(1 + math.Log(float64(j-i)))
		if h&(1<<63) != 0 { // a sign bit keeps collisions from adding up
			w = -w
		}
		v[(h>>32)%uint64(len(v))] += w
		i = j
	}
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 { // every feature cancelled out in a collision
		v[0] = 1
		return true
	}
	r := 1 / math.Sqrt(ss)
	for i, x := range v {
		v[i] = float32(float64(x) * r)
	}
	return true
}

// split lowercases the words of text into f.buf, one after the other, and
// records where each ends in f.ends, marking stop words.
func (f *features) split(text string) {
	f.ends, f.stop, f.buf = f.ends[:0], f.stop[:0], f.buf[:0]
	start := 0
	flush := func() {
		if len(f.buf) > start {
			f.ends = append(f.ends, len(f.buf))
			f.stop = append(f.stop, stem.IsStop(f.buf[start:]))
			start = len(f.buf)
		}
	}
	inWord := false
	for i, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			f.buf = utf8.AppendRune(f.buf, unicode.ToLower(r))
			inWord = true
			continue
		case (r == '\'' || r == '’') && inWord:
			next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
			if unicode.IsLetter(next) {
				continue // "don't" is one word, "dont"
			}
		}
		inWord = false
		flush()
	}
	flush()
}

// word returns the i'th word found by split.
func (f *features) word(i int) []byte {
	start := 0
	if i > 0 {
		start = f.ends[i-1]
	}
	return f.buf[start:f.ends[i]]
}

// hashFeature hashes a feature of the given kind (1 unigram, 2 bigram, 3
// symbol) with FNV-1a and a final mix, so the low and high bits are both
// usable.
func hashFeature(kind byte, a, b []byte) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	h = (h ^ uint64(kind)) * prime
	for i := 0; i < len(a); i++ {
		h = (h ^ uint64(a[i])) * prime
	}
	if kind == 2 {
		h = (h ^ ' ') * prime
		for i := 0; i < len(b); i++ {
			h = (h ^ uint64(b[i])) * prime
		}
	}
	// splitmix64 finalizer
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}
