package listmark_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/internal/listmark"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want listmark.Marker
		ok   bool
	}{
		{"1. The first", listmark.Marker{Token: "1", Style: ".", End: 2}, true},
		{"• 9. nine", listmark.Marker{Bullet: "•", Token: "9", Style: ".", End: 6}, true},
		{"b) second", listmark.Marker{Token: "b", Style: ")", End: 2}, true},
		{"iv.) four", listmark.Marker{Token: "iv", Style: ".)", End: 4}, true},
		{"• apples • pears", listmark.Marker{Bullet: "•", End: 10}, true},
		{"- 3) x", listmark.Marker{Bullet: "-", Token: "3", Style: ")", End: 4}, true},
		{"1234. year", listmark.Marker{}, false},
		{"ab. no", listmark.Marker{}, false},
		{"-x", listmark.Marker{}, false},
		{"1.5 ratio", listmark.Marker{}, false},
		{"", listmark.Marker{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			m, ok := listmark.Parse(tt.in)
			require.Equal(t, tt.ok, ok)
			require.Equal(t, tt.want, m)
		})
	}
}

func TestItem(t *testing.T) {
	for s, want := range map[string]bool{
		"- item": true, "-": true, "* x": true, "• x": true, "1. x": true, "12) x": true, "a) x": true, "iv. x": true,
		"a. x": false, "1234. x": false, "-x": false, "Plain text": false, "": false, "1.x": false,
	} {
		require.Equal(t, want, listmark.Item(s), s)
	}
}

func TestRoman(t *testing.T) {
	for n := 1; n < 90; n++ {
		var buf [8]byte
		up, low := string(listmark.Roman(buf[:], n, false)), string(listmark.Roman(buf[:], n, true))
		require.Equal(t, n, listmark.RomanValue(up))
		require.Equal(t, n, listmark.RomanValue(low))
	}
	require.Zero(t, listmark.RomanValue("IIII"))
	require.Zero(t, listmark.RomanValue("iV"))
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"1. a", "• b", "iv.) c", "- 3) d", "\xff", "10000) x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, ok := listmark.Parse(s)
		if !ok {
			require.Equal(t, listmark.Marker{}, m)
			return
		}
		require.True(t, m.End > 0 && m.End <= len(s))
		require.True(t, m.Bullet != "" || m.Token != "")
		if m.Token != "" {
			require.Contains(t, []string{".", ".)", ")"}, m.Style)
		}
		listmark.Item(s) // must not panic
	})
}
