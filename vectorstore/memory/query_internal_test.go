package memory

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTakeCoversEveryPosition runs the chunk hand-out of a scan on several
// goroutines at once, one of them starting only after the others are
// done, and checks that every position is handed out exactly once, that
// nobody takes from the share of a goroutine that has started, and that
// the shares of one that has not are taken over.
func TestTakeCoversEveryPosition(t *testing.T) {
	for _, total := range []int{0, 1, 2, 7, 100, 1000, 100_003} {
		for _, workers := range []int{1, 2, 3, 8} {
			for _, chunk := range []int{1, 5} {
				t.Run(fmt.Sprintf("n=%d/workers=%d/chunk=%d", total, workers, chunk), func(t *testing.T) {
					checkTake(t, total, workers, chunk)
				})
			}
		}
	}
}

func checkTake(t *testing.T, total, workers, chunk int) {
	s := &scan{total: total, chunk: chunk, work: make([]worker, workers)}
	for w := range s.work {
		s.work[w].span.set(w*total/workers, (w+1)*total/workers)
	}
	owner := make([]atomic.Int32, total) // 1 + the goroutine given each position
	run := func(w int, chunks int) {
		s.work[w].started.Store(true) // as part does
		for n := 0; chunks < 0 || n < chunks; n++ {
			lo, hi := s.take(w)
			if lo == hi {
				return
			}
			// assert, not require: this runs on goroutines of its own.
			if !assert.True(t, 0 <= lo && lo < hi && hi <= total, "goroutine %d got [%d, %d)", w, lo, hi) {
				return
			}
			for i := lo; i < hi; i++ {
				assert.True(t, owner[i].CompareAndSwap(0, int32(w+1)), "position %d given to %d and %d", i, owner[i].Load()-1, w)
			}
		}
	}
	// Goroutine 0 starts alone and takes a few chunks; then all but the
	// last run at once; the last comes when they are done, as one whose
	// CPU woke up late would.
	run(0, 3)
	var wg sync.WaitGroup
	for w := 1; w < workers-1; w++ {
		wg.Add(1)
		go func() { defer wg.Done(); run(w, -1) }()
	}
	run(0, -1)
	wg.Wait()
	last := workers - 1
	run(last, -1)
	for i := range owner {
		o := int(owner[i].Load()) - 1
		require.GreaterOrEqual(t, o, 0, "position %d never handed out", i)
		if i < total/workers {
			require.Equal(t, 0, o, "position %d of started goroutine 0 taken by %d", i, o)
		}
		if workers > 1 {
			require.NotEqual(t, last, o, "position %d left to the late goroutine", i)
		}
	}
}

// TestWorkersFor checks the properties of the fan-out: a handful of
// vectors is scanned by one goroutine, a large store by all of them, never
// by more than configured, and more work never gets fewer goroutines.
func TestWorkersFor(t *testing.T) {
	for _, compact := range []bool{false, true} {
		for _, workers := range []int{1, 2, 7} {
			for _, dim := range []int{3, 384, 1536} {
				m, err := New(Config{Dimension: dim, Workers: workers, Compact: compact})
				require.NoError(t, err)
				name := fmt.Sprintf("compact=%v/workers=%d/dim=%d", compact, workers, dim)
				require.Equal(t, 1, m.workersFor(10), "%s: 10 vectors", name)
				require.Equal(t, workers, m.workersFor(1<<24), "%s: 16M vectors", name)
				prev := 1
				for n := 1; n <= 1<<24; n *= 2 {
					got := m.workersFor(n)
					require.True(t, prev <= got && got <= workers, "%s: %d vectors get %d goroutines (%d for fewer)", name, n, got, prev)
					prev = got
				}
			}
		}
	}
}
