package loader_test

import (
	"os"
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
)

// Each language's real file is read into one section per top-level
// block, under its first line, the code kept whole in fenced blocks.
func TestSourceCode(t *testing.T) {
	for _, tt := range []struct {
		file     string
		title    string
		sections []string
		has      []string
	}{
		{"builder.go", "package strings (builder.go)",
			[]string{"# package strings (builder.go)", "## type Builder", "## func (Builder) copyCheck", "## func (Builder) String", "## func (Builder) Len"},
			[]string{"A Builder is used to efficiently build a string using [Builder.Write] methods.\n", "```go\nfunc (b *Builder) String() string {\n"}},
		{"greet.rs", "greet.rs",
			[]string{"# greet.rs", "## extern crate alloc;", "## fn greet(name: &String)", "## fn greeting(name: &String) -> String", "## fn log(message: &String)", `## extern "C"`, `## pub unsafe extern "C" fn _greet(ptr: u32, len: u32)`},
			[]string{"```rust\n/// Prints a greeting to the console using [`log`].\nfn greet(name: &String) {\n"}},
		{"sshd_test_pw.c", "sshd_test_pw.c",
			[]string{"# sshd_test_pw.c", "## #define _GNU_SOURCE", "## static char * pwhash(char *passwd)"},
			[]string{"```c\n"}},
		{"textwrap.py", "textwrap.py",
			[]string{"# textwrap.py", "## def dedent(text)", "## def indent(text, prefix, predicate=None)", `## if __name__ == "__main__"`},
			[]string{"    def prefixed_lines():\n        for line in text.splitlines(True):\n"}},
		{"deprecate.js", "deprecate.js",
			[]string{"# deprecate.js", "## module.exports = deprecate;", "## function deprecate (fn, msg)", "## function config (name)"},
			[]string{"```javascript\n/**\n * Mark that a method should not be used.\n"}},
		{"gettext.sh", "gettext.sh",
			[]string{"# gettext.sh", "## #! /bin/sh"},
			[]string{"## `eval_gettext ()`\n", "## `eval_npgettext ()`\n"}},
		{"Greeter.java", "Greeter.java",
			[]string{"# Greeter.java", "## package example;", "## public class Greeter", "## interface Named"},
			[]string{"```java\n/** Greets people by name. */\npublic class Greeter {\n"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(path.Join("testdata/code", tt.file))
			require.NoError(t, err)
			d, err := loadOne(t, tt.file, string(data))
			require.NoError(t, err)
			assert.Equal(t, tt.title, d.Title)
			assert.Equal(t, document.Markdown, d.Format)
			got := sectionTitles(d)
			require.GreaterOrEqual(t, len(got), len(tt.sections), "%q", got)
			assert.Equal(t, tt.sections, got[:len(tt.sections)])
			for _, s := range tt.has {
				assert.Contains(t, d.Text, s)
			}
			// Every line of code is in the text.
			for _, l := range strings.Split(string(data), "\n") {
				if strings.TrimSpace(l) != "" && !strings.HasPrefix(strings.TrimSpace(l), "//") && tt.file != "builder.go" {
					assert.Contains(t, d.Text, l)
				}
			}
			require.NotEmpty(t, d.Marks)
			for i := 1; i < len(d.Marks); i++ {
				assert.Less(t, d.Marks[i-1].Line, d.Marks[i].Line)
			}
		})
	}
}

// A Go file that does not parse is read by its blocks.
func TestGoSyntaxError(t *testing.T) {
	d, err := loadOne(t, "bad.go", "package p\n\nfunc A() {\n\treturn 1 +\n}\n\nfunc B() {}\n")
	require.NoError(t, err)
	assert.Equal(t, []string{"# bad.go", "## package p", "## func A()", "## func B() {}"}, sectionTitles(d))
}
