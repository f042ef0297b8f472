package ragkit_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// linkPattern matches the target of a Markdown link or image: [text](target).
var linkPattern = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestReadmeLinks checks that every link of the README pages is relative
// and resolves: the file or directory exists in the repository, and an
// anchor names a heading of the page it points to. The README and
// benchmarks/README.md link to each other's sections, so a heading renamed
// on one side fails here.
func TestReadmeLinks(t *testing.T) {
	for _, page := range []string{"README.md", "benchmarks/README.md", "CONTRIBUTING.md"} {
		t.Run(page, func(t *testing.T) {
			text, err := os.ReadFile(page)
			require.NoError(t, err)
			for _, target := range links(string(text)) {
				assert.NotContains(t, target, "github.com/ragkit/", "a link into the repository must be relative")
				if strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "http://") {
					continue // another site
				}
				assert.NotRegexp(t, `^(/|[a-z]+:)`, target, "a link into the repository must be relative")
				path, anchor, _ := strings.Cut(target, "#")
				file := page
				if path != "" {
					file = filepath.Join(filepath.Dir(page), path)
				}
				if _, err := os.Stat(file); !assert.NoError(t, err, "link %q", target) || anchor == "" {
					continue
				}
				linked, err := os.ReadFile(file)
				require.NoError(t, err)
				assert.Contains(t, anchors(string(linked)), anchor, "link %q: no such heading in %s", target, file)
			}
		})
	}
}

// links returns the link targets of a Markdown text outside code blocks.
func links(text string) []string {
	var targets []string
	for _, line := range prose(text) {
		for _, m := range linkPattern.FindAllStringSubmatch(line, -1) {
			targets = append(targets, m[1])
		}
	}
	return targets
}

// anchors returns the anchors GitHub gives the headings of a Markdown text:
// lower case, punctuation dropped, spaces as hyphens.
func anchors(text string) []string {
	var out []string
	for _, line := range prose(text) {
		title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !ok || !strings.HasPrefix(line, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}

// prose returns the lines of a Markdown text that are not in fenced code
// blocks.
func prose(text string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, line)
		}
	}
	return out
}
