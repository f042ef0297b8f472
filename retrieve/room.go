package retrieve

import (
	"fmt"
	"math"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/tokencount"
)

// MinShare is the least room, in tokens, that [ItemConfig.Room] gives a
// passage it sizes: about a sentence of an answer with its label and
// markers (32 to 48 measured alike; see benchmarks/cmd/survive). Where
// the room cannot give every passage this much, the lowest-ranked
// passages get none, and the budget drops them.
const MinShare = 40

// share sizes items, best first, to share room tokens: the best m of
// them, as many as can each have MinShare (at least one), are cut to
// their caps (see levels), the largest at which they fit in room
// together; the others are left whole, for the budget to drop. The caps
// are found on each item's count alone (a token per item is left for the
// separators): the budget counts the result exactly. 1/√i shares
// measured better than equal ones and than 1/i (benchmarks/cmd/survive).
func share(fit *budget.Assembler, tok tokencount.Tokenizer, items []budget.Item, room int) error {
	counts := make([]int, len(items))
	total := len(items) // a token per separator
	for i, it := range items {
		// Bounded so that no sum of counts overflows, whatever the
		// tokenizer returns; the budget checks the counts themselves.
		counts[i] = min(tok.Count(it.Text), math.MaxInt/(len(items)+2))
		total += counts[i]
	}
	if total <= room {
		return nil // they fit whole
	}
	for m := len(items); m >= 1; m-- {
		caps := levels(counts[:m], room-m)
		if m > 1 && caps[m-1] < min(MinShare, counts[m-1]) {
			continue
		}
		for i := range m {
			if counts[i] <= caps[i] {
				continue
			}
			var err error
			if items[i], err = sizeItem(fit, items[i], max(caps[i], 1)); err != nil {
				return fmt.Errorf("%w: passage %d (%s)", err, i, items[i].ID)
			}
		}
		return nil
	}
	return nil
}

// levels returns the cap of each count: the i'th (from 0) may have
// level/√(i+1) tokens, the level the largest at which the sum of
// min(count, cap) is at most room, so that the best passage has the most
// room and a short one leaves what it does not use to the others.
func levels(counts []int, room int) []int {
	caps := make([]int, len(counts))
	at := func(level int) int {
		sum := 0
		for i, n := range counts {
			caps[i] = min(n, int(float64(level)/math.Sqrt(float64(i+1))))
			sum += caps[i]
		}
		return sum
	}
	// Above the largest count times √len(counts) no cap grows: hi is
	// bounded by the counts, not by room, which may be huge.
	top := 0
	for _, n := range counts {
		top = max(top, n)
	}
	lo, hi := 0, top*(int(math.Sqrt(float64(len(counts))))+1)+1 // at(lo) <= room
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if at(mid) <= room {
			lo = mid
		} else {
			hi = mid
		}
	}
	at(lo)
	return caps
}
