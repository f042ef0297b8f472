package formats_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/formats"
	"github.com/ragkit/ragkit/loader"
)

// TestLoader reads a folder of every format through the loader's
// dispatch on formats.Parsers: each file by its parser, each file no
// parser reads reported with its reason.
func TestLoader(t *testing.T) {
	read := func(name string) []byte {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		return data
	}
	tree := fstest.MapFS{
		"notes.md":           {Data: []byte("# Notes\n\nPlain notes.\n")},
		"site/page.html":     {Data: read("testdata/html/json-c-readme.html")},
		"handbook.docx":      {Data: read("testdata/handbook.docx")},
		"station.xlsx":       {Data: read("testdata/station.xlsx")},
		"locked.docx":        {Data: oleFile("EncryptionInfo", "EncryptedPackage")},
		"fake.html":          {Data: []byte("\x89PNG\r\n\x1a\nnot a page")},
		"report.pdf":         {Data: []byte("%PDF-1.7\n")},
		"notes.txt.gz":       {Data: []byte("\x1f\x8bnot gzip")},
		"renamed-image.docx": {Data: []byte("GIF89a")},
	}
	res, err := loader.FS(context.Background(), tree, loader.Config{Parsers: formats.Parsers()})
	require.NoError(t, err)
	docs := map[string]document.Document{}
	for _, d := range res.Documents {
		docs[d.ID] = d
	}
	require.Len(t, docs, 4)
	require.Equal(t, "Field Station Handbook", docs["handbook.docx"].Title)
	require.Equal(t, document.Markdown, docs["site/page.html"].Format)
	sheet := docs["station.xlsx"]
	at := strings.Index(sheet.Text, "Ilse")
	require.Equal(t, "sheet Staff, row 1", sheet.Locate(at, at+4).String())
	reasons := map[string]error{}
	for _, s := range res.Skipped {
		reasons[s.Path] = s.Reason
	}
	require.ErrorIs(t, reasons["locked.docx"], loader.ErrFormat)
	require.Contains(t, reasons["locked.docx"].Error(), "encrypted")
	for p, is := range map[string]error{
		"fake.html": loader.ErrUnsupported, "renamed-image.docx": loader.ErrUnsupported,
		"report.pdf": loader.ErrUnsupported, "notes.txt.gz": loader.ErrFormat,
	} {
		require.ErrorIs(t, reasons[p], is, p)
	}
	t.Log(res.Skipped)
}
