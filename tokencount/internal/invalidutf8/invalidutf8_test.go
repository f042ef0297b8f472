package invalidutf8_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/tokencount/internal/invalidutf8"
)

func TestReplace(t *testing.T) {
	for _, s := range []string{"", "plain", "naïve 日本", "a\xffb", "\xff\xfe", "\xe6\x97", "\xed\xa0\x80", "\xf0\x9f\x98\x80\xf0\x9f", "\uFFFD\xff"} {
		t.Run(s, func(t *testing.T) {
			require.Equal(t, string([]rune(s)), invalidutf8.Replace(s))
		})
	}
}

func TestMapper(t *testing.T) {
	tests := []struct {
		name string
		text string
		offs []int // offsets in Replace(text), in order
		want []int
	}{
		{"valid", "aé日", []int{0, 1, 2, 3, 4, 5, 6}, []int{0, 1, 2, 3, 4, 5, 6}},
		// "\xff" becomes EF BF BD: offsets 1 and 2 fall inside it, 3 ends it.
		{"invalid byte", "a\xffb", []int{1, 2, 3, 4, 5}, []int{1, 2, 2, 2, 3}},
		{"repeats", "\xff\xfe", []int{1, 3, 3, 4, 6}, []int{1, 1, 1, 2, 2}},
		// A valid character after an invalid byte keeps exact offsets.
		{"inside a valid character", "\xff\u0081", []int{3, 4, 5}, []int{1, 2, 3}},
		{"past the end", "a", []int{1, 2}, []int{1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := invalidutf8.Mapper{Text: tt.text}
			var got []int
			for _, off := range tt.offs {
				got = append(got, m.Map(off))
			}
			require.Equal(t, tt.want, got)
		})
	}
}
