package retrieve

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ragkit/ragkit/internal/parallel"
)

// ErrRewriter reports what a [Rewriter] returned that cannot be searched:
// no question, a blank one, or more than Config.MaxQuestions. A caller
// may retry the question as is, without the Rewriter.
var ErrRewriter = errors.New("retrieve: bad rewriter output")

// DefaultMaxQuestions is the most phrasings a [Rewriter] may return when
// Config.MaxQuestions is zero: each is one more search.
const DefaultMaxQuestions = 4

// A Turn is one earlier exchange of a conversation: the user's question
// and the answer it got. It is an alias of a plain struct so that a
// package which cannot import retrieve (openai.Condenser) implements
// [Rewriter] with the identical type.
type Turn = struct {
	Question string
	Answer   string
}

// A Rewriter turns a question, and the conversation before it (oldest
// turn first, possibly none), into what to search: one standalone
// question (a follow-up such as "and in Toronto?" condensed with the
// turns before it), or several phrasings, each searched and their hits
// fused. The first is the question the Reranker and [Passage.Focus] read.
// openai.Condenser is one over a chat model. A Rewriter is called once
// per call of [Retriever.Retrieve] or [Retriever.RetrieveQuery], never
// concurrently by one call, but concurrently by concurrent calls.
type Rewriter interface {
	Rewrite(ctx context.Context, conversation []Turn, question string) ([]string, error)
}

// A Query is a question and the conversation before it.
type Query struct {
	// Question is what the user asked; required (not blank).
	Question string
	// Conversation is the turns before Question, oldest first, for the
	// Config.Rewriter; without a Rewriter it is not read. The Retriever
	// passes it as it is: bounding it (the last few turns) is the
	// caller's or the Rewriter's.
	Conversation []Turn
}

// A Result is what [Retriever.RetrieveQuery] found, and how.
type Result struct {
	// Passages are the passages, best first, as [Retriever.Retrieve]
	// returns them.
	Passages []Passage
	// Questions are what was searched: the Rewriter's phrasings, or the
	// Question alone without a Rewriter.
	Questions []string
	// Stats are the stage timings.
	Stats Stats
}

// questions returns what to search for q: the Rewriter's phrasings,
// checked, or the question as is.
func (r *Retriever) questions(ctx context.Context, q Query, st *timings) ([]string, error) {
	if err := checkQuestion(ctx, q.Question); err != nil {
		return nil, err
	}
	if r.cfg.Rewriter == nil {
		return []string{q.Question}, nil
	}
	t0 := st.start()
	qs, err := parallel.Call(func() ([]string, error) { return r.cfg.Rewriter.Rewrite(ctx, q.Conversation, q.Question) })
	st.stop(stageRewrite, t0)
	if err != nil {
		return nil, fmt.Errorf("retrieve: rewriting the question: %w", err)
	}
	switch {
	case len(qs) == 0:
		return nil, fmt.Errorf("%w: the rewriter returned no question", ErrRewriter)
	case len(qs) > r.cfg.MaxQuestions:
		return nil, fmt.Errorf("%w: the rewriter returned %d questions: at most %d (MaxQuestions)", ErrRewriter, len(qs), r.cfg.MaxQuestions)
	}
	for i, s := range qs {
		if strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("%w: question %d of the rewriter is blank", ErrRewriter, i)
		}
	}
	return qs, nil
}
