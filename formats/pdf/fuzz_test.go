package pdf_test

import (
	"context"
	"errors"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ragkit/ragkit/formats/pdf"
	"github.com/ragkit/ragkit/loader"
)

// fuzzParser bounds what one input may cost, so that the fuzzer finds
// crashes and hangs rather than slow files.
var fuzzParser = sync.OnceValues(func() (*pdf.Parser, error) {
	return pdf.New(pdf.Config{MaxInstances: 1, MaxPages: 50, Timeout: 20 * time.Second, MaxMemory: 256 << 20})
})

// FuzzParse checks that any input, above all malformed PDFs, gives a
// document whose marks are in order inside its text, or an error wrapping
// one of the loader's sentinels; never a panic or a hang. The seeds are
// the test PDFs whole, truncated and with bits flipped (see also
// testdata/fuzz/FuzzParse).
func FuzzParse(f *testing.F) {
	for _, name := range []string{"onecol", "twocol", "table", "headings"} {
		data, err := os.ReadFile("testdata/" + name + ".pdf")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
		f.Add(data[:len(data)-100])
		for _, at := range []int{len(data) / 7, len(data) / 3, len(data) - 300} {
			flipped := append([]byte(nil), data...)
			flipped[at] ^= 0x55
			f.Add(flipped)
		}
	}
	f.Add(noText)
	f.Add(encrypted(f))
	f.Add(numberedPages(3, 2))
	// The engine is compiled before the first input, which the fuzzer
	// would otherwise take for a hang.
	p, err := fuzzParser()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := p.Parse(context.Background(), "fuzz.pdf", data)
		if err != nil {
			if !errors.Is(err, loader.ErrFormat) && !errors.Is(err, loader.ErrNoText) && !errors.Is(err, loader.ErrTooLarge) {
				t.Fatalf("error wraps no loader sentinel: %v", err)
			}
			return
		}
		if !utf8.ValidString(d.Text) || d.Text == "" {
			t.Fatalf("text is empty or not UTF-8: %q", d.Text)
		}
		pages, _ := strconv.Atoi(d.Metadata[pdf.PagesKey])
		for i, m := range d.Marks {
			if m.Offset < 0 || m.Offset >= len(d.Text) || m.Page < 1 || m.Page > pages {
				t.Fatalf("mark %d out of bounds: %+v (%d bytes, %d pages)", i, m, len(d.Text), pages)
			}
			if i > 0 && (m.Offset <= d.Marks[i-1].Offset || m.Page <= d.Marks[i-1].Page) {
				t.Fatalf("marks out of order: %+v", d.Marks)
			}
		}
	})
}
