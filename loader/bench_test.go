package loader_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ragkit/ragkit/loader"
)

// BenchmarkFS loads 200 Markdown files of about 8 KB: clean ones, and ones
// whose every line holds a control character to remove.
func BenchmarkFS(b *testing.B) {
	for _, tt := range []struct{ name, line string }{
		{"clean", "The pump at station twelve runs every night and is serviced in spring.\n"},
		{"controls", "The pump at station twelve runs every night\x00 and is serviced in spring.\n"},
	} {
		b.Run(tt.name, func(b *testing.B) {
			tree := fstest.MapFS{}
			size := 0
			for i := range 200 {
				text := fmt.Sprintf("# Log %d\n\n", i) + strings.Repeat(tt.line, 8192/len(tt.line))
				tree[fmt.Sprintf("logs/%02d/log-%d.md", i%20, i)] = &fstest.MapFile{Data: []byte(text)}
				size += len(text)
			}
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				res, err := loader.FS(context.Background(), tree, loader.Config{})
				if err != nil || len(res.Documents) != 200 {
					b.Fatal(err, len(res.Documents))
				}
			}
		})
	}
}
