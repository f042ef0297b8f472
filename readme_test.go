package ragkit_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadmeTaste keeps the README's "A taste" compiling: its code is
// Example_taste's body and its output that Example's checked output, so a
// change to either that is not made to both fails here.
func TestReadmeTaste(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	example, err := os.ReadFile("taste_example_test.go")
	require.NoError(t, err)

	_, taste, found := strings.Cut(string(readme), "\n## A taste\n")
	require.True(t, found, `README.md has no "## A taste" section`)
	code := fenced(t, taste, "```go\n")
	output := fenced(t, taste, "```text\n")

	_, body, found := strings.Cut(string(example), "func Example_taste() {\n")
	require.True(t, found)
	body, want, found := strings.Cut(body, "\t// Output:\n")
	require.True(t, found)
	want, _, _ = strings.Cut(want, "}\n")

	require.Equal(t, unindent(body, "\t"), code, "README code differs from Example_taste")
	require.Equal(t, unindent(want, "\t// "), output, "README output differs from Example_taste's")
}

// fenced returns the first code block of text that opens with fence.
func fenced(t *testing.T, text, fence string) string {
	t.Helper()
	_, block, found := strings.Cut(text, fence)
	require.True(t, found, "no %q block", fence)
	block, _, found = strings.Cut(block, "```\n")
	require.True(t, found, "unterminated %q block", fence)
	return block
}

// unindent removes prefix from the start of every line (an empty line of
// Go code has no indentation to remove).
func unindent(text, prefix string) string {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, prefix)
		if lines[i] == l {
			lines[i] = strings.TrimPrefix(l, strings.TrimRight(prefix, " "))
		}
	}
	return strings.Join(lines, "")
}
