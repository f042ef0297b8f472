package openai_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// A Condenser is a retrieve.Rewriter: the interface and its Turn type.
var _ retrieve.Rewriter = (*openai.Condenser)(nil)

var singapore = openai.Turn{Question: "What are the opening hours of the Singapore office?",
	Answer: "It opens at 9:00 and closes at 18:00 on weekdays."}

func TestCondense(t *testing.T) {
	c, body := chatAPI(t, chatCompletion("  \"What are the opening hours of the Toronto office?\"\nExplanation: ...", "stop"))
	cond, err := openai.NewCondenser(openai.CondenserConfig{Client: c, Model: "gpt-4o-mini", MaxTurns: 1})
	require.NoError(t, err)
	old := openai.Turn{Question: "Who runs payroll?", Answer: "Finance."}
	got, err := cond.Rewrite(context.Background(), []openai.Turn{old, singapore}, "and in Toronto?")
	require.NoError(t, err)
	assert.Equal(t, []string{"What are the opening hours of the Toronto office?"}, got)
	assert.Equal(t, map[string]any{
		"model": "gpt-4o-mini",
		"messages": []any{
			map[string]any{"role": "system", "content": openai.DefaultCondensePrompt},
			map[string]any{"role": "user", "content": "Conversation:\n" +
				"User: What are the opening hours of the Singapore office?\n" +
				"Assistant: It opens at 9:00 and closes at 18:00 on weekdays.\n" +
				"\nLast question: and in Toronto?\n\nStandalone question:"},
		},
		"temperature": float64(0),
		"max_tokens":  float64(openai.DefaultCondenseTokens),
	}, body.Load(), "the latest MaxTurns turns, the older dropped")
}

func TestCondenseWithoutConversation(t *testing.T) {
	var calls atomic.Int64
	srv := server(t, counted(&calls, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, chatCompletion("x", "stop")) }))
	cond, err := openai.NewCondenser(openai.CondenserConfig{Client: newClient(t, fastConfig(srv)), Model: "m"})
	require.NoError(t, err)
	got, err := cond.Rewrite(context.Background(), nil, "When does the Toronto office open?")
	require.NoError(t, err)
	assert.Equal(t, []string{"When does the Toronto office open?"}, got)
	assert.Zero(t, calls.Load(), "no request without a conversation")
}

func TestCondenseCutsTurns(t *testing.T) {
	c, body := chatAPI(t, chatCompletion("q?", "stop"))
	cond, err := openai.NewCondenser(openai.CondenserConfig{Client: c, Model: "m", MaxTurnBytes: 10})
	require.NoError(t, err)
	_, err = cond.Rewrite(context.Background(), []openai.Turn{{Question: "héééééé\nlong question", Answer: "a\xffb"}}, "and then?")
	require.NoError(t, err)
	msgs := body.Load().(map[string]any)["messages"].([]any)
	user := msgs[1].(map[string]any)["content"].(string)
	assert.Contains(t, user, "User: héééé…\nAssistant: a\uFFFDb\n", "cut at a character boundary, on one line, valid UTF-8")
}

func TestCondenseFailures(t *testing.T) {
	tests := []struct {
		name, reply, question string
		want                  error
	}{
		{"cut at MaxTokens", chatCompletion("What are the", "length"), "and then?", openai.ErrTruncated},
		{"reply too long", chatCompletion(strings.Repeat("x", 41), "stop"), "and then?", openai.ErrTruncated},
		{"empty reply", chatCompletion(" \"\" \n", "stop"), "and then?", openai.ErrEmptyReply},
		{"blank question", chatCompletion("x", "stop"), " \n", openai.ErrInvalid},
		{"invalid UTF-8", chatCompletion("x", "stop"), "a\xffb", openai.ErrInvalid},
		{"question too long", chatCompletion("x", "stop"), strings.Repeat("q", 41), openai.ErrInvalid},
		{"server error", `{"error": {"message": "bad model"}}`, "and then?", openai.ErrBadResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := chatAPI(t, tt.reply)
			cond, err := openai.NewCondenser(openai.CondenserConfig{Client: c, Model: "m", MaxTurnBytes: 40})
			require.NoError(t, err)
			got, err := cond.Rewrite(context.Background(), []openai.Turn{singapore}, tt.question)
			require.ErrorIs(t, err, tt.want)
			assert.Empty(t, got)
		})
	}
}

func TestNewCondenserErrors(t *testing.T) {
	for _, cfg := range []openai.CondenserConfig{
		{},
		{Model: "m", MaxTurns: -1},
		{Model: "m", MaxTurnBytes: -1},
		{Model: "m", MaxTokens: -1},
		{Model: "m", Temperature: -1},
		{Model: "m", Prompt: "\xff"},
	} {
		_, err := openai.NewCondenser(cfg)
		require.ErrorIs(t, err, openai.ErrConfig, "%+v", cfg)
	}
	_, err := (&openai.Condenser{}).Rewrite(context.Background(), nil, "q")
	require.ErrorIs(t, err, openai.ErrConfig)
}

// TestCondenserRetrieves: a follow-up, condensed by a scripted model that
// reads the conversation it is sent, retrieves the Toronto office's
// opening hours; searched as it is, it finds another Toronto passage.
func TestCondenserRetrieves(t *testing.T) {
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var req struct{ Messages []openai.Message }
		require.NoError(t, json.Unmarshal(raw, &req))
		reply := "I do not know."
		if user := req.Messages[len(req.Messages)-1].Content; strings.Contains(user, "opening hours of the Singapore office") &&
			strings.Contains(user, "Last question: and in Toronto?") {
			reply = "What are the opening hours of the Toronto office?"
		}
		writeJSON(w, 200, chatCompletion(reply, "stop"))
	})
	cond, err := openai.NewCondenser(openai.CondenserConfig{Client: newClient(t, fastConfig(srv)), Model: "m"})
	require.NoError(t, err)

	emb := &lexical.Embedder{}
	store := &memory.Store{}
	texts := map[string][]string{
		"singapore": {"The Singapore office opens at 9:00 and closes at 18:00 on weekdays.",
			"Singapore is a city state; the Singapore office sits in Singapore near Raffles Place."},
		"toronto": {"Opening hours: the office opens at 8:30 and closes at 17:00 on weekdays.",
			"Toronto is the largest city in Canada; the Toronto office sits in Toronto near Union Station."},
	}
	for doc, units := range texts {
		for i, text := range units {
			// embedded with a header of its document's title, as ingest does
			vecs, err := emb.Embed(context.Background(), []string{doc + " office\n" + text})
			require.NoError(t, err)
			require.NoError(t, store.Upsert(context.Background(), vectorstore.Record{ID: doc + string(rune('0'+i)), DocID: doc, Index: i,
				Text: text, Title: doc, Vector: vecs[0]}))
		}
	}
	q := retrieve.Query{Question: "and in Toronto?", Conversation: []retrieve.Turn{singapore}}
	for _, tt := range []struct {
		name     string
		rewriter retrieve.Rewriter
		want     string
	}{
		{"condensed", cond, "8:30"},
		{"as is", nil, "Union Station"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Passages: 1, Rewriter: tt.rewriter})
			require.NoError(t, err)
			res, err := r.RetrieveQuery(context.Background(), q)
			require.NoError(t, err)
			require.Len(t, res.Passages, 1)
			assert.Equal(t, "toronto", res.Passages[0].DocID)
			assert.Contains(t, res.Passages[0].Text, tt.want)
		})
	}
}
