package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runReport(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestReportSmall runs the whole report on its small subset, one
// iteration per measurement, and checks what it wrote (not its figures).
func TestReportSmall(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runReport("-out", dir, "-small", "-benchtime", "1x", "-rounds", "2")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "report: wrote "+dir)

	md := read(t, dir, "report.md")
	for _, want := range []string{
		"# ragkit benchmark report", "- Date: ", "- Machine: ", "- Go: go1.", "-small",
		"## Speed against peer libraries", "### Token counting", "| room_with_a_view.txt, cl100k_base |",
		"tiktoken-go / ragkit", "tiktoken-go/tokenizer / ragkit", "### Sentences", "neurosnap/sentences / ragkit",
		"uniseg / ragkit", "### Words", "### Chunking", "langchaingo recursive / ragkit", "### Vector query",
		"chromem-go / ragkit", "## Chunk sizes", "| room_with_a_view.txt, max 256 |", "| commonmark_spec.md, max 256 |",
		"| recursive baseline |", "## Retrieval", "| reports | balanced-64+headers+summary | 3 |",
		"| room | greedy-256 | 3 |", "| reports | balanced-256+headers | balanced-256 |",
	} {
		assert.Contains(t, md, want)
	}
	assert.Equal(t, 1, strings.Count(md, "### Sentences"), "one table per group")
	assert.NotContains(t, md, "Failed")

	charts := []string{"speed.svg", "sizes-room-with-a-view-256.svg", "sizes-commonmark-spec-256.svg", "retrieval-failures.svg"}
	for _, name := range charts {
		assert.Contains(t, md, "]("+name+")")
		svg := read(t, dir, name)
		assert.Less(t, len(svg), 1<<20, name)
		wellFormed(t, name, svg)
	}
	var results []struct {
		Corpus, Method, Error string
		Questions             int
	}
	require.NoError(t, json.Unmarshal([]byte(read(t, dir, "retrieval.json")), &results))
	assert.Len(t, results, 2*2*11, "2 corpora, 2 sizes, 11 configurations")
	for _, r := range results {
		assert.Equal(t, 3, r.Questions, r.Method)
		assert.Empty(t, r.Error, r.Method)
	}
}

// TestReportSections runs one section, at other sizes.
func TestReportSections(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := runReport("-out", dir, "-small", "-sections", "sizes", "-chunk-sizes", "64,512")
	require.Equal(t, 0, code, errOut)
	md := read(t, dir, "report.md")
	assert.Contains(t, md, "| room_with_a_view.txt, max 64 |")
	assert.Contains(t, md, "| commonmark_spec.md, max 512 |")
	assert.NotContains(t, md, "## Speed")
	assert.NotContains(t, md, "## Retrieval")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1+4, "report.md and four charts")
}

func TestReportBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-sections", "speed,nope"},
		{"-sections", ""},
		{"-rounds", "0"},
		{"-sizes", "0"},
		{"-sizes", "x"},
		{"-chunk-sizes", ""},
		{"-benchtime", "soon"},
		{"-out", ""},
		{"extra"},
		{"-nosuchflag"},
	} {
		code, _, errOut := runReport(args...)
		assert.Equal(t, 2, code, "%q", args)
		assert.NotEmpty(t, errOut, "%q", args)
	}
}

func read(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	require.NoError(t, err)
	return string(b)
}

func wellFormed(t *testing.T, name, doc string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		require.NoError(t, err, name)
	}
}
