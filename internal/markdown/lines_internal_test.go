package markdown

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A walk over the lines reads the text about once, whatever the line
// endings: searching for '\n' from every line of a text whose lines end
// in a bare '\r' read the rest of the text at each line (issue 24), and
// made chunking and headings quadratic.
func TestLinesReadTheTextOnce(t *testing.T) {
	line := "A line of old Mac text, or of an export"
	for _, tt := range []struct {
		name string
		text string
	}{
		{"CR", strings.Repeat(line+"\r", 5000)},
		{"LF", strings.Repeat(line+"\n", 5000)},
		{"CRLF", strings.Repeat(line+"\r\n", 5000)},
		{"one CR, then LF", "\r" + strings.Repeat(line+"\n", 5000)},
		{"one LF, then CR", "\n" + strings.Repeat(line+"\r", 5000)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := NewLines(tt.text, strings.Contains(tt.text, "\r"))
			n := 0
			for i := 0; i < len(tt.text); n++ {
				end, next := l.At(i)
				if got := strings.TrimRight(tt.text[i:end], "\r"); got != "" {
					require.Equal(t, line, got)
				}
				i = next
			}
			require.Equal(t, 5000+strings.Count(tt.text[:1], "\r")+strings.Count(tt.text[:1], "\n"), n)
			searched := l.lf.searched + l.cr.searched
			require.LessOrEqual(t, searched, 2*len(tt.text), "bytes searched for %d bytes of text", len(tt.text))
		})
	}
}

// At answers the same for any order of calls, and a call back costs the
// distance back.
func TestLinesAnyOrder(t *testing.T) {
	text := "one\rtwo\r\nthree\n\rfour\r\r\nfive"
	var want [][2]int
	for i := 0; i <= len(text); i++ {
		l := NewLines(text, true)
		e, n := l.At(i)
		want = append(want, [2]int{e, n})
	}
	l := NewLines(text, true)
	for _, i := range []int{20, 3, 0, 27, 9, 8, 14, 2, 25, len(text)} {
		e, n := l.At(i)
		require.Equal(t, want[i], [2]int{e, n}, "At(%d)", i)
	}
	require.Equal(t, [2]int{3, 4}, want[0])
	require.Equal(t, [2]int{8, 9}, want[4], "the CR of CRLF is trailing white space")
	require.Equal(t, [2]int{14, 15}, want[9])
	require.Equal(t, [2]int{15, 16}, want[15], "a CR after LF ends an empty line")
}

// naiveLineAt is the definition of Lines.At, searched afresh each time.
func naiveLineAt(text string, i int) (end, next int) {
	end, next = len(text), len(text)
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		end, next = i+j, i+j+1
	}
	if k := strings.IndexByte(text[i:end], '\r'); k >= 0 && i+k+1 < end {
		return i + k, i + k + 1
	}
	return end, next
}

// FuzzLines holds At to its definition for any text and any order of
// calls, and a walk in order to reading the text at most twice.
func FuzzLines(f *testing.F) {
	f.Add("a\rb\r\nc\n\rd\r\r\n", []byte{3, 0, 9, 1, 12})
	f.Add("\n\n\r\r", []byte{4, 0, 2})
	f.Fuzz(func(t *testing.T, text string, order []byte) {
		l := NewLines(text, strings.Contains(text, "\r"))
		for _, b := range order {
			i := int(b) % (len(text) + 1)
			e, n := l.At(i)
			we, wn := naiveLineAt(text, i)
			require.Equal(t, [2]int{we, wn}, [2]int{e, n}, "At(%d) of %q", i, text)
		}
		l = NewLines(text, strings.Contains(text, "\r"))
		for i := 0; i < len(text); {
			_, next := l.At(i)
			require.Greater(t, next, i)
			i = next
		}
		require.LessOrEqual(t, l.lf.searched+l.cr.searched, 2*len(text))
	})
}
