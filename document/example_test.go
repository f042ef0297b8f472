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
