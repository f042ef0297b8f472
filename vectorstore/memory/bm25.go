package memory

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
)

// The default BM25 parameters, those of Lucene and Elasticsearch.
const (
	defaultK1 = 1.2
	defaultB  = 0.75
)

// maxK1 bounds KeywordConfig.K1: far above any useful value (BM25 is
// usually run with 0.5 to 3), and low enough that no score overflows.
const maxK1 = 1000

// KeywordConfig configures the keyword index of a [Store]: the BM25
// parameters, whether stop words are indexed and whether words are
// stemmed. The zero value is BM25 with k1 = 1.2 and b = 0.75, without
// English stop words, with English stemming.
type KeywordConfig struct {
	// K1 is how slowly the weight of a term saturates as it repeats in a
	// text, from 0 to 1000. Zero means 1.2; for k1 = 0, which counts a
	// term once however often it occurs, set NoSaturation.
	K1 float64
	// B is how much a text's length discounts its terms, from 0 to 1: 1
	// scales term frequency fully by length relative to the average, 0
	// ignores length. Zero means 0.75; for b = 0 set NoLengthNorm.
	B float64
	// NoSaturation sets k1 to 0, K1 being 0 too: a term counts once in
	// a text however often it occurs there.
	NoSaturation bool
	// NoLengthNorm sets b to 0, B being 0 too: a text's length does not
	// discount its terms.
	NoLengthNorm bool
	// KeepStopWords indexes the English stop words that the lexical embedder leaves
	// out of its unigrams ("the", "of", ...), and lets queries match them.
	// By default they are left out of texts and queries alike.
	KeepStopWords bool
	// NoStemming indexes and queries words as they are written. By
	// default English words are reduced to their Porter2 (Snowball
	// English) stems in texts and queries alike, so that "expects" finds
	// "expected" and "speakers" finds "speaker", as PostgreSQL's english
	// text search configuration (the pgvector adapter's default), Lucene's
	// EnglishAnalyzer and Tantivy do; a saved store is indexed again as it
	// loads, with the setting given then.
	NoStemming bool
}

// bm25 is a resolved KeywordConfig.
type bm25 struct {
	k1, b     float64
	keepStops bool
	noStem    bool
}

// check returns what is wrong with c, if anything.
func (c KeywordConfig) check() error {
	switch {
	case !(c.K1 >= 0 && c.K1 <= maxK1): // NaN too
		return configError("Keywords.K1", c.K1, "must be 0 (the default) to 1000")
	case !(c.B >= 0 && c.B <= 1):
		return configError("Keywords.B", c.B, "must be 0 (the default) to 1")
	case c.NoSaturation && c.K1 != 0:
		return configError("Keywords.K1", c.K1, "must be 0 with NoSaturation")
	case c.NoLengthNorm && c.B != 0:
		return configError("Keywords.B", c.B, "must be 0 with NoLengthNorm")
	}
	return nil
}

// resolve fills in the defaults of c.
func (c KeywordConfig) resolve() bm25 {
	return bm25{k1: param(c.K1, defaultK1, c.NoSaturation), b: param(c.B, defaultB, c.NoLengthNorm), keepStops: c.KeepStopWords, noStem: c.NoStemming}
}

// param resolves a K1 or B setting: zero is def, unless none says 0.
func param(v, def float64, none bool) float64 {
	if v == 0 && !none {
		return def
	}
	return v
}

// config reports p as a KeywordConfig from which New makes p again.
func (p bm25) config() KeywordConfig {
	return KeywordConfig{K1: p.k1, B: p.b, KeepStopWords: p.keepStops, NoStemming: p.noStem,
		NoSaturation: p.k1 == 0, NoLengthNorm: p.b == 0}
}

// kwScratch is the working memory of a keyword query, pooled.
type kwScratch struct {
	an      analyzer
	lists   []int32   // the query's terms' lists
	acc     []float64 // the score of each kid; all zero between queries
	touched []int32   // the kids with a score
	subset  []int32   // the slots of a filter's documents
	sel     selection // the slots a filter selects
	allowed []uint64  // sel's set, or nil for every slot
	top     kernel.TopK
}

var kwPool = sync.Pool{New: func() any { return new(kwScratch) }}

// QueryKeywords returns the k records whose texts best match the words of
// query by BM25, best first (ties in score by ID), among those that
// match filter; it implements [KeywordQuerier]. A record that shares no
// term with the query is not returned, so there may be fewer than k hits.
// Hits carry no vectors, as with [Store.Query].
//
// Texts and queries are cut into terms alike: the words of
// [segment.Words] that hold a letter or a digit, case-folded, apostrophes
// dropped, English stop words left out (unless
// [KeywordConfig.KeepStopWords]); characters of scripts written without
// spaces (Chinese, Japanese kana, Thai, ...) are taken in overlapping
// pairs. A repeated query term counts once. The package documentation
// gives the details and the formula.
//
// The score is the record's BM25 score for the query, at least 0 and with
// no upper bound: a sum over the query's terms of their rarity in the
// store times their weight in the record's text. It ranks the records for
// one query; it is not comparable to the cosine similarity of
// [Store.Query], nor between queries. Combine both kinds of search by
// rank (package retrieve fuses them).
//
// A query that is empty, only white space, or not valid UTF-8, or a k
// below 1, gives an error wrapping [ErrInvalidArgument]. A query with no
// term (only stop words or punctuation) has no hits and no error. Cost:
// linear in the number of records that hold a query term, one pass over
// each term's list.
func (m *Store) QueryKeywords(ctx context.Context, query string, k int, filter vectorstore.Filter) ([]vectorstore.Hit, error) {
	if err := filter.Check(); err != nil {
		return nil, err
	}
	sc, err := m.keywordScratch(ctx, query, k)
	if err != nil {
		return nil, err
	}
	defer kwPool.Put(sc)
	if err := m.rlock(ctx); err != nil {
		return nil, err
	}
	defer m.mu.RUnlock()
	return m.keywordHits(sc, k, filter), nil
}

// keywordScratch checks the arguments of a keyword query and returns a
// scratch holding the query's terms.
func (m *Store) keywordScratch(ctx context.Context, query string, k int) (*kwScratch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, fmt.Errorf("%w: k is %d, not positive", vectorstore.ErrInvalidArgument, k)
	}
	if !utf8.ValidString(query) {
		return nil, fmt.Errorf("%w: query %v", vectorstore.ErrInvalidArgument, errUTF8)
	}
	if strings.TrimFunc(query, unicode.IsSpace) == "" {
		return nil, fmt.Errorf("%w: query %v", vectorstore.ErrInvalidArgument, errEmpty)
	}
	m.init()
	sc := kwPool.Get().(*kwScratch)
	sc.an.keepStops, sc.an.noStem = m.bm25.keepStops, m.bm25.noStem
	sc.an.analyze(query)
	return sc, nil
}

// keywordHits answers the keyword query whose terms sc holds. The caller
// holds the read lock.
func (m *Store) keywordHits(sc *kwScratch, k int, filter vectorstore.Filter) []vectorstore.Hit {
	cands := m.keywordSearch(sc, k, filter)
	if len(cands) == 0 {
		return nil
	}
	return m.hits(cands)
}

// hybridSearch runs the two searches of a hybrid query under one read
// lock, so that both see the same records: a write cannot fall between
// them.
func (m *Store) hybridSearch(ctx context.Context, vector []float32, text string, k int, filter vectorstore.Filter) (vhits, khits []vectorstore.Hit, err error) {
	if err := filter.Check(); err != nil {
		return nil, nil, err
	}
	vs, err := vectorScratch(ctx, vector, k)
	if err != nil {
		return nil, nil, err
	}
	defer vs.release()
	ks, err := m.keywordScratch(ctx, text, k)
	if err != nil {
		return nil, nil, err
	}
	defer kwPool.Put(ks)
	if err := m.rlock(ctx); err != nil {
		return nil, nil, err
	}
	defer m.mu.RUnlock()
	if vhits, err = m.vectorHits(ctx, vs, len(vector), k, filter); err != nil {
		return nil, nil, err
	}
	return vhits, m.keywordHits(ks, k, filter), nil
}

// keywordSearch returns the best k candidates, best first. The caller
// holds the read lock.
func (m *Store) keywordSearch(sc *kwScratch, k int, filter vectorstore.Filter) []kernel.Candidate {
	kw := &m.kw
	sc.lists = sc.lists[:0]
	for i := range sc.an.ends {
		if l, ok := kw.ids[string(sc.an.term(i))]; ok && !slices.Contains(sc.lists, l) {
			sc.lists = append(sc.lists, l)
		}
	}
	if len(sc.lists) == 0 || !m.allow(sc, filter) {
		return nil
	}
	m.score(sc)
	top := &sc.top
	top.Reset(min(k, len(sc.touched))) // a huge k must not size the heap
	top.Before = m.idBefore
	for _, id := range sc.touched {
		score := float32(sc.acc[id])
		sc.acc[id] = 0
		slot := kw.kids[id].slot
		if top.Accepts(score) && sc.allows(slot) {
			top.Push(score, slot)
		}
	}
	top.Before = nil
	cands := top.Items()
	slices.SortFunc(cands, m.rank)
	return cands
}

// allow sets sc.allowed to the slots that filter selects, or to nil
// when it restricts nothing, and reports whether any record may match.
func (m *Store) allow(sc *kwScratch, filter vectorstore.Filter) bool {
	sc.allowed = nil
	if filter.IsZero() {
		return true
	}
	var docs []int32
	if len(filter.DocIDs) > 0 {
		sc.subset = m.docSlots(sc.subset[:0], filter.DocIDs)
		docs = sc.subset
		if len(docs) == 0 {
			return false
		}
	}
	if m.selectSlots(&sc.sel, filter, docs) == 0 {
		return false
	}
	sc.allowed = sc.sel.set
	return true
}

// allows reports whether the filter selects slot.
func (sc *kwScratch) allows(slot int32) bool {
	return sc.allowed == nil || sc.allowed[slot/64]&(1<<(slot%64)) != 0
}

// score adds up the BM25 score of every live record that holds a term of
// sc.lists into sc.acc, by kid, noting the kids in sc.touched:
//
//	score = sum over terms t of idf(t) * tf * (k1+1) / (tf + k1 * (1 - b + b * length/avgLength))
//	idf(t) = ln(1 + (n - df(t) + 0.5) / (df(t) + 0.5))
//
// where tf is how often t occurs in the record's text, length the number
// of terms of the text, avgLength that of every record, n the number of
// records and df(t) the number of records that hold t.
func (m *Store) score(sc *kwScratch) {
	kw := &m.kw
	n := float64(len(kw.bySlot))
	k1, b := m.bm25.k1, m.bm25.b
	c1, c2 := k1*(1-b), k1*b*n/float64(kw.total)
	if len(sc.acc) < len(kw.kids) {
		sc.acc = make([]float64, len(kw.kids))
	}
	acc, touched := sc.acc, sc.touched[:0]
	for _, l := range sc.lists {
		p := &kw.lists[l]
		df := float64(p.live())
		w := math.Log(1+(n-df+0.5)/(df+0.5)) * (k1 + 1)
		for _, ps := range p.list {
			kd := kw.kids[ps.kid]
			if kd.slot < 0 {
				continue
			}
			tf := float64(ps.tf)
			if acc[ps.kid] == 0 {
				touched = append(touched, ps.kid)
			}
			acc[ps.kid] += w * tf / (tf + c1 + c2*float64(kd.length))
		}
	}
	sc.touched = touched
}
