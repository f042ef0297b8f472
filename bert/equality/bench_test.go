package equality

import (
	"context"
	"os"
	"testing"

	"github.com/ragkit/ragkit/bert"
)

// BenchmarkEmbed embeds the suite's texts with MiniLM, all of them per
// round, on GOMAXPROCS goroutines: texts/s is the figure to compare with
// the reference's (TestEquality logs both from one run).
func BenchmarkEmbed(b *testing.B) {
	model := os.Getenv(EnvModel)
	if model == "" {
		b.Skipf("%s not set", EnvModel)
	}
	all := texts(b)
	m, err := bert.Load(model, options)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, s := range all {
		n += len(s)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	if testing.Short() {
		all = all[:len(all)/8]
	}
	for b.Loop() {
		if _, err := m.Embed(context.Background(), all); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(all))*float64(b.N)/b.Elapsed().Seconds(), "texts/s")
}
