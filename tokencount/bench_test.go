package tokencount

import "testing"

func BenchmarkCount(b *testing.B) {
	for _, corpus := range []string{"room_with_a_view.txt", "sherlock_1661.txt", "commonmark_spec.md"} {
		text := readCorpus(b, corpus)
		for _, name := range []string{Cl100kBase, O200kBase} {
			enc, err := encoding(name)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(corpus+"/"+name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					enc.Count(text)
				}
			})
		}
	}
}
