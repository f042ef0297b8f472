package loader_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/loader"
)

// loadOne loads one file with the default parsers and returns its
// document, or the reason it was skipped.
func loadOne(t testing.TB, name, data string) (document.Document, error) {
	t.Helper()
	r, err := loader.FS(context.Background(), fstest.MapFS{name: {Data: []byte(data)}}, loader.Config{})
	require.NoError(t, err)
	if len(r.Skipped) > 0 {
		return document.Document{}, r.Skipped[0].Reason
	}
	require.Len(t, r.Documents, 1)
	return r.Documents[0], nil
}

func TestDefaultParsers(t *testing.T) {
	for _, tt := range []struct {
		name, file, data string
		text, title      string
		format           document.Format
		meta             map[string]string
		marks            []document.Mark
	}{
		{
			name: "YAML front matter", file: "godebug.md",
			data:  "---\ntitle: Go, Backwards Compatibility, and GODEBUG\nlayout: article\ntags: [go, compat]\nauthors:\n  - Russ Cox\n  - Austin Clements\n---\n\n## Introduction\n\nGo's emphasis on backwards compatibility.\n",
			text:  "\n## Introduction\n\nGo's emphasis on backwards compatibility.\n",
			title: "Go, Backwards Compatibility, and GODEBUG", format: document.Markdown,
			meta:  map[string]string{"layout": "article", "tags": "go, compat", "authors": "Russ Cox, Austin Clements"},
			marks: []document.Mark{{Offset: 0, Line: 9}},
		},
		{
			name: "TOML front matter", file: "post.md",
			data:  "+++\ntitle = \"Release notes\"\ndate = 2024-02-06\n[params]\nauthor = 'Ann'\n+++\n# Changes\n",
			text:  "# Changes\n",
			title: "Release notes", format: document.Markdown,
			meta:  map[string]string{"date": "2024-02-06", "params.author": "Ann"},
			marks: []document.Mark{{Offset: 0, Line: 7}},
		},
		{
			name: "a rule is no front matter", file: "rule.md",
			data: "---\n\nText after a rule.\n", text: "---\n\nText after a rule.\n", title: "rule", format: document.Markdown,
		},
		{
			name: "CSV with a key column", file: "prices.csv",
			data:  "sku,name,price\nA-1,Valve,12.50\nB-2,\"Pump, large\",\n",
			text:  "## sku: A-1\n\nsku: A-1\nname: Valve\nprice: 12.50\n\n## sku: B-2\n\nsku: B-2\nname: Pump, large\n",
			title: "prices", format: document.Markdown,
			marks: []document.Mark{{Offset: 0, Row: 1, Line: 2}, {Offset: 48, Row: 2, Line: 3}},
		},
		{
			name: "CSV without a key column", file: "log.csv",
			data:  "day;event\nmon;open\nmon;close\n",
			text:  "## Row 1\n\nday: mon\nevent: open\n\n## Row 2\n\nday: mon\nevent: close\n",
			title: "log", format: document.Markdown,
			marks: []document.Mark{{Offset: 0, Row: 1, Line: 2}, {Offset: 32, Row: 2, Line: 3}},
		},
		{
			name: "TSV", file: "t.tsv", data: "a\tb\n1\tx y\n",
			text: "## a: 1\n\na: 1\nb: x y\n", title: "t", format: document.Markdown,
			marks: []document.Mark{{Offset: 0, Row: 1, Line: 2}},
		},
		{
			name: "JSON object", file: "config.json",
			data:  "{\n  \"name\": \"ragkit\",\n  \"version\": 2,\n  \"server\": {\"host\": \"localhost\", \"ports\": [8080, 8081]},\n  \"debug\": false\n}\n",
			text:  "name: ragkit\nversion: 2\ndebug: false\n\n## server\n\nserver.host: localhost\nserver.ports[0]: 8080\nserver.ports[1]: 8081\n",
			title: "ragkit", format: document.Markdown,
			marks: []document.Mark{{Offset: 0, Line: 1}, {Offset: 38, Line: 4}},
		},
		{
			name: "JSON array of objects", file: "people.json",
			data:  "[\n {\"id\": 7, \"name\": \"Ann\", \"tags\": [\"a\"]},\n {\"id\": 9, \"name\": \"Bo\\nB\"}\n]\n",
			text:  "## id: 7\n\nid: 7\nname: Ann\ntags[0]: a\n\n## id: 9\n\nid: 9\nname: Bo B\n",
			title: "people", format: document.Markdown,
			marks: []document.Mark{{Offset: 0, Row: 1, Line: 2}, {Offset: 38, Row: 2, Line: 3}},
		},
		{
			name: "JSON object with arrays", file: "inventory.json",
			data:  "{\"title\": \"Inventory\",\n \"items\": [\n  {\"id\": \"a\", \"qty\": 1},\n  {\"id\": \"b\"}\n ],\n \"tags\": [\"x\", [1]]}\n",
			text:  "title: Inventory\n\n## items\n\n### id: a\n\nid: a\nqty: 1\n\n### id: b\n\nid: b\n\n## tags\n\ntags[0]: x\ntags[1][0]: 1\n",
			title: "Inventory", format: document.Markdown,
			marks: []document.Mark{{Offset: 0, Line: 1}, {Offset: 18, Line: 2}, {Offset: 28, Row: 1, Line: 3}, {Offset: 53, Row: 2, Line: 4}, {Offset: 71, Line: 6}},
		},
		{
			name: "JSON Lines", file: "events.jsonl",
			data:  "{\"event\": \"start\", \"at\": 1}\n\n{\"event\": \"stop\", \"at\": null}\n",
			text:  "## Row 1\n\nevent: start\nat: 1\n\n## Row 2\n\nevent: stop\nat: null\n",
			title: "events", format: document.Markdown,
			marks: []document.Mark{{Offset: 0, Row: 1, Line: 1}, {Offset: 30, Row: 2, Line: 3}},
		},
		{
			name: "no extension is plain text", file: "README", data: "HELLO\n\nWorld.\n",
			text: "HELLO\n\nWorld.\n", title: "HELLO", format: document.Text,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := loadOne(t, tt.file, tt.data)
			require.NoError(t, err)
			assert.Equal(t, tt.text, d.Text)
			assert.Equal(t, tt.title, d.Title)
			assert.Equal(t, tt.format, d.Format)
			for k, v := range tt.meta {
				assert.Equal(t, v, d.Metadata[k], k)
			}
			assert.Equal(t, tt.marks, d.Marks)
		})
	}
}

func TestDefaultParsersBadInput(t *testing.T) {
	for _, tt := range []struct {
		name, file, data string
		want             reason
	}{
		{"100,000-deep JSON", "deep.json", strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000), reason{loader.ErrTooLarge, "JSON: over the parser's limit: nested deeper than 512 arrays and objects"}},
		{"100,000-deep JSON object", "deep.json", strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000), reason{loader.ErrTooLarge, "nested deeper than 512"}},
		{"deep JSON Lines", "deep.jsonl", "{}\n" + strings.Repeat("[", 100_000), reason{loader.ErrTooLarge, "line 2"}},
		{"truncated JSON", "cut.json", `{"a": [1, 2`, reason{loader.ErrFormat, "JSON: unexpected end of JSON"}},
		{"two JSON values", "two.json", "{}\n{}\n", reason{loader.ErrFormat, "name the file .jsonl"}},
		{"bad JSON line", "bad.jsonl", "{}\n{oops}\n", reason{loader.ErrFormat, "JSON Lines: line 2: invalid character"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadOne(t, tt.file, tt.data)
			tt.want.check(t, map[string]error{tt.file: err}, tt.file)
		})
	}
}

// A million-row CSV file within MaxBytes loads, one mark a row.
func TestMillionRowCSV(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("n\n")
	for i := range 1_000_000 {
		sb.WriteString(string(rune('a'+i%26)) + "\n")
	}
	d, err := loadOne(t, "big.csv", sb.String())
	require.NoError(t, err)
	assert.Len(t, d.Marks, 1_000_000)
	assert.True(t, strings.HasPrefix(d.Text, "## Row 1\n\nn: a\n"), "the values repeat: no key column")
	assert.Equal(t, document.Location{Row: 999_999, LastRow: 1_000_000, Line: 1_000_000, LastLine: 1_000_001},
		d.Locate(d.Marks[999_998].Offset, len(d.Text)))
}

// Text in an encoding that is not UTF-8 is read with U+FFFD for its bad
// bytes and reported as repaired, or refused; UTF-16, with its byte-order
// mark or its NUL bytes, is binary to every text parser.
func TestWrongEncodings(t *testing.T) {
	latin1 := "name,city\nJos\xe9,M\xfcnchen\n"
	tree := fstest.MapFS{
		"latin1.csv": {Data: []byte(latin1)},
		"utf16.csv":  {Data: []byte("\xff\xfen\x00,\x00c\x00\n\x00")},
		"utf16.json": {Data: []byte("{\x00\"\x00a\x00\"\x00:\x001\x00}\x00")},
		"latin1.1":   {Data: []byte(".SH NAME\ncaf\xe9 \\- a page\n")},
	}
	r, err := loader.FS(context.Background(), tree, loader.Config{})
	require.NoError(t, err)
	assert.Equal(t, []string{"latin1.1", "latin1.csv"}, ids(r.Documents))
	assert.Contains(t, byID(t, r, "latin1.csv").Text, "name: Jos\uFFFD\ncity: M\uFFFDnchen\n")
	assert.Equal(t, "caf\uFFFD - a page", byID(t, r, "latin1.1").Title)
	assert.Equal(t, []loader.Repair{{Path: "latin1.1", InvalidBytes: 2}, {Path: "latin1.csv", InvalidBytes: 3}}, r.Repaired)
	checkReasons(t, r, map[string]reason{
		"utf16.csv":  {loader.ErrUnsupported, "binary"},
		"utf16.json": {loader.ErrUnsupported, "binary"},
	})

	r, err = loader.FS(context.Background(), tree, loader.Config{InvalidUTF8: loader.Refuse})
	require.NoError(t, err)
	assert.Empty(t, r.Documents)
	checkReasons(t, r, map[string]reason{"latin1.csv": {loader.ErrInvalidUTF8, "an invalid byte 0xe9 at offset 13"}})
}
