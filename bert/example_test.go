package bert_test

import (
	"context"
	"fmt"
	"log"
	"math"

	"github.com/ragkit/ragkit/bert"
)

// The tiny test model stands in for a real one, such as the folder of
// sentence-transformers/all-MiniLM-L6-v2.
func Example() {
	m, err := bert.Load("testdata/tiny/embed", bert.Options{})
	if err != nil {
		log.Fatal(err)
	}
	vecs, err := m.Embed(context.Background(), []string{"The cat sat on the mat.", "A dog in the sun"})
	if err != nil {
		log.Fatal(err)
	}
	var norm float64
	for _, x := range vecs[0] {
		norm += float64(x) * float64(x)
	}
	fmt.Println(len(vecs), m.Dimensions(), m.MaxTokens(), m.Pooling(), math.Round(math.Sqrt(norm)*1000)/1000)
	// Output: 2 16 16 PoolingMean 1
}

func ExampleModel_Rerank() {
	m, err := bert.Load("testdata/tiny/rerank", bert.Options{})
	if err != nil {
		log.Fatal(err)
	}
	scores, err := m.Rerank(context.Background(), "where is the cat?", []string{"The cat sat on the mat.", "Rain."})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(scores))
	// Output: 2
}
