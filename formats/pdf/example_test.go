package pdf_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/ragkit/ragkit/formats/pdf"
)

func Example() {
	p, err := pdf.New(pdf.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	data, err := os.ReadFile("testdata/headings.pdf")
	if err != nil {
		log.Fatal(err)
	}
	doc, err := p.Parse(context.Background(), "headings.pdf", data)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(doc.Title)
	for _, l := range strings.Split(doc.Text, "\n") {
		if strings.HasPrefix(l, "#") {
			start := strings.Index(doc.Text, l)
			fmt.Printf("%-40s %s\n", l, doc.Locate(start, start+len(l)))
		}
	}
	// Output:
	// Music, Violets, and the Letter S
	// # Music, Violets, and the Letter S       p. 1
	// ## The Piano at the Bertolini            p. 1
	// ### What Lucy Played                     p. 1
	// #### The Sonatas of Beethoven            p. 1
	// ### Mr. Beebe Listens                    p. 2
	// ## After the Music                       p. 2
	// ### The Vicar Explains                   p. 2
	// #### An Introduction                     p. 2
	// ## The Expedition                        p. 2
}
