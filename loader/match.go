package loader

import (
	"path"
	"slices"
	"strings"
)

// Match reports whether the slash path name (relative to the root, such
// as "docs/guides/setup.md") matches pattern, as Config.Include and
// Config.Exclude use it:
//
//   - A pattern without a slash matches the last element of name, at any
//     depth: "*.md" matches "a.md" and "docs/a.md", "drafts" matches the
//     folder "notes/drafts".
//   - A pattern with a slash matches the whole of name, element by
//     element, each element as [path.Match] reads it: "docs/*.md"
//     matches "docs/a.md" but not "docs/old/a.md".
//   - "**" as a whole element matches any number of elements, none
//     included: "docs/**/*.md" matches "docs/a.md" and "docs/x/y/a.md",
//     "**/old/**" anything under a folder named old. Elsewhere "**" is
//     the same as "*". In a pattern with such an element a slash
//     cannot be escaped ("\\/" is malformed).
//
// Matching is case-sensitive. The error, for a malformed pattern (such as
// "[a-"), wraps [path.ErrBadPattern]; an empty pattern is malformed too.
func Match(pattern, name string) (bool, error) {
	if pattern == "" {
		return false, path.ErrBadPattern
	}
	if _, err := path.Match(pattern, ""); err != nil {
		return false, err
	}
	if elems := strings.Split(pattern, "/"); slices.Contains(elems, "**") {
		for _, e := range elems {
			if _, err := path.Match(e, ""); err != nil {
				return false, err // an escaped slash ("\\/") cannot be an element's end
			}
		}
	}
	return matchValid(pattern, name), nil
}

// matchValid is Match for a pattern known to be valid: the loader checks
// its patterns once, in New, not for every file.
func matchValid(pattern, name string) bool {
	var ok bool
	switch {
	case !strings.Contains(pattern, "/"):
		ok, _ = path.Match(pattern, name[strings.LastIndexByte(name, '/')+1:])
	case !strings.Contains(pattern, "**"):
		ok, _ = path.Match(pattern, name)
	default:
		elems := strings.Split(pattern, "/")
		if !slices.Contains(elems, "**") {
			ok, _ = path.Match(pattern, name)
		} else {
			ok = matchElements(elems, strings.Split(name, "/"))
		}
	}
	return ok
}

// matchElements matches a valid pattern's elements against a name's, in
// time proportional to the product of their numbers: done[j] says whether
// the pattern's elements from i on match the name's from j on.
func matchElements(pat, name []string) bool {
	done := make([]bool, len(name)+1)
	done[len(name)] = true
	next := make([]bool, len(name)+1)
	for i := len(pat) - 1; i >= 0; i-- {
		for j := len(name); j >= 0; j-- {
			switch {
			case pat[i] == "**":
				next[j] = done[j] || (j < len(name) && next[j+1])
			case j < len(name):
				ok, _ := path.Match(pat[i], name[j]) // the pattern is valid: Match checked it
				next[j] = ok && done[j+1]
			default:
				next[j] = false
			}
		}
		done, next = next, done
	}
	return done[0]
}

// patterns is a list of valid patterns.
type patterns []string

// match reports whether name matches one of the patterns.
func (ps patterns) match(name string) bool {
	for _, p := range ps {
		if matchValid(p, name) {
			return true
		}
	}
	return false
}
