package loader_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"github.com/ragkit/ragkit/loader"
)

func ExampleFS() {
	notes := fstest.MapFS{
		"garden/roses.md":         {Data: []byte("# Roses\n\nPrune in March, above an outward bud.\n")},
		"kitchen.txt":             {Data: []byte("Bread is proved\x1b for two hours.\n")},
		"photo.jpg":               {Data: []byte("\xff\xd8\xff")},
		"drafts/idea.md":          {Data: []byte("# Idea\n")},
		"empty.md":                {Data: []byte("\n\n")},
		"node_modules/lib/doc.md": {Data: []byte("# Dependency\n")},
	}
	res, err := loader.FS(context.Background(), notes, loader.Config{Exclude: []string{"drafts"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range res.Documents {
		fmt.Printf("%s (%v): %q, %q\n", d.ID, d.Format, d.Title, d.Text)
	}
	for _, s := range res.Skipped {
		fmt.Println("skipped", s)
	}
	fmt.Println("not read:", res.NotRead)
	// Output:
	// garden/roses.md (Markdown): "Roses", "# Roses\n\nPrune in March, above an outward bud.\n"
	// kitchen.txt (Text): "kitchen", "Bread is proved for two hours.\n"
	// skipped drafts: loader: left out: by Config.Exclude
	// skipped empty.md: loader: no text
	// skipped node_modules: loader: left out: a dependency or build folder (Config.SkipDirs)
	// skipped photo.jpg: loader: not read: no parser for .jpg
	// not read: 2 files: 1 .jpg, 1 .md
}

// A folder of mixed formats: each file is read by the parser of its
// extension, into Markdown where it has structure; what no parser reads
// is counted.
func ExampleDefaultParsers() {
	files := fstest.MapFS{
		"prices.csv":     {Data: []byte("sku,name,price\nA-1,Valve,12.50\nB-2,Pump,80\n")},
		"man/ls.1":       {Data: []byte(".TH LS 1\n.SH NAME\nls \\- list directory contents\n.SH OPTIONS\n.TP\n\\fB\\-a\\fR\ndo not ignore entries starting with .\n")},
		"paper.pdf":      {Data: []byte("%PDF-1.7\n")},
		"logo.png":       {Data: []byte("\x89PNG\r\n\x1a\n")},
		"config.json":    {Data: []byte(`{"name": "demo", "server": {"port": 8080}}`)},
		"notes.txt":      {Data: []byte("Plain text stays as it is.\n")},
		"docs/guide.rst": {Data: []byte("Guide\n=====\n\nRead me::\n\n    make install\n")},
	}
	res, err := loader.FS(context.Background(), files, loader.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range res.Documents {
		fmt.Printf("== %s (%v) %q\n%s", d.ID, d.Format, d.Title, d.Text)
	}
	for _, s := range res.Skipped {
		fmt.Println("skipped", s)
	}
	fmt.Println("not read:", res.NotRead)
	// Output:
	// == config.json (Markdown) "demo"
	// name: demo
	//
	// ## server
	//
	// server.port: 8080
	// == docs/guide.rst (Markdown) "Guide"
	// # Guide
	//
	// Read me:
	//
	// ```
	// make install
	// ```
	// == man/ls.1 (Markdown) "ls - list directory contents"
	// # ls - list directory contents
	//
	// ## NAME
	//
	// ls - list directory contents
	//
	// ## OPTIONS
	//
	// - -a
	//   do not ignore entries starting with .
	// == notes.txt (Text) "notes"
	// Plain text stays as it is.
	// == prices.csv (Markdown) "prices"
	// ## sku: A-1
	//
	// sku: A-1
	// name: Valve
	// price: 12.50
	//
	// ## sku: B-2
	//
	// sku: B-2
	// name: Pump
	// price: 80
	// skipped logo.png: loader: not read: no parser for .png
	// skipped paper.pdf: loader: not read: no parser for .pdf: see github.com/ragkit/ragkit/formats/pdf
	// not read: 2 files: 1 .pdf, 1 .png
}
