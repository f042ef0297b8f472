package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// ragkit runs the command with args and stdin, returning its output.
func ragkit(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errs strings.Builder
	err = run(context.Background(), args, strings.NewReader(stdin), &out, &errs)
	return out.String(), errs.String(), err
}

// mixedFolder returns a folder of files of every format read: the test
// documents of package formats and of this command.
func mixedFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{
		"testdata/mixed/notes.md", "testdata/mixed/backup.txt", "testdata/mixed/trains.html",
		"testdata/mixed/tools.csv", "testdata/mixed/rooms.json",
		"../../formats/testdata/handbook.docx", "../../formats/testdata/station.xlsx",
		"../../formats/testdata/budget.xlsx", "../../formats/testdata/html/w3m-faq.html",
		"../../formats/pdf/testdata/table.pdf",
	} {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644))
	}
	// A man page as it is installed: gzipped.
	man, err := os.ReadFile("testdata/mixed/brewctl.1")
	require.NoError(t, err)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, err = zw.Write(man)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "brewctl.1.gz"), gz.Bytes(), 0o644))
	// Files no parser reads: reported, never indexed.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scan.pdf"), []byte("%PDF-1.4\n"), 0o644)) // truncated
	require.NoError(t, os.WriteFile(filepath.Join(dir, "logo.png"), []byte("\x89PNG\r\n\x1a\n...."), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "locked.docx"), []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1E\x00n\x00c\x00r\x00y\x00p\x00t\x00i\x00o\x00n\x00I\x00n\x00f\x00o\x00"), 0o644))
	return dir
}

// TestAskMixedFolder asks one question per format of a mixed folder
// (Markdown, text, HTML, DOCX, XLSX, CSV, JSON and a gzipped man page):
// the file that answers comes first, its answer is in the prompt, and the
// passage's label names the file and, for a table, its sheet or rows.
func TestAskMixedFolder(t *testing.T) {
	dir := mixedFolder(t)
	tests := []struct {
		question, first, inPrompt, label string
	}{
		{"Where is the wifi password written?", "notes.md", "taped inside the pantry door", "(notes.md)"},
		{"How many weeks of snapshots does the backup job keep?", "backup.txt", "twelve weeks", "backup.txt"},
		{"When does the first train to Brennfeld leave the central station?", "trains.html", "05:40", "(trains.html)"},
		{"How do I pronounce w3m?", "w3m-faq.html", "W-three-M", "(w3m-faq.html)"},
		{"Until when does the diesel generator run at night?", "handbook.docx", "until ten at night", "(handbook.docx)"},
		{"Which radio channel does Ilse Brandt use?", "station.xlsx", "| Ilse Brandt | Warden | 4 |", "(station.xlsx, sheet "},
		{"What did the replacement solar panels cost in euros?", "budget.xlsx", "| Replacement solar panels | Energy | Q1 | 4200 | yes |", "(budget.xlsx, sheet budget"},
		{"On which shelf is the torque wrench kept?", "tools.csv", "Shelf: B3", "(tools.csv, rows "},
		{"What is the capacity of the Aurora meeting room?", "rooms.json", "12", "(rooms.json"},
		{"How long does the brewctl descaling cycle take?", "brewctl.1.gz", "takes 25 minutes", "(brewctl.1.gz)"},
		{"Which room on the third floor has a view of the hills?", "table.pdf", "| Room 14 | Third | East, the hills | Miss Lavish |", "(table.pdf, p"}, // the page or pages the passage spans
	}
	for _, tt := range tests {
		t.Run(tt.first, func(t *testing.T) {
			out, errs, err := ragkit(t, "", "ask", "-dir", dir, "-q", tt.question, "-prompt")
			require.NoError(t, err, errs)
			lines := strings.Split(out, "\n")
			header := -1
			for i, l := range lines {
				if strings.HasPrefix(l, "#") && strings.Contains(l, "score") {
					header = i
					break
				}
			}
			require.GreaterOrEqual(t, header, 0, out)
			first := strings.Fields(lines[header+1])
			require.GreaterOrEqual(t, len(first), 4, out)
			require.Equal(t, "1", first[0])
			require.Equal(t, tt.first, first[3], "the first passage's source:\n%s", out)
			start := strings.Index(out, promptStart)
			end := strings.Index(out, promptEnd)
			require.True(t, start >= 0 && end > start, out)
			prompt := out[start:end]
			require.Contains(t, prompt, tt.inPrompt)
			require.Contains(t, prompt, tt.label)
			require.Contains(t, errs, "skipping scan.pdf: cannot parse")
			require.Contains(t, errs, "skipping logo.png: not read: no parser for .png")
			require.Contains(t, errs, "skipping locked.docx: cannot parse: encrypted")
			require.Contains(t, errs, "not read: 3 files: 1 .docx, 1 .pdf, 1 .png")
		})
	}
}

func TestRead(t *testing.T) {
	out, errs, err := ragkit(t, "", "read", "../../formats/testdata/handbook.docx", "testdata/mixed/trains.html", "missing.txt")
	require.NoError(t, err)
	require.Contains(t, out, `<!-- ../../formats/testdata/handbook.docx: "Field Station Handbook", markdown -->`)
	require.Contains(t, out, "## Arrival\n\nVisitors sign the logbook")
	require.Contains(t, out, "| Stop | Weekdays | Sundays |\n| --- | --- | --- |\n| Central | every 20 minutes | hourly |")
	require.NotContains(t, out, "analytics")
	require.Contains(t, errs, "skipping missing.txt: no such file or directory")
	require.Contains(t, errs, "not read: 1 file: 1 .txt")

	out, _, err = ragkit(t, "", "read", "-json", "../../formats/testdata/station.xlsx", "testdata/mixed/notes.md")
	require.NoError(t, err)
	sc := bufio.NewScanner(strings.NewReader(out))
	var docs []jsonDoc
	for sc.Scan() {
		var d jsonDoc
		require.NoError(t, json.Unmarshal(sc.Bytes(), &d), sc.Text())
		docs = append(docs, d)
	}
	require.Len(t, docs, 2)
	require.Equal(t, "Kestrel Ridge station records", docs[0].Title)
	require.Equal(t, "markdown", docs[0].Format)
	require.Equal(t, "../../formats/testdata/station.xlsx", docs[0].Source)
	require.Equal(t, jsonMark{Offset: strings.Index(docs[0].Text, "| 2026-04-03"), Sheet: "Sightings", Row: 1}, docs[0].Marks[1])
	require.Equal(t, "House notes", docs[1].Title)
	require.NotNil(t, docs[1].Metadata)
}

func TestReadCommentCannotEnd(t *testing.T) {
	page := filepath.Join(t.TempDir(), "a.html")
	require.NoError(t, os.WriteFile(page, []byte("<title>x --> y</title><p>text</p>"), 0o644))
	out, _, err := ragkit(t, "", "read", page)
	require.NoError(t, err)
	first, _, _ := strings.Cut(out, "\n")
	require.Equal(t, 1, strings.Count(first, "-->"), first)
	require.True(t, strings.HasSuffix(first, " -->"), first)
}

func TestReadNothingReadable(t *testing.T) {
	pdf := filepath.Join(t.TempDir(), "scan.pdf")
	require.NoError(t, os.WriteFile(pdf, []byte("%PDF-1.4\n"), 0o644))
	_, errs, err := ragkit(t, "", "read", pdf)
	require.ErrorContains(t, err, "no file with text read")
	require.Contains(t, errs, "scan.pdf: cannot parse")
	require.Equal(t, 1, exitCode(err, &strings.Builder{}))
}

// TestReadPDF reads a PDF through formats/pdf: its table as a Markdown
// table, and with -json a mark at the start of each of its three pages.
func TestReadPDF(t *testing.T) {
	const file = "../../formats/pdf/testdata/table.pdf"
	out, errs, err := ragkit(t, "", "read", file)
	require.NoError(t, err, errs)
	require.Contains(t, out, "| Room | Floor | View | Guests |")
	require.Contains(t, out, "| Room 14 | Third | East, the hills | Miss Lavish |")

	out, errs, err = ragkit(t, "", "read", "-json", file)
	require.NoError(t, err, errs)
	var d jsonDoc
	require.NoError(t, json.Unmarshal([]byte(out), &d))
	require.Equal(t, file, d.Source)
	var pages []int
	for _, m := range d.Marks {
		pages = append(pages, m.Page)
	}
	require.Equal(t, []int{1, 2, 3}, pages)
}

func TestChunkAndCount(t *testing.T) {
	out, _, err := ragkit(t, "", "chunk", "-max-tokens", "40", "../../formats/testdata/station.xlsx")
	require.NoError(t, err)
	require.Contains(t, out, "--- ../../formats/testdata/station.xlsx chunk 1: ")
	require.Contains(t, out, "sheet Staff")

	out, _, err = ragkit(t, "one two three", "count")
	require.NoError(t, err)
	require.Equal(t, "3\n", out)

	out, _, err = ragkit(t, "", "count", "-model", "gpt-4o", "testdata/mixed/backup.txt", "testdata/mixed/notes.md")
	require.NoError(t, err)
	require.Contains(t, out, "tokens (gpt-4o)")
	require.Contains(t, out, "testdata/mixed/backup.txt")
	require.Contains(t, out, "total")
}

// TestIndex indexes a folder into a file that a second run reuses.
func TestIndex(t *testing.T) {
	dir := mixedFolder(t)
	file := filepath.Join(t.TempDir(), "mixed.idx")
	out, _, err := ragkit(t, "", "index", "-dir", dir, "-index", file)
	require.NoError(t, err)
	require.Contains(t, out, "11 documents")
	require.FileExists(t, file)
	out, _, err = ragkit(t, "", "index", "-dir", dir, "-index", file)
	require.NoError(t, err)
	require.Contains(t, out, "(0 embedded")

	out, _, err = ragkit(t, "Which radio channel does Ilse Brandt use?\n\n", "ask", "-dir", dir, "-index", file, "-i")
	require.NoError(t, err)
	require.Contains(t, out, "Q1. Which radio channel")
	require.Contains(t, out, "station.xlsx")
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "no command"},
		{[]string{"serve"}, `unknown command "serve"`},
		{[]string{"ask", "-dir", "x"}, "-q QUESTION or -i is required"},
		{[]string{"ask", "-q", "x"}, "-dir is required"},
		{[]string{"ask", "-dir", "x", "-q", "y", "-i"}, "do not go together"},
		{[]string{"index", "-dir", "x"}, "-index is required"},
		{[]string{"read"}, "name at least one file"},
		{[]string{"chunk", "a", "b"}, "name one file"},
		{[]string{"count", "-model", "no-such-model"}, "no-such-model"},
		{[]string{"read", "-no-such-flag"}, "no-such-flag"},
	}
	for _, tt := range tests {
		_, errs, err := ragkit(t, "", tt.args...)
		require.ErrorIs(t, err, errUsage, tt.args)
		require.Contains(t, errs+err.Error(), tt.want)
		require.Equal(t, 2, exitCode(err, &strings.Builder{}))
	}
	_, _, err := ragkit(t, "", "ask", "-h")
	require.True(t, errors.Is(err, flag.ErrHelp))
	require.Equal(t, 0, exitCode(err, &strings.Builder{}))
	out, _, err := ragkit(t, "", "help")
	require.NoError(t, err)
	require.Contains(t, out, "ask -dir DIR -q QUESTION")
}

// TestAskVerbose: -v prints where the retrieval's time went, stage by
// stage, the stages that ran.
func TestAskVerbose(t *testing.T) {
	out, errs, err := ragkit(t, "", "ask", "-dir", "testdata/mixed", "-q", "Where is the wifi password written?", "-v")
	require.NoError(t, err, errs)
	line := regexp.MustCompile(`(?m)^retrieval [0-9.]+[nµm]?s: .*$`).FindString(out)
	require.NotEmpty(t, line, out)
	for _, stage := range []string{"embed", "vector search", "fusion", "widen"} {
		require.Contains(t, line, stage)
	}
	require.NotContains(t, line, "rerank", "no reranker ran")
	out, _, err = ragkit(t, "", "ask", "-dir", "testdata/mixed", "-q", "Where is the wifi password written?")
	require.NoError(t, err)
	require.NotContains(t, out, "retrieval ")
}
