package retrieve_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
)

// offices are two documents alike but for their city: a follow-up that
// names only the city ("and in Toronto?") is found by the city's name in
// the Toronto document's other section, not in its opening hours.
var offices = []note{
	{"singapore", "Singapore office", "# Singapore office\n\n## Opening hours\n\nThe office opens at 9:00 and closes at 18:00 on weekdays.\n\n" +
		"## Singapore\n\nSingapore is a city state; the Singapore office sits in Singapore near Raffles Place in central Singapore.\n"},
	{"toronto", "Toronto office", "# Toronto office\n\n## Opening hours\n\nThe office opens at 8:30 and closes at 17:00 on weekdays.\n\n" +
		"## Toronto\n\nToronto is the largest city in Canada; the Toronto office sits in Toronto near Union Station in downtown Toronto.\n"},
}

// script is a scripted model: it rewrites the questions it knows, given
// the conversation it expects, and returns any other question as is.
type script struct {
	replies map[string][]string // by question
	calls   [][]retrieve.Turn   // the conversation of each call
}

func (s *script) Rewrite(_ context.Context, conv []retrieve.Turn, question string) ([]string, error) {
	s.calls = append(s.calls, conv)
	if len(conv) > 0 {
		if qs, ok := s.replies[question]; ok {
			return qs, nil
		}
	}
	return []string{question}, nil
}

var singaporeTurn = retrieve.Turn{Question: "What are the opening hours of the Singapore office?",
	Answer: "It opens at 9:00 and closes at 18:00 on weekdays."}

func TestRewriterFollowUp(t *testing.T) {
	store, emb := folder(t, 40, offices...)
	followUp := retrieve.Query{Question: "and in Toronto?", Conversation: []retrieve.Turn{singaporeTurn}}
	hours := func(p retrieve.Passage) bool { return p.DocID == "toronto" && strings.Contains(p.Text, "8:30") }
	for _, tt := range []struct {
		name      string
		rewriter  *script
		questions []string
		answered  bool
	}{
		{"without a rewriter", nil, []string{"and in Toronto?"}, false},
		{"condensed", &script{replies: map[string][]string{"and in Toronto?": {"What are the opening hours of the Toronto office?"}}},
			[]string{"What are the opening hours of the Toronto office?"}, true},
		{"several phrasings", &script{replies: map[string][]string{"and in Toronto?": {
			"What are the opening hours of the Toronto office?", "When does the Toronto office open and close?"}}},
			[]string{"What are the opening hours of the Toronto office?", "When does the Toronto office open and close?"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := retrieve.Config{Store: store, Embedder: emb, Passages: 1}
			if tt.rewriter != nil {
				cfg.Rewriter = tt.rewriter
			}
			res, err := newRetriever(t, cfg).RetrieveQuery(bg, followUp)
			require.NoError(t, err)
			require.Len(t, res.Passages, 1)
			assert.Equal(t, tt.questions, res.Questions)
			assert.Equal(t, tt.answered, hours(res.Passages[0]), "passage of %s: %q", res.Passages[0].DocID, res.Passages[0].Text)
			if tt.rewriter != nil {
				require.Len(t, tt.rewriter.calls, 1)
				assert.Equal(t, followUp.Conversation, tt.rewriter.calls[0])
				assert.Positive(t, res.Stats.Rewrite)
			}
		})
	}
}

// TestRetrieveCallsRewriter: Retrieve rewrites too, with no conversation;
// RetrieveVector searches its question as is.
func TestRetrieveCallsRewriter(t *testing.T) {
	store, emb := folder(t, 40, offices...)
	s := &script{}
	r := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Rewriter: s})
	_, err := r.Retrieve(bg, "When does the Toronto office open?")
	require.NoError(t, err)
	require.Len(t, s.calls, 1)
	assert.Empty(t, s.calls[0])
	vecs, err := emb.Embed(bg, []string{"When does the Toronto office open?"})
	require.NoError(t, err)
	_, err = r.RetrieveVector(bg, "When does the Toronto office open?", vecs[0])
	require.NoError(t, err)
	assert.Len(t, s.calls, 1, "RetrieveVector does not rewrite")
}

type rewriterFunc func(context.Context, []retrieve.Turn, string) ([]string, error)

func (f rewriterFunc) Rewrite(ctx context.Context, conv []retrieve.Turn, q string) ([]string, error) {
	return f(ctx, conv, q)
}

func TestRewriterErrors(t *testing.T) {
	store, emb := folder(t, 40, offices...)
	boom := errors.New("model down")
	for _, tt := range []struct {
		name     string
		rewriter rewriterFunc
		is       error
		msg      string
	}{
		{"error", func(context.Context, []retrieve.Turn, string) ([]string, error) { return nil, boom }, boom, "rewriting the question"},
		{"panic", func(context.Context, []retrieve.Turn, string) ([]string, error) { panic("oops") }, retrieve.ErrPanic, "oops"},
		{"none", func(context.Context, []retrieve.Turn, string) ([]string, error) { return nil, nil }, retrieve.ErrRewriter, "no question"},
		{"blank", func(context.Context, []retrieve.Turn, string) ([]string, error) { return []string{"a", " \n"}, nil }, retrieve.ErrRewriter, "question 1"},
		{"too many", func(context.Context, []retrieve.Turn, string) ([]string, error) { return []string{"a", "b", "c"}, nil }, retrieve.ErrRewriter, "at most 2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Rewriter: tt.rewriter, MaxQuestions: 2})
			_, err := r.RetrieveQuery(bg, retrieve.Query{Question: "and in Toronto?"})
			require.ErrorIs(t, err, tt.is)
			assert.Contains(t, err.Error(), tt.msg)
			_, err = r.Retrieve(bg, "and in Toronto?")
			require.ErrorIs(t, err, tt.is)
		})
	}
	_, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, MaxQuestions: -1})
	require.ErrorIs(t, err, retrieve.ErrConfig)
	_, err = newRetriever(t, retrieve.Config{Store: store, Embedder: emb}).RetrieveQuery(bg, retrieve.Query{Question: " "})
	require.ErrorIs(t, err, vectorstore.ErrInvalidArgument)
}
