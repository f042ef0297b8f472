package loader_test

import (
	"errors"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/loader"
)

func TestMatch(t *testing.T) {
	for _, tt := range []struct {
		pattern, name string
		want          bool
	}{
		{"*.md", "a.md", true},
		{"*.md", "docs/deep/a.md", true},
		{"*.md", "a.mdx", false},
		{"drafts", "notes/drafts", true},
		{"docs/*.md", "docs/a.md", true},
		{"docs/*.md", "docs/old/a.md", false},
		{"docs/*.md", "x/docs/a.md", false},
		{"docs/**/*.md", "docs/a.md", true},
		{"docs/**/*.md", "docs/x/y/a.md", true},
		{"docs/**/*.md", "docs/x/y/a.txt", false},
		{"**/old/**", "a/old/b/c.md", true},
		{"**/old/**", "old/c.md", true},
		{"**/old/**", "old", true},
		{"**/old/**", "older/c.md", false},
		{"**/*.md", "a.md", true},
		{"docs/**", "docs", true},
		{"a**b/c", "axyb/c", true},
		{"a**b/c", "ax/yb/c", false},
		{"**/**/x", "x", true},
		{"[a-c]/?.md", "b/z.md", true},
	} {
		t.Run(tt.pattern+" "+tt.name, func(t *testing.T) {
			got, err := loader.Match(tt.pattern, tt.name)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	for _, bad := range []string{"", "[a-", "docs/[", "a/\\"} {
		_, err := loader.Match(bad, "a")
		assert.ErrorIs(t, err, path.ErrBadPattern, "%q", bad)
	}
}

// FuzzMatch checks Match against path.Match, which it extends: a pattern
// without a "**" element matches as path.Match does (the last element for a pattern
// without a slash), "**/" before any pattern keeps every match, and no
// pattern or name takes long or panics.
func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"*.md", "a/b.md"}, {"docs/**/*.md", "docs/x/y/a.md"}, {"**/old/**", "old"},
		{"[a-", "a"}, {"a/**/**/b", "a/x/b"}, {"**", ""}, {"a//b", "a//b"}, {"\\*", "*"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if len(pattern) > 200 || len(name) > 400 {
			return
		}
		got, err := loader.Match(pattern, name)
		_, syntax := path.Match(pattern, "")
		if pattern == "" {
			require.Error(t, err)
			return
		}
		globstar := slices.Contains(strings.Split(pattern, "/"), "**")
		if globstar {
			require.True(t, err == nil || errors.Is(err, path.ErrBadPattern))
			require.False(t, syntax != nil && err == nil, "a pattern path.Match refuses is refused")
		} else {
			require.Equal(t, syntax, err, "a pattern is valid exactly when path.Match finds it valid")
		}
		if err != nil {
			require.False(t, got)
			return
		}
		if !globstar {
			target := name
			if !strings.Contains(pattern, "/") {
				target = name[strings.LastIndexByte(name, '/')+1:]
			}
			want, _ := path.Match(pattern, target)
			require.Equal(t, want, got)
		}
		if got && strings.Contains(pattern, "/") {
			wider, err := loader.Match("**/"+pattern, name)
			if err == nil { // else an escaped slash, which "**" patterns refuse
				require.True(t, wider, "**/ matches no folder as well")
			}
		}
	})
}
