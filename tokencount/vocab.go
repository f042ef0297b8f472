package tokencount

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// spec describes one encoding: where its ranks are and how it pre-tokenizes.
type spec struct {
	name  string
	file  string // name of the rank file in tiktoken-go-loader's assets
	split func(text string, i int) int
}

var specs = map[string]spec{
	Cl100kBase: {Cl100kBase, "cl100k_base.tiktoken", splitCl100k},
	O200kBase:  {O200kBase, "o200k_base.tiktoken", splitO200k},
	P50kBase:   {P50kBase, "p50k_base.tiktoken", splitP50k},
	R50kBase:   {R50kBase, "r50k_base.tiktoken", splitP50k},
}

// loadRanks parses a .tiktoken rank file (lines of "base64 rank") from the
// loader's embedded assets into the rank of every token and the table of
// two-byte tokens (BPE.pairs). The keys are substrings of one string that
// holds every token, so the map costs one allocation for its bytes.
func loadRanks(file string) (map[string]uint32, *[1 << 16]uint32, error) {
	data, err := assets.Assets.ReadFile(file)
	if err != nil {
		return nil, nil, fmt.Errorf("tokencount: reading %s: %w", file, err)
	}
	lines := bytes.Count(data, []byte{'\n'}) + 1
	arena := make([]byte, 0, base64.StdEncoding.DecodedLen(len(data)))
	type entry struct{ start, end, rank uint32 }
	entries := make([]entry, 0, lines)
	for len(data) > 0 {
		line := data
		if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
			line, data = data[:nl], data[nl+1:]
		} else {
			data = nil
		}
		if len(line) == 0 {
			continue
		}
		sp := bytes.IndexByte(line, ' ')
		if sp < 0 {
			return nil, nil, fmt.Errorf("tokencount: malformed line in %s: %q", file, line)
		}
		start := len(arena)
		n, err := base64.StdEncoding.Decode(arena[start:start+base64.StdEncoding.DecodedLen(sp)], line[:sp])
		if err != nil {
			return nil, nil, fmt.Errorf("tokencount: malformed token in %s: %w", file, err)
		}
		arena = arena[:start+n]
		rank, err := strconv.ParseUint(string(line[sp+1:]), 10, 32)
		if err != nil {
			return nil, nil, fmt.Errorf("tokencount: malformed rank in %s: %w", file, err)
		}
		entries = append(entries, entry{uint32(start), uint32(len(arena)), uint32(rank)})
	}
	all := string(arena)
	ranks := make(map[string]uint32, len(entries))
	pairs := new([1 << 16]uint32)
	for i := range pairs {
		pairs[i] = noRank
	}
	for _, e := range entries {
		if e.rank >= partialUTF8 {
			return nil, nil, fmt.Errorf("tokencount: rank %d out of range in %s", e.rank, file)
		}
		tok := all[e.start:e.end]
		if len(tok) == 2 {
			pairs[uint16(tok[0])<<8|uint16(tok[1])] = e.rank
		}
		if !utf8.ValidString(tok) {
			e.rank |= partialUTF8
		}
		ranks[tok] = e.rank
	}
	return ranks, pairs, nil
}
