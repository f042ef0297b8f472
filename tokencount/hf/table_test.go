package hf

import (
	"fmt"
	"testing"
)

// TestTokenTableGrows fills a table sized for no tokens: it must grow and
// keep every token, of up to 4 bytes (in the short table), up to 8 (in
// the slot) and longer (in the slab), with the last id put for each.
func TestTokenTableGrows(t *testing.T) {
	tt := newTokenTable(0)
	tok := func(k int) string { return fmt.Sprintf("%0*d", 1+k%20, k) }
	for k := range 5000 {
		if !tt.put([]byte(tok(k)), int32(k)) {
			t.Fatalf("put %d failed", k)
		}
	}
	tt.put([]byte(tok(7)), 99) // a long token
	tt.put([]byte(tok(2)), 98) // a short one
	for k := range 5000 {
		want := int32(k)
		switch k {
		case 7:
			want = 99
		case 2:
			want = 98
		}
		if id, ok := tt.get(tok(k)); !ok || id != want {
			t.Fatalf("get(%q) = %d, %v; want %d", tok(k), id, ok, want)
		}
	}
	if _, ok := tt.get("x"); ok {
		t.Fatal(`get("x") found a token never put`)
	}
	n := 0
	tt.each(func(b []byte, id int32) {
		if got, _ := tt.get(string(b)); got != id {
			t.Fatalf("each gave %q with id %d, get gives %d", b, id, got)
		}
		n++
	})
	if n != 5000 {
		t.Fatalf("each gave %d tokens, want 5000", n)
	}
}

// TestMergeTable makes a merge table of pairs, some ranks left out and
// one pair merged twice: it keeps every pair, the first merge of the pair
// merged twice, and finds no pair it was not given.
func TestMergeTable(t *testing.T) {
	const n, maxID = 3000, 20999
	var pairs []uint64
	var ids []int32
	want := map[[2]int32]merge{}
	count := 0
	for k := range int32(n) {
		switch {
		case k%10 == 3:
			pairs = append(pairs, noPair)
		case k%100 == 7:
			pairs = append(pairs, 5<<32|35) // first merged at rank 5; the last rank wins
			want[[2]int32{5, 35}] = merge{rank: k, id: k + 1}
		default:
			pairs = append(pairs, uint64(k)<<32|uint64(k*7))
			want[[2]int32{k, k * 7}] = merge{rank: k, id: k + 1}
		}
		if pairs[k] != noPair {
			count++
		}
		ids = append(ids, k+1)
	}
	mt := newMergeTableOf(pairs, ids, count, maxID)
	for p, w := range want {
		if mg, ok := mt.get(p[0], p[1]); !ok || mg != w {
			t.Fatalf("get%v = %v, %v; want %v", p, mg, ok, w)
		}
	}
	for _, p := range [][2]int32{{1, 1}, {-1, 0}, {0, maxID + 1}, {3, 21}} {
		if _, ok := mt.get(p[0], p[1]); ok {
			t.Fatalf("get%v found a pair never added", p)
		}
	}
	if newMergeTableOf(make([]uint64, 1<<22), make([]int32, 1<<22), 1, 1<<22) != nil {
		t.Fatal("a table whose pairs and ranks do not fit a word was made")
	}
}
