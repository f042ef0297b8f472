package loader_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/loader"
)

// gz returns text gzipped.
func gz(t testing.TB, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, err := zw.Write([]byte(text))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return b.Bytes()
}

// checkReasons checks the reasons of the files of want and returns
// every reason by path.
func checkReasons(t *testing.T, r *loader.Result, want map[string]reason) map[string]error {
	t.Helper()
	why := reasons(r)
	for path, w := range want {
		w.check(t, why, path)
	}
	return why
}

// A parser made of functions, for the tests.
type fakeParser struct {
	reads loader.Content
	parse func(name string, data []byte) (document.Document, error)
}

func (p fakeParser) Reads(c loader.Content) bool { return c == p.reads }

func (p fakeParser) Parse(_ context.Context, name string, data []byte) (document.Document, error) {
	return p.parse(name, data)
}

// upper reads text files with ASCII letters in upper case, one mark per line, so that a
// test can see which parser read a file and whether marks move.
var upper = fakeParser{reads: loader.ContentText, parse: func(name string, data []byte) (document.Document, error) {
	up := []byte(string(data))
	for i, c := range up {
		if 'a' <= c && c <= 'z' {
			up[i] = c - 'a' + 'A'
		}
	}
	d := document.Document{Text: string(up), Metadata: map[string]string{"parsed-as": name}}
	line := 1
	for off := 0; off < len(data); line++ {
		d.Marks = append(d.Marks, document.Mark{Offset: off, Line: line})
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	return d, nil
}}

// With Include ["*"], a PDF or a DOCX is reported, never read as text,
// whatever its name.
func TestIncludeEverythingReadsNoBinary(t *testing.T) {
	tree := fstest.MapFS{
		"a.md":        {Data: []byte("# A\n")},
		"paper.pdf":   {Data: []byte("%PDF-1.7\n1 0 obj\n")},
		"report.docx": {Data: []byte("PK\x03\x04\x14\x00\x06\x00word/document.xml")},
		"notes.txt":   {Data: []byte("PK\x03\x04\x14\x00\x06\x00word/document.xml")},
		"prog":        {Data: []byte("\x7fELF\x02\x01\x01")},
	}
	r, err := loader.FS(context.Background(), tree, loader.Config{Include: []string{"*"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"a.md"}, ids(r.Documents))
	checkReasons(t, r, map[string]reason{
		"paper.pdf":   {loader.ErrUnsupported, "no parser for .pdf: see github.com/ragkit/ragkit/formats/pdf"},
		"report.docx": {loader.ErrUnsupported, "no parser for .docx: see github.com/ragkit/ragkit/formats"},
		"notes.txt":   {loader.ErrUnsupported, "zip content, which the parser for .txt does not read"},
		"prog":        {loader.ErrUnsupported, "binary"},
	})
	assert.Equal(t, "4 files: 1 without an extension, 1 .docx, 1 .pdf, 1 .txt", r.NotRead.String())
}

func TestParsers(t *testing.T) {
	bomb := gz(t, strings.Repeat("a", 1<<20))
	tree := fstest.MapFS{
		"ls.1.gz":        {Data: gz(t, "line one\nline two\n")},
		"ls.1":           {Data: []byte("plain\n")},
		"notes.md":       {Data: []byte("# Notes\n")},
		"bomb.1.gz":      {Data: bomb},
		"fake.1.gz":      {Data: []byte("not gzip\n")},
		"bad.1.gz":       {Data: []byte("\x1f\x8b\x08\x00broken")},
		"archive.tar.gz": {Data: gz(t, "tar")},
		"image.1":        {Data: []byte("\x89PNG\r\n\x1a\n")},
	}
	cfg := loader.Config{Parsers: map[string]loader.Parser{".1": upper}, MaxBytes: 1 << 19}
	r, err := loader.FS(context.Background(), tree, cfg)
	require.NoError(t, err)
	assert.Equal(t, []string{"ls.1", "ls.1.gz"}, ids(r.Documents), "only the configured parsers read")

	d := byID(t, r, "ls.1.gz")
	assert.Equal(t, "LINE ONE\nLINE TWO\n", d.Text, "decompressed, then parsed")
	assert.Equal(t, "ls.1", d.Metadata["parsed-as"], "by its name without .gz")
	assert.Equal(t, "ls.1.gz", d.Source)
	assert.Equal(t, "ls", d.Title, "no heading: the name, without .gz and its extension")
	assert.Equal(t, []document.Mark{{Offset: 0, Line: 1}, {Offset: 9, Line: 2}}, d.Marks)

	checkReasons(t, r, map[string]reason{
		"notes.md":       {loader.ErrUnsupported, "no parser for .md"},
		"bomb.1.gz":      {loader.ErrTooLarge, "decompresses to more than the limit of 524288 bytes (Config.MaxBytes)"},
		"fake.1.gz":      {loader.ErrFormat, "a .gz name, but text content"},
		"bad.1.gz":       {loader.ErrFormat, "not valid gzip"},
		"archive.tar.gz": {loader.ErrUnsupported, "no parser for .tar (gzipped)"},
		"image.1":        {loader.ErrUnsupported, "binary"},
	})

	defaults := loader.DefaultParsers()
	defaults[".1"] = upper
	r, err = loader.FS(context.Background(), tree, loader.Config{Parsers: defaults})
	require.NoError(t, err)
	assert.Equal(t, []string{"bomb.1.gz", "ls.1", "ls.1.gz", "notes.md"}, ids(r.Documents), "the defaults, extended, and the default limit")
}

// Cleaning a parser's text moves its marks with the bytes they point at.
func TestCleaningMovesMarks(t *testing.T) {
	tree := fstest.MapFS{"a.1": {Data: []byte("a\x01b\nc\xffd\ne\n")}}
	r, err := loader.FS(context.Background(), tree, loader.Config{Parsers: map[string]loader.Parser{".1": upper}})
	require.NoError(t, err)
	d := byID(t, r, "a.1")
	require.Equal(t, "AB\nC\uFFFDD\nE\n", d.Text)
	assert.Equal(t, []document.Mark{{Offset: 0, Line: 1}, {Offset: 3, Line: 2}, {Offset: 9, Line: 3}}, d.Marks)
	assert.Equal(t, document.Location{Line: 2, LastLine: 2}, d.Locate(strings.Index(d.Text, "D"), strings.Index(d.Text, "D")+1))
	assert.Equal(t, []loader.Repair{{Path: "a.1", InvalidBytes: 1, Controls: 1}}, r.Repaired)
}

// A parser's errors are the file's reason; a panic or a foreign error is
// reported as ErrFormat; marks out of order or range are put in order.
func TestParserErrors(t *testing.T) {
	errOwn := errors.New("own")
	parsers := map[string]loader.Parser{
		".panic": fakeParser{reads: loader.ContentText, parse: func(string, []byte) (document.Document, error) { panic("boom") }},
		".own":   fakeParser{reads: loader.ContentText, parse: func(string, []byte) (document.Document, error) { return document.Document{}, errOwn }},
		".scan": fakeParser{reads: loader.ContentPDF, parse: func(string, []byte) (document.Document, error) {
			return document.Document{}, loader.ErrNoText
		}},
		".fmt": fakeParser{reads: loader.ContentText, parse: func(string, []byte) (document.Document, error) {
			return document.Document{Text: "x", Format: 9}, nil
		}},
		".marks": fakeParser{reads: loader.ContentText, parse: func(string, []byte) (document.Document, error) {
			return document.Document{Text: "abc", Title: "T", Marks: []document.Mark{{Offset: 99, Row: 3}, {Offset: -1, Row: 1}, {Offset: 1, Row: 2}}}, nil
		}},
	}
	tree := fstest.MapFS{
		"a.panic": {Data: []byte("x")}, "a.own": {Data: []byte("x")}, "a.scan": {Data: []byte("%PDF-1.4")},
		"a.fmt": {Data: []byte("x")}, "a.marks": {Data: []byte("x")},
	}
	r, err := loader.FS(context.Background(), tree, loader.Config{Parsers: parsers})
	require.NoError(t, err)
	why := checkReasons(t, r, map[string]reason{
		"a.panic": {loader.ErrFormat, "the parser panicked: boom"},
		"a.own":   {loader.ErrFormat, "own"},
		"a.scan":  {loader.ErrNoText, "no text layer"},
		"a.fmt":   {loader.ErrFormat, "returned Format(9)"},
	})
	assert.ErrorIs(t, why["a.own"], errOwn)
	d := byID(t, r, "a.marks")
	assert.Equal(t, "T", d.Title)
	assert.Equal(t, []document.Mark{{Offset: 0, Row: 1}, {Offset: 1, Row: 2}, {Offset: 3, Row: 3}}, d.Marks)
}

func TestParsersConfig(t *testing.T) {
	for _, tt := range []struct {
		parsers map[string]loader.Parser
		want    string
	}{
		{map[string]loader.Parser{".csv": nil}, `loader: invalid configuration: Parsers[".csv"] is nil`},
		{map[string]loader.Parser{".CSV": upper}, `loader: invalid configuration: Parsers has the key ".CSV": must be an extension in lower case, such as ".csv", or ""`},
		{map[string]loader.Parser{"csv": upper}, `loader: invalid configuration: Parsers has the key "csv": must be an extension in lower case, such as ".csv", or ""`},
		{map[string]loader.Parser{".tar.gz": upper}, `loader: invalid configuration: Parsers has the key ".tar.gz": must be an extension in lower case, such as ".csv", or ""`},
	} {
		_, err := loader.FS(context.Background(), fstest.MapFS{}, loader.Config{Parsers: tt.parsers})
		require.ErrorIs(t, err, loader.ErrConfig)
		assert.EqualError(t, err, tt.want)
	}
	r, err := loader.FS(context.Background(), fstest.MapFS{"a.md": {Data: []byte("# A\n")}}, loader.Config{Parsers: map[string]loader.Parser{}})
	require.NoError(t, err)
	assert.Empty(t, r.Documents, "an empty map reads nothing")
}
