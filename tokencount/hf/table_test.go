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
