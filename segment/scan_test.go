package segment

import (
	"math/rand/v2"
	"testing"
)

// TestWordScans checks the word-at-a-time scans against plain loops over
// the bytes, on random texts drawn mostly from the bytes they look for and
// their neighbours, where a borrow or a wrong mask would show.
func TestWordScans(t *testing.T) {
	alphabet := []byte("abc .!?-/0>@\t\n\r\v\f\x00\x0d\x0e\x7f\x80\x84\x85\x86\xa7\xa8\xa9\xaa\xc2\xe2\xff")
	plainRef := func(text string, i, end int) int {
		for ; i < end; i++ {
			if c := text[i]; c == '.' || c == '!' || c == '?' || c < 0x0E || c >= 0x80 {
				return i
			}
		}
		return end
	}
	breakRef := func(text string, i int) int {
		for ; i < len(text); i++ {
			if c := text[i]; c < 0x0E || c == 0x85 || c == 0xA8 || c == 0xA9 {
				return i
			}
		}
		return len(text)
	}
	controlRef := func(text string, i int) int {
		for ; i < len(text); i++ {
			if text[i] < 0x0E {
				return i
			}
		}
		return len(text)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		b := make([]byte, rng.IntN(40))
		for k := range b {
			if rng.IntN(3) == 0 {
				b[k] = alphabet[rng.IntN(len(alphabet))]
			} else {
				b[k] = 'a' + byte(rng.IntN(26))
			}
		}
		text := string(b)
		for i := 0; i <= len(text); i++ {
			// skipPlain may stop early, before the last word; it never
			// passes a byte it looks for.
			want := plainRef(text, i, len(text))
			if got := skipPlain(text, i, len(text)); got > want || (got < want && got+8 <= len(text)) || plainRef(text, i, got) != got {
				t.Fatalf("skipPlain(%q, %d) = %d, want %d", text, i, got, want)
			}
			if got, want := skipToBreak(text, i), breakRef(text, i); got != want {
				t.Fatalf("skipToBreak(%q, %d) = %d, want %d", text, i, got, want)
			}
			if got, want := skipToControl(text, i), controlRef(text, i); got != want {
				t.Fatalf("skipToControl(%q, %d) = %d, want %d", text, i, got, want)
			}
		}
	}
}
