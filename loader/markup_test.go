package loader_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReStructuredText(t *testing.T) {
	for _, tt := range []struct {
		file     string
		title    string
		sections []string
		has      []string
		hasNot   []string
	}{
		{"uritemplate.rst", "uritemplate",
			[]string{"# uritemplate", "## Getting Started", "### Installation", "### Documentation", "## Examples", "## License", "## Author"},
			[]string{"uritemplate is a Go implementation of URI Template [RFC6570]", "```sh\n$ go get -u github.com/yosida95/uritemplate/v3\n```\n", "available on GoDoc.", "See examples on GoDoc."},
			[]string{".. _", "https://yosida95.com/"}},
		{"s3.rst", "List objects in an Amazon S3 bucket",
			[]string{"# List objects in an Amazon S3 bucket", "# List top-level common prefixes in Amazon S3 bucket"},
			[]string{"```python\nimport boto3\n\ns3 = boto3.resource('s3')\n"},
			[]string{".. code-block::"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile("testdata/markup/" + tt.file)
			require.NoError(t, err)
			d, err := loadOne(t, tt.file, string(data))
			require.NoError(t, err)
			assert.Equal(t, tt.title, d.Title)
			got := sectionTitles(d)
			require.GreaterOrEqual(t, len(got), len(tt.sections), "%q", got)
			assert.Equal(t, tt.sections, got[:len(tt.sections)])
			for _, s := range tt.has {
				assert.Contains(t, d.Text, s)
			}
			for _, s := range tt.hasNot {
				assert.NotContains(t, d.Text, s)
			}
		})
	}

	d, err := loadOne(t, "levels.rst", "=====\nTitle\n=====\n\nSub\n---\n\nA literal block::\n\n    x = 1\n\n  y = 2\n\n.. note:: Mind ``this``.\n\n.. comment\n   dropped\n\nSee :ref:`the guide <guide>` and :func:`len`.\n\nAgain\n-----\n")
	require.NoError(t, err)
	assert.Equal(t, "# Title\n\n## Sub\n\nA literal block:\n\n```\n  x = 1\n\ny = 2\n```\n\n**Note:** Mind `this`.\n\nSee `the guide` and `len`.\n\n## Again\n", d.Text)
}

func TestAsciiDoc(t *testing.T) {
	src := "= Document Title\n:author: Doc Writer\n:revdate: 2024-01-02\n\nA preamble with a link:https://asciidoc.org[site link].\n\n" +
		"== Section One\n\n// a comment\nText, see <<two,the second section>>.\n\n[source,go]\n----\nfunc main() {}\n----\n\n.A block title\n....\nliteral text\n....\n\n////\nhidden\n////\n\n[[two]]\n=== Section Two\n\nNOTE: An admonition.\n"
	d, err := loadOne(t, "doc.adoc", src)
	require.NoError(t, err)
	assert.Equal(t, "Document Title", d.Title)
	assert.Equal(t, []string{"# Document Title", "## Section One", "### Section Two"}, sectionTitles(d))
	assert.Equal(t, "Doc Writer", d.Metadata["author"])
	assert.Equal(t, "2024-01-02", d.Metadata["revdate"])
	for _, s := range []string{"A preamble with a site link.", "Text, see the second section.", "```go\nfunc main() {}\n```\n", "**A block title**\n\n```\nliteral text\n```\n", "NOTE: An admonition."} {
		assert.Contains(t, d.Text, s)
	}
	for _, s := range []string{"a comment", "hidden", "[[two]]", ":author:"} {
		assert.NotContains(t, d.Text, s)
	}
}
