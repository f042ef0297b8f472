package retrieve

import "time"

// Stats says where the time of one [Retriever.RetrieveQuery] went, stage
// by stage. A stage that did not run is zero. With several phrasings of a
// question (see [Rewriter]) the search and fusion times are summed over
// them. The two searches of a [Hybrid] search run at the same time, so
// their sum may exceed the time the call waited for them; over a store
// that runs both in one call (vectorstore.HybridQuerier), VectorSearch is
// that call and KeywordSearch is zero.
type Stats struct {
	Rewrite       time.Duration // the Rewriter's call
	Embed         time.Duration // embedding the question, or its phrasings in one call
	VectorSearch  time.Duration // the store's vector queries
	KeywordSearch time.Duration // the store's keyword queries
	Fusion        time.Duration // fusing the searches, and the phrasings' results
	Widen         time.Duration // the Widener, or making a passage of each hit
	Rerank        time.Duration // the Reranker's calls and the re-ranking
	Diversity     time.Duration // MinScore, the per-document cap and maximal marginal relevance
	Total         time.Duration // the whole call
}

// A stage is an index of timings, one per field of Stats but Total.
type stage int

const (
	stageRewrite stage = iota
	stageEmbed
	stageVector
	stageKeyword
	stageFusion
	stageWiden
	stageRerank
	stageDiversity
	stages
)

// timings accumulate a call's stages; a nil *timings is timing off:
// Retrieve and RetrieveVector pass one and read no clock.
type timings [stages]time.Duration

// start returns the time now, or the zero time when timings are off.
func (tm *timings) start() time.Time {
	if tm == nil {
		return time.Time{}
	}
	return time.Now()
}

// stop adds the time since t0 to stage s.
func (tm *timings) stop(s stage, t0 time.Time) {
	if tm != nil {
		tm[s] += time.Since(t0)
	}
}

// add adds d to stage s.
func (tm *timings) add(s stage, d time.Duration) {
	if tm != nil {
		tm[s] += d
	}
}

// stats returns the timings as Stats of a call that took total.
func (tm *timings) stats(total time.Duration) Stats {
	return Stats{Rewrite: tm[stageRewrite], Embed: tm[stageEmbed], VectorSearch: tm[stageVector],
		KeywordSearch: tm[stageKeyword], Fusion: tm[stageFusion], Widen: tm[stageWiden],
		Rerank: tm[stageRerank], Diversity: tm[stageDiversity], Total: total}
}
