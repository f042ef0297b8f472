package hf

import (
	"fmt"
	"testing"
)

// TestTokenTableGrows fills a table sized for no tokens: it must grow and
// keep every token, short (in the slot) and long (in the slab), with the
// last id put for each.
func TestTokenTableGrows(t *testing.T) {
	tt := newTokenTable(0)
	tok := func(k int) string { return fmt.Sprintf("%0*d", 1+k%20, k) }
	for k := range 5000 {
		if !tt.put([]byte(tok(k)), int32(k)) {
			t.Fatalf("put %d failed", k)
		}
	}
	tt.put([]byte(tok(7)), 99)
	for k := range 5000 {
		want := int32(k)
		if k == 7 {
			want = 99
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

// TestMergeTable fills a merge table to the count it was made for: it
// keeps every pair, the first merge of a pair added twice, and refuses a
// merge beyond its count or its bounds.
func TestMergeTable(t *testing.T) {
	const n, maxID = 3000, 20999
	mt := newMergeTable(n, n, maxID)
	for k := range int32(n) {
		if !mt.add(k, k*7, merge{rank: k, id: k + 1}) {
			t.Fatalf("add %d refused", k)
		}
	}
	if !mt.add(5, 35, merge{rank: 17, id: 1}) {
		t.Fatal("add of a pair already there refused")
	}
	for k := range int32(n) {
		if mg, ok := mt.get(k, k*7); !ok || mg != (merge{rank: k, id: k + 1}) {
			t.Fatalf("get(%d, %d) = %v, %v", k, k*7, mg, ok)
		}
	}
	for _, p := range [][2]int32{{1, 1}, {-1, 0}, {0, maxID + 1}} {
		if _, ok := mt.get(p[0], p[1]); ok {
			t.Fatalf("get%v found a pair never added", p)
		}
	}
	if mt.add(1, 1, merge{rank: 0, id: 1}) {
		t.Fatal("add beyond the count accepted")
	}
	if newMergeTable(1, 1<<22, 1<<22) != nil {
		t.Fatal("a table whose pairs and ranks do not fit a word was made")
	}
}
