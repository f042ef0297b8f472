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
