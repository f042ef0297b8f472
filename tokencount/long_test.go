package tokencount

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/tokencount/internal/invalidutf8"
)

// TestWindowedMergeIsExact merges long inputs whole, in one tournament,
// and in windows of several sizes, the smallest shorter than many tokens
// so that windows often disagree; the ends must be the same. The inputs
// are the shapes and the start of every corpus, each taken as one piece
// of bytes. Windows of the size Count uses never have to start again with
// longer windows on them, and the small ones must often manage without
// for the test to mean anything.
func TestWindowedMergeIsExact(t *testing.T) {
	inputs := map[string]string{}
	for _, s := range shapes {
		inputs[s.Name] = invalidutf8.Replace(s.Make(64 << 10))
	}
	for _, name := range corpusNames(t) {
		text := readCorpus(t, name)
		inputs[name] = text[:min(len(text), 64<<10)]
	}
	for _, name := range []string{Cl100kBase, O200kBase} {
		b, err := encoding(name)
		require.NoError(t, err)
		for input, text := range inputs {
			t.Run(name+"/"+input, func(t *testing.T) {
				t.Parallel()
				want := wholeMerge(b, text)
				got, restarted := windowedMerge(b, text, window, overlap)
				require.Equal(t, want, got)
				require.False(t, restarted, "windows of %d had to grow", window)
				stitched := 0
				for _, w := range [][2]int{{300, 40}, {200, 130}, {64, 16}, {16, 4}, {5, 1}} {
					got, restarted := windowedMerge(b, text, w[0], w[1])
					require.Equal(t, want, got, "window %d, overlap %d", w[0], w[1])
					if !restarted {
						stitched++
					}
				}
				require.NotZero(t, stitched, "small windows always had to grow")
			})
		}
	}
}

func wholeMerge(b *BPE, text string) []int {
	var ends []int
	for _, e := range new(merger).merge(b, text) {
		ends = append(ends, int(e))
	}
	return ends
}

func windowedMerge(b *BPE, text string, w, ov int) (ends []int, restarted bool) {
	k := sink{}
	restarted = new(merger).encodeLong(b, text, &k, w, ov)
	return k.dst, restarted
}

// TestLongPieceMemory is the regression test for counting one enormous
// piece, whose merge used to take scratch space in proportion to the
// piece, about 25 bytes per byte. Now the scratch space of a merge does
// not grow with the piece, and what Count and AppendTokenEnds allocate on
// any shape is of the order of a byte per byte: entries of the piece
// cache where every piece is new, and text holding invalid UTF-8 copied
// with U+FFFD for each invalid byte.
func TestLongPieceMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under -race")
	}
	const size, limit = 512 << 10, 4 // bytes allocated per input byte
	for _, name := range []string{Cl100kBase, O200kBase} {
		b, err := encoding(name)
		require.NoError(t, err)
		for _, s := range shapes {
			text := s.Make(size)
			b.Count(text) // warm: the filter, the pool
			perByte := float64(allocated(func() { b.Count(text) })) / float64(len(text))
			require.LessOrEqual(t, perByte, float64(limit), "%s %s: Count allocates %.2f bytes per byte", name, s.Name, perByte)
			dst := make([]int, 0, 3*len(text)) // room for every token of invalid text
			perByte = float64(allocated(func() { b.AppendTokenEnds(dst, text) })) / float64(len(text))
			require.LessOrEqual(t, perByte, float64(limit), "%s %s: AppendTokenEnds allocates %.2f bytes per byte", name, s.Name, perByte)
		}
	}
}

// allocated returns the bytes allocated while f runs.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
