package exactness

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"slices"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// NFKCRules returns normalization rules in the manner of SentencePiece's
// nmt_nfkc: every character that NFKC changes, mapped to its NFKC form,
// and a few sequences of a letter and a combining mark.
func NFKCRules() map[string]string {
	rules := map[string]string{}
	for r := rune(0x80); r <= 0x2FFFF; r++ {
		if r >= 0xD800 && r <= 0xDFFF || !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z) {
			continue
		}
		if n := norm.NFKC.String(string(r)); n != string(r) {
			rules[string(r)] = n
		}
	}
	for _, base := range "aeiouAEIOU" {
		for _, mark := range "\u0300\u0301\u0308" {
			rules[string(base)+string(mark)] = norm.NFC.String(string(base) + string(mark))
		}
	}
	rules["\u00a0"] = " "
	return rules
}

// BuildCharsmap compiles rules into the precompiled_charsmap of a
// tokenizer.json's Precompiled normalizer: a double-array trie in
// darts-clone's format from each key's UTF-8 bytes to the offset of its
// replacement in a table of NUL-terminated strings.
func BuildCharsmap(rules map[string]string) (string, error) {
	keys := make([]string, 0, len(rules))
	for k := range rules {
		if k == "" {
			return "", fmt.Errorf("empty key")
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var table []byte
	value := map[string]uint32{}
	for _, k := range keys {
		value[k] = uint32(len(table))
		table = append(append(table, rules[k]...), 0)
	}
	// The trie, as nodes with children by label.
	type node struct {
		children map[byte]int
		terminal bool
		value    uint32
	}
	nodes := []node{{children: map[byte]int{}}}
	for _, k := range keys {
		n := 0
		for i := 0; i < len(k); i++ {
			c, ok := nodes[n].children[k[i]]
			if !ok {
				c = len(nodes)
				nodes = append(nodes, node{children: map[byte]int{}})
				nodes[n].children[k[i]] = c
			}
			n = c
		}
		nodes[n].terminal, nodes[n].value = true, value[k]
	}
	units := []uint32{0}
	used := map[uint32]bool{0: true}  // positions taken
	bases := map[uint32]bool{}        // bases taken (each node its own)
	pos := make([]uint32, len(nodes)) // position of each node's unit
	grow := func(p uint32) {
		for uint32(len(units)) <= p {
			units = append(units, 0)
		}
	}
	queue := []int{0}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		labels := make([]uint32, 0, len(nodes[n].children)+1)
		if nodes[n].terminal {
			labels = append(labels, 0)
		}
		for c := range nodes[n].children {
			labels = append(labels, uint32(c))
		}
		slices.Sort(labels) // the same trie on every run
		if len(labels) == 0 {
			continue
		}
		base := uint32(1)
	search:
		for ; ; base++ {
			if bases[base] {
				continue
			}
			for _, c := range labels {
				if used[base^c] {
					continue search
				}
			}
			break
		}
		if base >= 1<<21 {
			return "", fmt.Errorf("trie too large")
		}
		bases[base] = true
		p := pos[n]
		units[p] |= (p ^ base) << 10
		if nodes[n].terminal {
			units[p] |= 1 << 8
		}
		for _, c := range labels {
			q := base ^ c
			used[q] = true
			grow(q)
			if c == 0 {
				units[q] = nodes[n].value | 1<<31
				continue
			}
			child := nodes[n].children[byte(c)]
			units[q] = c
			pos[child] = q
			queue = append(queue, child)
		}
	}
	// Like darts-clone, fill whole blocks of 256 units: a search reads
	// base^c for any byte c, and the library does not check bounds.
	maxBase := uint32(0)
	for b := range bases {
		maxBase = max(maxBase, b)
	}
	grow(maxBase | 0xFF)
	for len(units)%256 != 0 {
		units = append(units, 0)
	}
	blob := make([]byte, 4, 4+4*len(units)+len(table))
	binary.LittleEndian.PutUint32(blob, uint32(4*len(units)))
	for _, u := range units {
		blob = binary.LittleEndian.AppendUint32(blob, u)
	}
	blob = append(blob, table...)
	return base64.StdEncoding.EncodeToString(blob), nil
}
