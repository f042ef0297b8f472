package space

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestTrimMatchesStrings(t *testing.T) {
	tests := []string{
		"", " ", "a", " a ", "\t\r\n a b \r\n", "\u00a0x\u2003", "\u3000全角\u3000",
		"\xff ", " \xff", "x\u0085", "\u200bzero width is not space\u200b",
	}
	for _, s := range tests {
		t.Run(s, func(t *testing.T) {
			start, end := Trim(s, 0, len(s))
			want := strings.TrimFunc(s, func(r rune) bool { return r != utf8.RuneError && unicode.IsSpace(r) })
			if got := s[start:end]; got != want {
				t.Errorf("Trim(%q) = %q, want %q", s, got, want)
			}
		})
	}
}

func TestNextAndSkip(t *testing.T) {
	s := "ab\u2003 cd"
	if got := Next(s, 0, len(s)); got != 2 {
		t.Errorf("Next = %d, want 2", got)
	}
	if got := Skip(s, 2, len(s)); got != len("ab\u2003 ") {
		t.Errorf("Skip = %d, want %d", got, len("ab\u2003 "))
	}
	if got := Next(s, 0, 1); got != 1 {
		t.Errorf("Next stops at end: got %d", got)
	}
}

func TestRuneAndByte(t *testing.T) {
	for r := rune(0); r < 0x3100; r++ {
		want := unicode.IsSpace(r)
		if got := Rune(r); got != want {
			t.Fatalf("Rune(%U) = %v, want %v", r, got, want)
		}
		if r < utf8.RuneSelf && Byte(byte(r)) != want {
			t.Fatalf("Byte(%q) = %v, want %v", r, !want, want)
		}
	}
	if Rune(utf8.RuneError) || Byte(0xA0) {
		t.Error("invalid UTF-8 and bytes of multi-byte characters are not white space")
	}
}
