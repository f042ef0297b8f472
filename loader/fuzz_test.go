package loader_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/loader"
)

// FuzzText loads one file of any bytes and checks what a document's text
// promises: valid UTF-8 without control characters but tab, newline and
// carriage return, the file unchanged when it needed no cleaning, the
// Repair counts adding up, and a file refused only for no text or for
// content that is not text.
func FuzzText(f *testing.F) {
	for _, s := range []string{"# Title\n\ntext\n", "a\x00b", "\xff\xfe", "\uFEFF# BOM\n", "\u0085next", " \t\r\n", "\xc2", "ok\x7f\x1b[0m"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := loader.FS(context.Background(), fstest.MapFS{"f.md": {Data: data}}, loader.Config{})
		require.NoError(t, err)
		if len(res.Documents) == 0 {
			require.Len(t, res.Skipped, 1)
			if loader.Sniff(data) != loader.ContentText {
				require.ErrorIs(t, res.Skipped[0].Reason, loader.ErrUnsupported)
				return
			}
			require.ErrorIs(t, res.Skipped[0].Reason, loader.ErrEmpty)
			return
		}
		text := res.Documents[0].Text
		require.True(t, utf8.ValidString(text))
		require.NotEmpty(t, strings.TrimSpace(text))
		for _, r := range text {
			require.False(t, unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r', "control %U kept", r)
		}
		if len(res.Repaired) == 0 {
			require.Equal(t, string(data), text, "nothing to clean: the file as it is")
			return
		}
		rep := res.Repaired[0]
		require.Equal(t, strings.Count(text, "\uFFFD")-strings.Count(string(data), "\uFFFD"), rep.InvalidBytes)
		require.Positive(t, rep.InvalidBytes+rep.Controls)
	})
}
