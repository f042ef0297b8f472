package bert

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
)

// Embed returns one vector per text, Dimensions() values each, in the
// order of texts: the model's last hidden states pooled (mean or [CLS],
// see Options.Pooling) and, when the model says so, scaled to unit
// length. A text longer than MaxTokens() tokens, [CLS] and [SEP]
// included, is cut to its first tokens, or refused with ErrTooLong under
// TruncationError. Texts are tokenized, sorted by length and run in
// batches of similar lengths on Options.Workers goroutines; Embed stops
// between batches when ctx is cancelled.
func (m *Model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	seqs := make([]seq, len(texts))
	room := m.maxTokens - m.enc.Special(false)
	errs := make([]error, len(texts))
	m.parallel(len(texts), func(i int) {
		ids := m.enc.IDs(nil, texts[i])
		if len(ids) > room {
			if m.opts.Truncation == TruncationError {
				errs[i] = fmt.Errorf("%w: text %d has %d tokens, the model reads %d", ErrTooLong, i, len(ids)+m.enc.Special(false), m.maxTokens)
				return
			}
			ids = ids[:room]
		}
		e := m.enc.Wrap(ids)
		seqs[i] = seq{ids: e.IDs, types: e.TypeIDs}
		errs[i] = m.checkSeq(seqs[i])
	})
	if err := firstErr(errs); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	err := m.run(ctx, seqs, func(i int, h []float32) { out[i] = m.pool(h) })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Rerank returns one score per text, in the order of texts: the logit of
// a cross-encoder (BertForSequenceClassification with one label, such as
// the ms-marco MiniLM models) on the pair [CLS] query [SEP] text [SEP],
// higher more relevant. A pair longer than MaxTokens() is cut at the
// end, the longer of the two first (as the library's longest_first
// truncation cuts), or refused with ErrTooLong under TruncationError. A model without a classification
// head, or with more than one label, gives ErrUnsupported.
func (m *Model) Rerank(ctx context.Context, query string, texts []string) ([]float64, error) {
	if m.w.classifier == nil || m.cfg.labels != 1 {
		return nil, fmt.Errorf("%w: Rerank needs a BertForSequenceClassification model with one label (this one is %s with %d)", ErrUnsupported, m.cfg.Architectures[0], m.cfg.labels)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	q := m.enc.IDs(nil, query)
	room := m.maxTokens - m.enc.Special(true)
	seqs := make([]seq, len(texts))
	errs := make([]error, len(texts))
	m.parallel(len(texts), func(i int) {
		a, b := q, m.enc.IDs(nil, texts[i])
		if len(a)+len(b) > room {
			if m.opts.Truncation == TruncationError {
				errs[i] = fmt.Errorf("%w: query and text %d have %d tokens, the model reads %d", ErrTooLong, i, len(a)+len(b)+m.enc.Special(true), m.maxTokens)
				return
			}
			a, b = truncatePair(a, b, room)
		}
		e := m.enc.WrapPair(a, b)
		seqs[i] = seq{ids: e.IDs, types: e.TypeIDs}
		errs[i] = m.checkSeq(seqs[i])
	})
	if err := firstErr(errs); err != nil {
		return nil, err
	}
	out := make([]float64, len(texts))
	err := m.run(ctx, seqs, func(i int, h []float32) { out[i] = m.classify(h) })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// truncatePair shortens a and b to room tokens together as the library's
// longest_first truncation does (tokenizers' TruncationStrategy::
// LongestFirst, what transformers' fast tokenizers run): the longer is cut
// to what the shorter leaves, and if that is not enough both get half,
// the longer (b on a tie) the odd token.
func truncatePair(a, b []int32, room int) ([]int32, []int32) {
	n1, n2 := len(a), len(b)
	swap := n1 > n2
	if swap {
		n1, n2 = n2, n1
	}
	if n1 > room {
		n2 = n1
	} else {
		n2 = max(n1, room-n1)
	}
	if n1+n2 > room {
		n1 = room / 2
		n2 = n1 + room%2
	}
	if swap {
		n1, n2 = n2, n1
	}
	return a[:min(n1, len(a))], b[:min(n2, len(b))]
}

// firstErr returns the error of the lowest-numbered input, so that the
// error does not depend on the goroutines' order.
func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkSeq checks that the tokenizer's ids are within the model's
// tables: a tokenizer.json with more tokens than config.json's
// vocab_size would index past them.
func (m *Model) checkSeq(s seq) error {
	for _, id := range s.ids {
		if id < 0 || int(id) >= m.cfg.Vocab {
			return fmt.Errorf("%w: token id %d outside the model's vocabulary of %d", ErrFormat, id, m.cfg.Vocab)
		}
	}
	for _, t := range s.types {
		if t < 0 || int(t) >= m.cfg.TypeVocab {
			return fmt.Errorf("%w: type id %d outside the model's %d", ErrFormat, t, m.cfg.TypeVocab)
		}
	}
	return nil
}

// parallel calls f(i) for i < n on the model's workers.
func (m *Model) parallel(n int, f func(i int)) {
	workers := min(m.workers(), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < n; i += workers {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// batch is a run of inputs of similar lengths, by index.
type batch struct {
	idx    []int
	tokens int
}

// run forwards seqs in batches of similar lengths and calls done with
// each input's index and last hidden states (its rows); done may be
// called concurrently, for distinct indices.
func (m *Model) run(ctx context.Context, seqs []seq, done func(i int, h []float32)) error {
	if len(seqs) == 0 {
		return nil
	}
	batches := m.batches(seqs)
	workers := min(m.workers(), len(batches))
	// Goroutines left over when there are fewer batches than workers
	// (one query) go to the matrix products within a batch.
	par := max(1, m.workers()/workers)
	next := make(chan batch)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var cerr error
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range next {
				in := make([]seq, len(b.idx))
				for k, i := range b.idx {
					in[k] = seqs[i]
				}
				h, starts := m.forward(in, par)
				H := m.cfg.Hidden
				for k, i := range b.idx {
					done(i, h[starts[k]*H:starts[k+1]*H])
				}
			}
		}()
	}
	for _, b := range batches {
		if err := ctx.Err(); err != nil {
			mu.Lock()
			cerr = err
			mu.Unlock()
			break
		}
		next <- b
	}
	close(next)
	wg.Wait()
	return cerr
}

// batches groups the inputs by length, longest first, each batch within
// the batch size in tokens and the inputs shared among the workers.
func (m *Model) batches(seqs []seq) []batch {
	order := make([]int, len(seqs))
	total := 0
	for i := range order {
		order[i] = i
		total += len(seqs[i].ids)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(seqs[b].ids), len(seqs[a].ids)) })
	limit := min(m.batchTokens(), max(1, (total+m.workers()-1)/m.workers()))
	var out []batch
	var cur batch
	for _, i := range order {
		n := len(seqs[i].ids)
		if len(cur.idx) > 0 && cur.tokens+n > limit {
			out = append(out, cur)
			cur = batch{}
		}
		cur.idx = append(cur.idx, i)
		cur.tokens += n
	}
	return append(out, cur)
}

// pool makes a text's vector from its rows of hidden states.
func (m *Model) pool(h []float32) []float32 {
	H := m.cfg.Hidden
	v := make([]float32, H)
	if m.pooling == PoolingCLS {
		copy(v, h[:H])
	} else {
		acc := make([]float64, H)
		n := len(h) / H
		for r := range n {
			for k, x := range h[r*H : (r+1)*H] {
				acc[k] += float64(x)
			}
		}
		for k := range v {
			v[k] = float32(acc[k] / float64(n))
		}
	}
	if m.normalize {
		var ss float64
		for _, x := range v {
			ss += float64(x) * float64(x)
		}
		// sentence-transformers divides by max(norm, 1e-12).
		inv := 1 / max(math.Sqrt(ss), 1e-12)
		for k := range v {
			v[k] = float32(float64(v[k]) * inv)
		}
	}
	return v
}

// classify is the classification head on [CLS]'s hidden state: the
// pooler (dense, tanh), then the classifier's one logit.
func (m *Model) classify(h []float32) float64 {
	H := m.cfg.Hidden
	p := make([]float32, H)
	apply(p, h[:H], 1, *m.w.pooler, 1)
	for k, x := range p {
		p[k] = float32(math.Tanh(float64(x)))
	}
	logit := make([]float32, m.cfg.labels)
	apply(logit, p, 1, *m.w.classifier, 1)
	return float64(logit[0])
}
