package document_test

import (
	"fmt"

	"github.com/ragkit/ragkit/document"
)

func ExampleOutline() {
	const text = "# Travel policy\n\n## Ground transport\n\n### Ride-hailing\n\nAfter 10 pm only.\n\n## Meals\n\nUp to 40 euros a day.\n"
	o := document.NewOutline(text, document.Markdown)
	for _, h := range o.Headings() {
		fmt.Println(h.Level, h.Title)
	}
	fmt.Println(o.Path(60, 60))
	fmt.Println(o.Path(80, 80))
	// Output:
	// 1 Travel policy
	// 2 Ground transport
	// 3 Ride-hailing
	// 2 Meals
	// [Travel policy Ground transport Ride-hailing]
	// [Travel policy Meals]
}

// A parser of a paged source marks where each page starts; Locate then
// names the pages of any stretch of the text, as a citation does.
func ExampleDocument_Locate() {
	d := document.Document{
		Text:  "First page.\nSecond page.\nThird page.",
		Marks: []document.Mark{{Offset: 0, Page: 1}, {Offset: 12, Page: 2}, {Offset: 25, Page: 3}},
	}
	fmt.Println(d.Locate(0, 5))
	fmt.Println(d.Locate(12, 24))
	fmt.Println(d.Locate(5, 30))
	// Output:
	// p. 1
	// p. 2
	// pp. 1-3
}
