package main

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	singaporeHotels = "What is the nightly hotel limit for staff of the Singapore office?"
	torontoHotels   = "What is the nightly hotel limit for staff of the Toronto office?"
)

// TestInteractiveConversation: offline, -i keeps the earlier turns, shows
// them, puts them in the prompt and forgets them at "/clear"; a follow-up
// is searched as it is.
func TestInteractiveConversation(t *testing.T) {
	stdin = strings.NewReader(singaporeHotels + "\nand in Toronto?\n/clear\nWho owns the travel policy?\n")
	t.Cleanup(func() { stdin = os.Stdin })
	out, errOut := runQuickstart(t, "-i", "-prompt")
	blocks := questionBlocks(out)
	require.Len(t, blocks, 3)
	assert.NotContains(t, blocks[0], "earlier turn")
	assert.Contains(t, blocks[1], "after 1 earlier turn (/clear forgets them):\n  1. "+singaporeHotels+"\n")
	assert.NotContains(t, blocks[1], "searched:", "no model: the follow-up is searched as is")
	assert.Regexp(t, `(?m)^conversation \|`, blocks[1])
	assert.Contains(t, blocks[1], "Question: "+singaporeHotels+"\n")
	assert.Contains(t, blocks[1], "(conversation cleared)")
	assert.NotContains(t, blocks[2], "earlier turn")
	assert.NotRegexp(t, `(?m)^conversation \|`, blocks[2])
	assert.Contains(t, errOut, "/clear to forget the conversation")
}

// TestInteractiveTurns: the conversation keeps the last -turns turns, and
// none with -turns 0.
func TestInteractiveTurns(t *testing.T) {
	questions := "Who owns the travel policy?\nWhen do the flow benches move?\nWhat was the gross margin in Q2 2026?\n"
	for _, tt := range []struct {
		turns string
		want  []string // the earlier questions shown before the third
	}{
		{"1", []string{"When do the flow benches move?"}},
		{"2", []string{"Who owns the travel policy?", "When do the flow benches move?"}},
		{"0", nil},
	} {
		t.Run(tt.turns, func(t *testing.T) {
			stdin = strings.NewReader(questions)
			t.Cleanup(func() { stdin = os.Stdin })
			out, _ := runQuickstart(t, "-i", "-turns", tt.turns)
			blocks := questionBlocks(out)
			require.Len(t, blocks, 3)
			if tt.want == nil {
				assert.NotContains(t, blocks[2], "earlier turn")
				return
			}
			var shown strings.Builder
			for i, q := range tt.want {
				fmt.Fprintf(&shown, "  %d. %s\n", i+1, q)
			}
			assert.Contains(t, blocks[2], shown.String())
			assert.NotContains(t, blocks[2], fmt.Sprintf("  %d. ", len(tt.want)+1))
		})
	}
}

// TestInteractiveCondensed: with a model, a follow-up is condensed with
// the conversation (the model's answer included) into a standalone
// question, which is searched; the answer goes into the next prompt.
func TestInteractiveCondensed(t *testing.T) {
	var condensed atomic.Int64
	srv := fakeOpenAIWith(t, func(w http.ResponseWriter, _ *http.Request, body string) bool {
		if !strings.Contains(body, "Standalone question:") {
			return false
		}
		condensed.Add(1)
		assert.Contains(t, body, "User: "+singaporeHotels)
		assert.Contains(t, body, "Assistant: The answer is in the context.")
		assert.Contains(t, body, "Last question: and in Toronto?")
		fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%q},"finish_reason":"stop"}]}`, torontoHotels)
		return true
	})
	stdin = strings.NewReader(singaporeHotels + "\nand in Toronto?\n")
	t.Cleanup(func() { stdin = os.Stdin })
	out, _ := runQuickstart(t, "-openai-base-url", srv.URL+"/v1", "-model", "fake-chat", "-i", "-prompt")
	blocks := questionBlocks(out)
	require.Len(t, blocks, 2)
	assert.Equal(t, int64(1), condensed.Load(), "the first question has no conversation to condense with")
	assert.Contains(t, blocks[1], "searched: "+torontoHotels+"\n")
	assert.Equal(t, "regional-toronto.md", firstSource(t, blocks[1]))
	assert.Contains(t, blocks[1], "Question: "+singaporeHotels+"\n\nThe answer is in the context.", "the earlier turn in the prompt")
}

func TestTurnsFlag(t *testing.T) {
	_, err := parseFlags([]string{"-turns", "-1"}, new(strings.Builder))
	require.ErrorIs(t, err, errUsage)
}
