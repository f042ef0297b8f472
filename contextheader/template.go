package contextheader

import (
	"slices"
	"strings"
)

// A template is a Metadata part's Template split into literal text and
// keys: pieces alternate literal, key, literal, ..., literal.
type template struct {
	pieces []string
	all    bool // an empty Template: every field, sorted
}

// parseTemplate reads {key} placeholders, where a key is one or more
// letters, digits, '_', '-' or '.'; any other brace is literal text.
func parseTemplate(t string) template {
	if t == "" {
		return template{all: true}
	}
	var pieces []string
	lit := 0
	for i := 0; i < len(t); i++ {
		if t[i] != '{' {
			continue
		}
		j := i + 1
		for j < len(t) && keyByte(t[j]) {
			j++
		}
		if j == i+1 || j == len(t) || t[j] != '}' {
			continue
		}
		pieces = append(pieces, t[lit:i], t[i+1:j])
		lit, i = j+1, j
	}
	return template{pieces: append(pieces, t[lit:])}
}

func keyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
}

// render fills the template from md. It returns "" when the template names
// keys and none of them has a value.
func (t template) render(md map[string]string) string {
	var b strings.Builder
	if t.all {
		keys := make([]string, 0, len(md))
		for k, v := range md {
			if strings.TrimSpace(v) != "" {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(k + ": " + md[k])
		}
		return b.String()
	}
	found := len(t.pieces) == 1
	for i, p := range t.pieces {
		if i%2 == 0 {
			b.WriteString(p)
			continue
		}
		v := md[p]
		found = found || strings.TrimSpace(v) != ""
		b.WriteString(v)
	}
	if !found {
		return ""
	}
	return b.String()
}
