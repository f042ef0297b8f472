package formats_test

import (
	"context"
	"fmt"
	"os"

	"github.com/ragkit/ragkit/formats"
)

// Parsers gives the parser of each extension; here an HTML page becomes
// Markdown, its navigation and script dropped and its table kept with
// its header row.
func ExampleParsers() {
	page := `<html><head><title>Opening hours</title><script>track()</script></head>
<body><nav><a href="/">Home</a></nav>
<h1>Opening hours</h1>
<p>The library opens <b>every day</b> but Sunday.</p>
<table><tr><th>Day</th><th>Hours</th></tr><tr><td>Monday</td><td>9-17</td></tr><tr><td>Saturday</td><td>10-14</td></tr></table>
</body></html>`
	p := formats.Parsers()[".html"]
	doc, err := p.Parse(context.Background(), "hours.html", []byte(page))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Title)
	fmt.Println(doc.Text)
	// Output:
	// Opening hours
	// # Opening hours
	//
	// The library opens every day but Sunday.
	//
	// | Day | Hours |
	// | --- | --- |
	// | Monday | 9-17 |
	// | Saturday | 10-14 |
}

// A spreadsheet's rows carry their sheet and row, for citations.
func ExampleXLSXParser() {
	data, err := os.ReadFile("testdata/station.xlsx")
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := formats.NewXLSX(formats.Config{MaxCells: 10_000})
	if err != nil {
		fmt.Println(err)
		return
	}
	doc, err := p.Parse(context.Background(), "station.xlsx", data)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range doc.Marks[:3] {
		line := doc.Text[m.Offset:]
		end := len(line)
		for i, c := range line {
			if c == '\n' {
				end = i
				break
			}
		}
		fmt.Printf("%-24s %s\n", doc.Locate(m.Offset, m.Offset+end), line[:end])
	}
	// Output:
	// sheet Sightings          # Sightings
	// sheet Sightings, row 1   | 2026-04-03 | Golden eagle | 2 | 1 |
	// sheet Sightings, row 2   | 2026-04-05 | Common kestrel | 7 | 0 |
}
