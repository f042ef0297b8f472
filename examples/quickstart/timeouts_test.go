package main

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A chat model that never summarises is not blamed on the embedding
// model: the summaries fall back to the offline ones and the embeddings
// go on. Before: one limiter for both, so after the chat model's timeout
// every embedding request failed at once with its error, and the run
// failed with "embedding failed: ... request timed out".
func TestChatTimeoutSparesEmbeddings(t *testing.T) {
	srv := fakeOpenAIWith(t, func(w http.ResponseWriter, r *http.Request, body string) bool {
		if r.URL.Path != "/v1/chat/completions" || strings.Contains(body, `"stream":true`) {
			return false
		}
		<-r.Context().Done() // summaries hang
		return true
	})
	out, errOut := runQuickstart(t, modelArgs(srv, "-timeout", "300ms", "-q", "What is the meal allowance?")...)
	assert.Contains(t, out, "answer (fake-chat)")
	assert.Regexp(t, `warning: fake-chat could not summarise .*no reply from fake-chat within -timeout 300ms`, errOut)
	assert.NotContains(t, errOut, "embedding failed")
	assert.Contains(t, errOut, "indexed 10 of 10 documents")
}

// The progress line counts failed documents apart, and a line written
// while it is drawn (a retry warning) starts on a line of its own.
// Before: "indexed 10 of 10 documents" above "10 documents failed", and
// warnings written onto the end of the \r progress line.
func TestProgressLine(t *testing.T) {
	srv := fakeOpenAIWith(t, func(w http.ResponseWriter, r *http.Request, _ string) bool {
		if r.URL.Path != "/v1/embeddings" {
			return false
		}
		http.Error(w, `{"error":{"message":"busy","type":"server_error"}}`, http.StatusServiceUnavailable)
		return true
	})
	err, errOut := runFailing(t, modelArgs(srv, "-q", "x")...)
	require.Error(t, err)
	for _, line := range strings.Split(errOut, "\n") {
		frames := strings.Split(line, "\r")
		for _, f := range frames[1:] {
			assert.Regexp(t, `^(summarised \d+ of 10 documents with fake-chat, )?indexed \d+ of 10 documents, \d+ chunks embedded(, \d+ failed)?$`, f, "a progress frame holds progress only: %q", line)
			assert.NotContains(t, f, "indexed 10 of 10", "no document was indexed")
		}
	}
	assert.Regexp(t, `(?m)^level=WARN msg="openai: retrying" path=embeddings`, errOut)
	assert.Regexp(t, `(?m)indexed 0 of 10 documents, 0 chunks embedded, 10 failed$`, errOut)
	assert.True(t, regexp.MustCompile(`(?m)^level=WARN`).MatchString(errOut))
}
