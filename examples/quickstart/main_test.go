package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/examples/quickstart/corpus"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/tokencount"
)

// runQuickstart runs the program as main does and returns what it printed.
func runQuickstart(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, &out, &errOut)
	require.NoError(t, err, "stderr:\n%s", errOut.String())
	return out.String(), errOut.String()
}

// questionBlocks cuts the output into the blocks of its questions, from
// "Q<n>." to the next.
func questionBlocks(out string) []string {
	parts := regexp.MustCompile(`(?m)^Q\d+\. `).Split(out, -1)
	return parts[1:]
}

// firstSource returns the source document of a block's first segment.
func firstSource(t *testing.T, block string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^1 +[0-9.]+ +[0-9.]+ +(\S+)`).FindStringSubmatch(block)
	require.NotNil(t, m, "no first hit in:\n%s", block)
	return m[1]
}

func TestBuiltinQuestions(t *testing.T) {
	out, _ := runQuickstart(t)
	assert.Contains(t, out, "10 documents from the embedded corpus, chunks of at most 48 tokens")

	blocks := questionBlocks(out)
	want := []string{"regional-singapore.md", "regional-toronto.md", "report-2026-q2.md", "expenses-policy.md", "plan-fieldsense-2027.md"}
	require.Len(t, blocks, len(builtinQuestions))
	for i, b := range blocks {
		assert.True(t, strings.HasPrefix(b, builtinQuestions[i]), "block %d asks %q", i+1, b[:40])
		assert.Equal(t, want[i], firstSource(t, b), "best source for %q", builtinQuestions[i])
		assert.Regexp(t, `(?m)^context +\| +\d+ \| +300 \|`, b, "the context section's budget is -budget")
	}
}

// The documents table: one row per corpus file with its chunk count and
// token range, and a total row that adds them up.
func TestDocumentTable(t *testing.T) {
	out, _ := runQuickstart(t)
	entries, err := corpus.FS.ReadDir(".")
	require.NoError(t, err)
	row := regexp.MustCompile(`(?m)^(\S+) +(\d+) +(\d+)-(\d+)$`)
	rows := row.FindAllStringSubmatch(out, -1)
	require.Len(t, rows, len(entries)+1)
	sum := 0
	for i, e := range entries {
		assert.Equal(t, e.Name(), rows[i][1])
		n, _ := strconv.Atoi(rows[i][2])
		lo, _ := strconv.Atoi(rows[i][3])
		hi, _ := strconv.Atoi(rows[i][4])
		assert.Positive(t, n)
		assert.LessOrEqual(t, lo, hi)
		assert.LessOrEqual(t, hi, 48, "no chunk over -max-tokens")
		sum += n
	}
	total := rows[len(rows)-1]
	assert.Equal(t, "total", total[1])
	assert.Equal(t, strconv.Itoa(sum), total[2])
}

// The budget report's total is the tokenizer's exact count of the prompt
// printed with -prompt, and within the context budget.
func TestBudgetTotalsExact(t *testing.T) {
	out, _ := runQuickstart(t, "-prompt", "-budget", "150")
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	blocks := questionBlocks(out)
	require.Len(t, blocks, len(builtinQuestions))
	dropped := 0
	for _, b := range blocks {
		start := strings.Index(b, promptStart+"\n")
		end := strings.Index(b, "\n"+promptEnd)
		require.True(t, start >= 0 && end > start, "no prompt in:\n%s", b)
		prompt := b[start+len(promptStart)+1 : end]

		total := regexp.MustCompile(`(?m)^total +\| +(\d+) \| +7168 \|`).FindStringSubmatch(b)
		require.NotNil(t, total, "no total row in:\n%s", b)
		assert.Equal(t, strconv.Itoa(tok.Count(prompt)), total[1])
		assert.Contains(t, b, "prompt: "+total[1]+" tokens")

		ctx := regexp.MustCompile(`(?m)^context +\| +(\d+) \| +150 \|.*\| (.*)$`).FindStringSubmatch(b)
		require.NotNil(t, ctx, "no context row in:\n%s", b)
		n, _ := strconv.Atoi(ctx[1])
		assert.LessOrEqual(t, n, 150)
		if strings.Contains(ctx[2], "dropped") {
			dropped++
		}
	}
	assert.Positive(t, dropped, "a budget of 150 tokens drops some of four chunks of about 90")
}

func TestDeterministic(t *testing.T) {
	a, _ := runQuickstart(t)
	b, _ := runQuickstart(t)
	assert.Equal(t, a, b)
}

func TestQuestionFlag(t *testing.T) {
	out, _ := runQuickstart(t, "-q", "What is the hotel limit in New York?", "-k", "2")
	blocks := questionBlocks(out)
	require.Len(t, blocks, 1)
	assert.Equal(t, "regional-toronto.md", firstSource(t, blocks[0]))
	assert.NotRegexp(t, `(?m)^3 `, blocks[0], "-k 2 retrieves two chunks, at most two windows")
}

func TestInteractive(t *testing.T) {
	stdin = strings.NewReader("When do the flow benches move?\nWho owns the travel policy?\n")
	t.Cleanup(func() { stdin = os.Stdin })
	out, _ := runQuickstart(t, "-i")
	blocks := questionBlocks(out)
	require.Len(t, blocks, 2)
	assert.Equal(t, "plan-lab-relocation.md", firstSource(t, blocks[0]))
}

// TestInteractiveLongLine: a question over the limit is skipped with a
// warning and the questions after it are answered (a bufio.Scanner
// stopped the loop at a line over 64 KB, issue 24).
func TestInteractiveLongLine(t *testing.T) {
	stdin = strings.NewReader(strings.Repeat("travel ", 20000) + "\nWhen do the flow benches move?\nno newline at the end")
	t.Cleanup(func() { stdin = os.Stdin })
	out, errOut := runQuickstart(t, "-i")
	blocks := questionBlocks(out)
	require.Len(t, blocks, 2)
	assert.Equal(t, "plan-lab-relocation.md", firstSource(t, blocks[0]))
	assert.Contains(t, errOut, "skipping a question of more than 64 KiB")
}

// writeFiles writes files (name to content) under a new directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return dir
}

func TestDir(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"notes/garden.md": "# Garden notes\n\n## Roses\n\nThe roses are pruned in March, just above an outward bud.\n\n## Tomatoes\n\nTomatoes are planted out in late May, after the last frost.\n",
		"kitchen.txt":     "Bread is proved for two hours in a warm place before it is baked.\n",
		"skip.bin":        "not read",
		"empty.md":        "  \n",
	})
	out, errOut := runQuickstart(t, "-dir", dir, "-q", "When are tomatoes planted out?")
	assert.Contains(t, out, "2 documents from "+dir)
	assert.Regexp(t, `(?m)^kitchen\.txt +1 `, out)
	assert.Regexp(t, `(?m)^notes/garden\.md +1 `, out)
	assert.Contains(t, errOut, "skipping empty.md")
	assert.Equal(t, "notes/garden.md", firstSource(t, questionBlocks(out)[0]))

	var sink bytes.Buffer
	err := run(context.Background(), []string{"-dir", t.TempDir()}, &sink, &sink)
	require.Error(t, err, "a folder without documents")
}

// -index saves the index, reuses it while the inputs are unchanged, embeds
// again only what changed, and rebuilds it when the file is damaged.
func TestIndexFile(t *testing.T) {
	beta := "# Beta\n\nThe beta pump runs at night. It is serviced every spring by the maintenance team. " +
		"Its filters are changed every month. Spare seals are kept in the store room."
	dir := writeFiles(t, map[string]string{"a.md": "# Alpha\n\nThe alpha valve opens at four bar.\n", "b.md": beta})
	file := filepath.Join(t.TempDir(), "quickstart.idx")
	args := []string{"-dir", dir, "-index", file, "-q", "When does the pump run?"}

	out1, err1 := runQuickstart(t, args...)
	assert.Contains(t, err1, "index: building "+file)
	require.FileExists(t, file)

	out2, err2 := runQuickstart(t, args...)
	assert.Contains(t, err2, "index: reusing "+file+" (inputs unchanged)")
	assert.Equal(t, out1, out2)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.md"), []byte(strings.Replace(beta, "at night", "in the morning", 1)), 0o644))
	out3, err3 := runQuickstart(t, args...)
	assert.Contains(t, err3, "index: updating "+file+" (1 chunks embedded, 1 reused, 0 documents removed)")
	assert.Contains(t, out3, "in the morning")

	_, err4 := runQuickstart(t, append(args, "-max-tokens", "16")...)
	assert.Contains(t, err4, "index: updating "+file, "another chunk size")

	require.NoError(t, os.Remove(filepath.Join(dir, "a.md")))
	out5, err5 := runQuickstart(t, args...)
	assert.Contains(t, err5, "1 documents removed")
	assert.Contains(t, out5, "1 documents from "+dir)

	require.NoError(t, os.WriteFile(file, []byte("not an index"), 0o644))
	_, err6 := runQuickstart(t, args...)
	assert.Contains(t, err6, "index: rebuilding "+file, "a damaged file")
}

// fakeServer is a fake OpenAI-compatible API that counts its requests.
type fakeServer struct {
	*httptest.Server
	calls atomic.Int64
}

// fakeOpenAI serves the embeddings and streaming chat endpoints of an
// OpenAI-compatible API: embeddings hash words into a few dimensions, and
// the chat answer streams in two pieces.
func fakeOpenAI(t *testing.T) *fakeServer { return fakeOpenAIWith(t, nil) }

// fakeOpenAIWith is fakeOpenAI with intercept given each request first,
// with its body: it answers the requests it wants to fault, and returns
// true for them.
func fakeOpenAIWith(t *testing.T, intercept func(w http.ResponseWriter, r *http.Request, body string) bool) *fakeServer {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/embeddings", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&req))
		type datum struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var resp struct {
			Data []datum `json:"data"`
		}
		for i, text := range req.Input {
			v := make([]float32, 16)
			for _, w := range strings.Fields(strings.ToLower(text)) {
				v[len(w)%16]++
			}
			resp.Data = append(resp.Data, datum{Index: i, Embedding: v})
		}
		require.NoError(t, json.NewEncoder(w).Encode(resp))
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Stream   bool `json:"stream"`
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&req))
		if !req.Stream { // a summary
			fmt.Fprint(w, `{"choices":[{"message":{"role":"assistant","content":"A summary."},"finish_reason":"stop"}]}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, piece := range []string{"The answer ", "is in the context."} {
			fmt.Fprintf(w, "data: {\"choices\":[{\"delta\":{\"content\":%q}}]}\n\n", piece)
		}
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	})
	srv := &fakeServer{}
	srv.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		srv.calls.Add(1)
		body, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		if intercept != nil && intercept(w, r, string(body)) {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A model through the adapter: summaries for the headers, embeddings, and
// the answer streamed; an index saved with the offline embedder (vectors of
// another length) is rebuilt.
func TestOpenAI(t *testing.T) {
	srv := fakeOpenAI(t)
	file := filepath.Join(t.TempDir(), "quickstart.idx")
	runQuickstart(t, "-index", file, "-q", "What is the daily meal allowance in Toronto?")
	out, errOut := runQuickstart(t, "-openai-base-url", srv.URL+"/v1", "-model", "fake-chat", "-embed-model", "fake-embed",
		"-index", file, "-q", "What is the daily meal allowance in Toronto?")
	assert.Contains(t, errOut, "index: rebuilding "+file+" (made with another embedder)")
	assert.Contains(t, out, "openai:fake-chat summary; embedder openai:fake-embed")
	assert.Contains(t, out, "\nanswer (fake-chat):\nThe answer is in the context.\n")
	assert.Contains(t, errOut, "asking fake-chat")
	assert.Contains(t, errOut, "summarised 10 of 10 documents with fake-chat")

	// The second run finds the summaries and the vectors saved.
	calls := srv.calls.Load()
	out2, errOut2 := runQuickstart(t, "-openai-base-url", srv.URL+"/v1", "-model", "fake-chat", "-embed-model", "fake-embed",
		"-index", file, "-q", "What is the daily meal allowance in Toronto?")
	assert.Equal(t, out, out2)
	assert.Contains(t, errOut2, "index: reusing "+file)
	assert.Equal(t, calls+2, srv.calls.Load(), "one call to embed the question, one to answer it")
}

var update = flag.Bool("update", false, "rewrite the README's excerpt of the output")

// The README's excerpt of the quickstart's output (its first question) is
// real: a change to the output that is not made to the README fails here.
// A line "..." in the excerpt stands for lines left out: the pieces
// around it appear in the output in order. go test ./examples/quickstart
// -run ReadmeExcerpt -update rewrites the excerpt whole.
func TestReadmeExcerpt(t *testing.T) {
	const path = "../../README.md"
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	readme := string(b)
	_, try, found := strings.Cut(readme, "\n## Try it\n")
	require.True(t, found, `README.md has no "## Try it" section`)
	_, excerpt, found := strings.Cut(try, "```text\n")
	require.True(t, found, "no text block in Try it")
	excerpt, _, found = strings.Cut(excerpt, "```\n")
	require.True(t, found)

	out, _ := runQuickstart(t)
	if *update {
		start := strings.Index(out, "Q1. ")
		end := start + regexp.MustCompile(`(?m)^total .*\n`).FindStringIndex(out[start:])[1]
		readme = strings.Replace(readme, "```text\n"+excerpt, "```text\n"+out[start:end], 1)
		require.NoError(t, os.WriteFile(path, []byte(readme), 0o644))
		return
	}
	rest := out
	for _, piece := range strings.Split(excerpt, "...\n") {
		i := strings.Index(rest, piece)
		require.GreaterOrEqual(t, i, 0, "the README's excerpt has %q, which the output does not have (in this order):\n%s", piece, out)
		rest = rest[i+len(piece):]
	}
}

// The embedded corpus indexes in an instant: no progress on stderr.
func TestQuietByDefault(t *testing.T) {
	_, errOut := runQuickstart(t)
	assert.Empty(t, errOut)
}

// -h prints the usage, with where the key comes from, and exits 0; bad
// flags print the error and the usage and exit 2.
func TestHelpAndUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"-h"}, &out, &errOut)
	require.ErrorIs(t, err, flag.ErrHelp)
	assert.Equal(t, 0, exitCode(err, &errOut))
	assert.Empty(t, out.String())
	for _, s := range []string{"usage: quickstart", "-api-key", "$OPENAI_API_KEY, sent to whatever server", "-timeout", "-summary-fallback", "-embed-max-tokens", "-max-file-mib"} {
		assert.Contains(t, errOut.String(), s)
	}

	var sink bytes.Buffer
	assert.Equal(t, 1, exitCode(errors.New("no model"), &sink))
	assert.Equal(t, "quickstart: no model\n", sink.String())
	assert.Equal(t, 0, exitCode(nil, &sink))
}

func TestFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-max-tokens", "8"},
		{"-budget", "0"},
		{"-k", "-1"},
		{"-timeout", "0s"},
		{"-max-file-mib", "0"},
		{"-embed-max-tokens", "-1"},
		{"-openai-base-url", "http://localhost:1/v1"},
		{"-q", "a", "-i"},
		{"stray"},
		{"-no-such-flag"},
		{"-timeout", "soon"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), args, &out, &errOut)
			require.ErrorIs(t, err, errUsage)
			assert.Empty(t, out.String())
			assert.Contains(t, errOut.String(), "usage: quickstart")
			first, rest, _ := strings.Cut(errOut.String(), "\n")
			assert.Contains(t, first, strings.TrimPrefix(args[0], "-"), "the error first, naming the flag or argument")
			assert.True(t, strings.HasPrefix(rest, "usage: quickstart"), "then the usage:\n%s", errOut.String())
			var sink bytes.Buffer
			assert.Equal(t, 2, exitCode(err, &sink))
			assert.Empty(t, sink.String(), "printed already")
		})
	}
}

// A folder as users have them: links that dangle or loop, controls, invalid
// bytes, a huge file, hidden and dependency folders. The run goes on, says
// what it left out before any work, and prints no control character.
func TestDirMessy(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"notes/garden.md":         "# Garden notes\n\n## Tomatoes\n\nTomatoes are planted out in late May, after the last frost.\n",
		"kitchen.txt":             "Bread is proved\x01 for two hours\x1b[31m in a warm place before it is baked.\n",
		"latin1.txt":              "The caf\xe9 opens at seven in the morning on weekdays.\n",
		".obsidian/cache.md":      "# Cache\n",
		"node_modules/pkg/doc.md": "# A dependency\n",
	})
	huge, err := os.Create(filepath.Join(dir, "huge.txt"))
	require.NoError(t, err)
	require.NoError(t, huge.Truncate(20<<20))
	require.NoError(t, huge.Close())
	for link, target := range map[string]string{"dangling.md": "gone.md", "loop": ".", "self.md": "self.md"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	out, errOut := runQuickstart(t, "-dir", dir, "-q", "When are tomatoes planted out?")
	assert.Contains(t, out, "3 documents from "+dir)
	assert.Regexp(t, `(?m)^latin1\.txt +1 `, out)
	assert.NotRegexp(t, "[\x00-\x08\x0b-\x1f\x7f]", out)
	assert.Equal(t, "notes/garden.md", firstSource(t, questionBlocks(out)[0]))
	for _, want := range []string{
		"skipping .obsidian: left out: hidden (Config.Hidden)\n",
		"skipping dangling.md: cannot read: a dangling link: file does not exist\n",
		"skipping huge.txt: file too large: 20971520 bytes, the limit is 10485760 (Config.MaxBytes)\n",
		"skipping loop: cannot read: a link loop: it leads to a folder that encloses it\n",
		"skipping node_modules: left out: a dependency or build folder (Config.SkipDirs)\n",
		"skipping self.md: cannot read: a link loop: a chain of links that never ends\n",
		"cleaned kitchen.txt: removed 2 control characters\n",
		"cleaned latin1.txt: replaced 1 byte of invalid UTF-8 with U+FFFD\n",
	} {
		assert.Contains(t, errOut, want)
	}
	first, _, _ := strings.Cut(errOut, "indexed")
	assert.Contains(t, first, "huge.txt", "the huge file is reported before the work starts")

	_, errOut = runQuickstart(t, "-dir", dir, "-max-file-mib", "21", "-q", "When are tomatoes planted out?")
	assert.Contains(t, errOut, "skipping huge.txt: not read: binary\n", "a larger limit reads it: 20 MiB of NULs, not text")
}

func TestDirMissing(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nonexistent")
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"-dir", missing}, &out, &errOut)
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), missing+": no such file or directory")
	assert.Equal(t, 1, exitCode(err, &errOut))
}

// modelArgs are the flags of a run with the fake server's models.
func modelArgs(srv *fakeServer, more ...string) []string {
	return append([]string{"-openai-base-url", srv.URL + "/v1", "-model", "fake-chat", "-embed-model", "fake-embed"}, more...)
}

// runFailing runs the program and returns its error and what it printed
// on stderr.
func runFailing(t *testing.T, args ...string) (error, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, &out, &errOut)
	require.Error(t, err, "stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	return err, errOut.String()
}

// A server that never answers: the run fails after -timeout, not after
// minutes, with an error that says so. Before: 2 minutes per attempt,
// three attempts, in silence.
func TestTimeoutHungServer(t *testing.T) {
	srv := fakeOpenAIWith(t, func(w http.ResponseWriter, r *http.Request, _ string) bool {
		<-r.Context().Done() // hangs until the client gives up
		return true
	})
	err, _ := runFailing(t, "-openai-base-url", srv.URL+"/v1", "-embed-model", "fake-embed", "-timeout", "300ms", "-q", "x")
	require.ErrorIs(t, err, openai.ErrTimeout)
	assert.Contains(t, err.Error(), "no reply from fake-embed within -timeout 300ms, retries included")
	assert.Equal(t, int64(1), srv.calls.Load(), "no retry after the deadline, and the second batch does not wait again")
}

// A streamed answer that starts and then goes quiet fails after -timeout.
func TestTimeoutQuietStream(t *testing.T) {
	srv := fakeOpenAIWith(t, func(w http.ResponseWriter, r *http.Request, body string) bool {
		if !strings.Contains(body, `"stream":true`) {
			return false
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"The answer \"}}]}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		return true
	})
	err, _ := runFailing(t, modelArgs(srv, "-timeout", "300ms", "-q", "What is the meal allowance?")...)
	require.ErrorIs(t, err, openai.ErrTimeout)
	// The pause is bounded by -timeout, not the client's 30 s default.
	// Before: "no data for 30s", after 30 s.
	assert.Contains(t, err.Error(), "no data for 300ms")
}

// The key comes from -api-key, or else from $OPENAI_API_KEY, whatever the
// base URL; it is never printed. Before: a base URL given by flag got no
// key (401).
func TestAPIKey(t *testing.T) {
	var auth atomic.Value
	srv := fakeOpenAIWith(t, func(w http.ResponseWriter, r *http.Request, _ string) bool {
		auth.Store(r.Header.Get("Authorization"))
		return false
	})
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	out, errOut := runQuickstart(t, "-openai-base-url", srv.URL+"/v1", "-embed-model", "fake-embed", "-q", "x")
	assert.Equal(t, "Bearer sk-from-env", auth.Load())
	assert.NotContains(t, out+errOut, "sk-from-env")

	out, errOut = runQuickstart(t, "-openai-base-url", srv.URL+"/v1", "-embed-model", "fake-embed", "-api-key", "sk-from-flag", "-q", "x")
	assert.Equal(t, "Bearer sk-from-flag", auth.Load())
	assert.NotContains(t, out+errOut, "sk-from-flag")
}

// Retries are reported on stderr as they happen. Before: not at all.
func TestRetriesLogged(t *testing.T) {
	var failed atomic.Bool
	srv := fakeOpenAIWith(t, func(w http.ResponseWriter, r *http.Request, _ string) bool {
		if failed.CompareAndSwap(false, true) {
			http.Error(w, `{"error":{"message":"busy","type":"server_error"}}`, http.StatusServiceUnavailable)
			return true
		}
		return false
	})
	_, errOut := runQuickstart(t, "-openai-base-url", srv.URL+"/v1", "-embed-model", "fake-embed", "-q", "x")
	assert.Regexp(t, `level=WARN msg="openai: retrying" path=embeddings attempt=1 wait=\S+ error=.*503`, errOut)
}

// A chunk size that cannot fit the embedding model's input limit is
// refused before any request, naming the flags; one that fits runs, even
// with chunks near it. Before: -max-tokens 1400 failed deep inside with
// "2054 tokens (estimated), the limit is 2048".
func TestChunkSizeAgainstEmbedLimit(t *testing.T) {
	srv := fakeOpenAI(t)
	err, _ := runFailing(t, modelArgs(srv, "-max-tokens", "1500")...)
	assert.EqualError(t, err, "-max-tokens 1500 does not fit -embed-max-tokens 2048: a chunk, its header (up to 64 tokens) "+
		"and a margin for the embedding model's own tokenizer leave room for chunks of at most 1469 tokens; "+
		"lower -max-tokens to 1469 or less, or raise -embed-max-tokens if the model takes more")
	assert.Zero(t, srv.calls.Load(), "no request before the check")

	err, _ = runFailing(t, modelArgs(srv, "-embed-max-tokens", "80")...)
	assert.Contains(t, err.Error(), "-embed-max-tokens 80 leaves no room for a chunk")

	// One chunk of about 1,390 tokens of notes with typographic quotes
	// and dashes, which the adapter's estimate (the quickstart's old
	// setup: no tokenizer, MaxTextTokens 2048) refuses even without a
	// header.
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	text := "# Station log\n\n"
	for i := 0; tok.Count(text) < 1380; i++ {
		text += fmt.Sprintf("“Pump %d” — serviced in spring — runs at night… ", i)
	}
	client, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1"})
	require.NoError(t, err)
	old, err := openai.NewEmbedder(openai.EmbedderConfig{Client: client, Model: "m", MaxTextTokens: 2048})
	require.NoError(t, err)
	_, err = old.Embed(context.Background(), []string{text})
	require.ErrorIs(t, err, openai.ErrTextTooLong, "the old setup fails on this text")

	dir := writeFiles(t, map[string]string{"log.md": text})
	out, _ := runQuickstart(t, modelArgs(srv, "-dir", dir, "-max-tokens", "1400", "-q", "When is the pump serviced?")...)
	m := regexp.MustCompile(`(?m)^log\.md +1 +(\d+)-\d+$`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	n, _ := strconv.Atoi(m[1])
	assert.GreaterOrEqual(t, n, 1380, "one chunk near the limit, embedded with its header")
}

// A summary the model fails falls back to the offline one, with a
// warning; -summary-fallback=false fails the run. Before: one failed
// summary failed the run.
func TestSummaryFallback(t *testing.T) {
	srv := fakeOpenAIWith(t, func(w http.ResponseWriter, r *http.Request, body string) bool {
		if strings.Contains(body, `"stream":true`) || !strings.Contains(body, "Regional Rules: Toronto Office") || r.URL.Path != "/v1/chat/completions" {
			return false
		}
		http.Error(w, `{"error":{"message":"the model is confused","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return true
	})
	out, errOut := runQuickstart(t, modelArgs(srv, "-q", "What does the Toronto office pay per kilometre?")...)
	assert.Regexp(t, `(?m)warning: fake-chat could not summarise the document that starts "# Regional Rules: Toronto Office Supplement", using the offline extractive summary: .*the model is confused`, errOut)
	assert.Equal(t, 1, strings.Count(errOut, "warning:"), "the other documents were summarised")
	assert.Contains(t, out, "answer (fake-chat)")

	err, _ := runFailing(t, modelArgs(srv, "-summary-fallback=false", "-q", "x")...)
	assert.ErrorContains(t, err, "the model is confused")
}
