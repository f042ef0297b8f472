package loader_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/loader"
)

// fuzzParser loads data as the file name with the default parsers and
// checks what every parser promises: no panic (the loader would report
// it), a document of valid UTF-8 with a title on one line, marks sorted
// and within the text, or a skip for a documented reason.
func fuzzParser(t *testing.T, name string, data []byte) {
	res, err := loader.FS(context.Background(), fstest.MapFS{name: {Data: data}}, loader.Config{})
	require.NoError(t, err)
	if len(res.Documents) == 0 {
		require.Len(t, res.Skipped, 1)
		why := res.Skipped[0].Reason
		require.NotContains(t, why.Error(), "panicked")
		for _, known := range []error{loader.ErrEmpty, loader.ErrFormat, loader.ErrTooLarge, loader.ErrUnsupported} {
			if errors.Is(why, known) {
				return
			}
		}
		t.Fatalf("an unexpected reason: %v", why)
	}
	d := res.Documents[0]
	require.True(t, utf8.ValidString(d.Text))
	require.True(t, utf8.ValidString(d.Title))
	require.NotContains(t, d.Title, "\n")
	for k, v := range d.Metadata {
		require.True(t, utf8.ValidString(k) && utf8.ValidString(v), "metadata %q: %q", k, v)
	}
	for i, m := range d.Marks {
		require.GreaterOrEqual(t, m.Offset, 0)
		require.LessOrEqual(t, m.Offset, len(d.Text))
		if i > 0 {
			require.LessOrEqual(t, d.Marks[i-1].Offset, m.Offset)
		}
	}
	d.Locate(0, len(d.Text))
	d.Outline()
}

// seeds adds the strings and the files under testdata as seeds.
func seeds(f *testing.F, files []string, texts ...string) {
	for _, s := range texts {
		f.Add([]byte(s))
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		require.NoError(f, err)
		f.Add(b)
	}
}

func FuzzCSV(f *testing.F) {
	seeds(f, nil, "a,b\n1,2\n", "sku;name\nA;x\n", "\"a\nb\",c\n\"x\"\"y\",\n", "")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "f.csv", data) })
}

func FuzzJSON(f *testing.F) {
	seeds(f, nil, `{"a":{"b":[1,{"c":null}]},"title":"T"}`, `[{"id":1},{"id":1}]`, `"x"`, "[[[[", `{"a":1}{}`)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "f.json", data) })
}

func FuzzJSONLines(f *testing.F) {
	seeds(f, nil, "{\"a\":1}\n\n[1,2]\n", "{\n", "1 2\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "f.jsonl", data) })
}

func FuzzMan(f *testing.F) {
	seeds(f, []string{"testdata/man/ls.1", "testdata/man/ssh.1"},
		".de X\n.X\n..\n.X\n", ".if n \\{\\\n.if t \\{\\\nx\n.\\}\n", ".TP\n.TP\n.IP\n\\f", "\\(\\[\\*[x\\s+\\", ".ie n .ie n .el x\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "f.1", data) })
}

func FuzzMarkdown(f *testing.F) {
	seeds(f, nil, "---\ntitle: T\ntags:\n  - a\n---\ntext\n", "+++\ntitle = 'x'\n[t]\na = [1, 2]\n+++\n", "---\n---\n", "---\nx: >\n  a\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "f.md", data) })
}

func FuzzRST(f *testing.F) {
	seeds(f, []string{"testdata/markup/uritemplate.rst", "testdata/markup/s3.rst"}, "==\nT\n==\n", "a::\n\n  b\n", ".. code:: go\n\n   x\n", "T\n-\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "f.rst", data) })
}

func FuzzAsciiDoc(f *testing.F) {
	seeds(f, nil, "= T\n:a: b\n\n== S\n[source,go]\n----\nx\n----\n", "////\n", ".x\n<<a,b>> link:u[t]\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "f.adoc", data) })
}

func FuzzGo(f *testing.F) {
	seeds(f, []string{"testdata/code/builder.go"}, "package p\nfunc (T[K]) M() {}\n", "package p\nvar (a, b = 1, 2)\n", "package")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "f.go", data) })
}

// FuzzCode reads data as each language's source in turn.
func FuzzCode(f *testing.F) {
	seeds(f, []string{"testdata/code/greet.rs", "testdata/code/textwrap.py", "testdata/code/deprecate.js", "testdata/code/gettext.sh"},
		"fn a<'a>(x: &'a str) { '{' }\n", "\"\"\"\n{\n", "if x; then\nfi\nfi\n", "/* { */ }}}\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, ext := range []string{".rs", ".py", ".js", ".c", ".java", ".sh"} {
			fuzzParser(t, "f"+ext, data)
		}
	})
}
