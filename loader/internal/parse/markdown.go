package parse

import (
	"strings"

	"github.com/ragkit/ragkit/document"
)

// maxFields is the most front-matter fields kept as metadata; the rest
// are dropped, so that a file cannot make a record's metadata huge.
const maxFields = 64

// maxValue is the longest front-matter value kept, in bytes.
const maxValue = 1024

// Markdown reads a Markdown file. YAML front matter (between "---"
// lines) or TOML front matter (between "+++" lines) at its start is left
// out of the Text: its title is the document's Title, and its other
// top-level fields with a scalar or list value are its Metadata (lists
// joined by ", "). A mark gives the line the text starts at when front
// matter was taken out.
func Markdown(data string) document.Document {
	d := document.Document{Text: data, Format: document.Markdown}
	fence := ""
	switch {
	case strings.HasPrefix(data, "---"):
		fence = "---"
	case strings.HasPrefix(data, "+++"):
		fence = "+++"
	default:
		return d
	}
	lines := strings.SplitAfter(data, "\n")
	if strings.TrimRight(lines[0], " \t\r\n") != fence {
		return d
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t\r\n")
		if l == fence || fence == "---" && l == "..." {
			end = i
			break
		}
	}
	if end < 0 {
		return d
	}
	var fields [][2]string
	if fence == "---" {
		fields = yamlFields(lines[1:end])
	} else {
		fields = tomlFields(lines[1:end])
	}
	meta := map[string]string{}
	for _, f := range fields {
		if strings.EqualFold(f[0], "title") && d.Title == "" {
			d.Title = oneLine(f[1])
			continue
		}
		if len(meta) < maxFields && f[1] != "" {
			v := f[1]
			if len(v) > maxValue {
				v = strings.ToValidUTF8(v[:maxValue], "")
			}
			meta[f[0]] = v
		}
	}
	if len(meta) > 0 {
		d.Metadata = meta
	}
	off := 0
	for _, l := range lines[:end+1] {
		off += len(l)
	}
	d.Text = data[off:]
	d.Marks = []document.Mark{{Offset: 0, Line: end + 2}}
	return d
}

// yamlFields returns the top-level fields of YAML front matter with a
// scalar value, a flow list ("[a, b]") or a block list ("- a" lines), or
// a folded or literal block (">" or "|"), in order.
func yamlFields(lines []string) [][2]string {
	var out [][2]string
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t\r\n")
		if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' || l[0] == '-' {
			continue
		}
		key, value, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		key, value = strings.TrimSpace(unquote(strings.TrimSpace(key))), strings.TrimSpace(value)
		var items []string
		for i+1 < len(lines) {
			next := strings.TrimRight(lines[i+1], " \t\r\n")
			if next != "" && next[0] != ' ' && next[0] != '\t' && next[0] != '-' {
				break
			}
			i++
			t := strings.TrimSpace(next)
			if item, ok := strings.CutPrefix(t, "- "); ok {
				items = append(items, unquote(strings.TrimSpace(item)))
			} else if t != "" && (value == ">" || value == "|" || strings.HasPrefix(value, ">") || strings.HasPrefix(value, "|")) {
				items = append(items, t)
			}
		}
		switch {
		case value == "" && len(items) > 0:
			value = strings.Join(items, ", ")
		case strings.HasPrefix(value, ">") || strings.HasPrefix(value, "|"):
			value = strings.Join(items, " ")
		default:
			value = scalar(value)
		}
		out = append(out, [2]string{key, value})
	}
	return out
}

// tomlFields returns the fields of TOML front matter with a string,
// number, boolean, date or array value; a field under a [table] is named
// "table.key".
func tomlFields(lines []string) [][2]string {
	var out [][2]string
	table := ""
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || l[0] == '#' {
			continue
		}
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			table = strings.Trim(l, "[] ") + "."
			continue
		}
		key, value, ok := strings.Cut(l, "=")
		if !ok {
			continue
		}
		key = unquote(strings.TrimSpace(key))
		if table != "" {
			key = table + key
		}
		out = append(out, [2]string{key, scalar(strings.TrimSpace(value))})
	}
	return out
}

// scalar returns a YAML or TOML value as text: quotes taken off, a flow
// list's items joined by ", ", a trailing comment dropped.
func scalar(v string) string {
	if strings.HasPrefix(v, "[") {
		inner := strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
		var items []string
		for _, it := range strings.Split(inner, ",") {
			if it = unquote(strings.TrimSpace(it)); it != "" {
				items = append(items, it)
			}
		}
		return strings.Join(items, ", ")
	}
	if len(v) > 0 && v[0] != '"' && v[0] != '\'' {
		if i := strings.Index(v, " #"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
	}
	return unquote(v)
}

// unquote takes the quotes off a quoted string; a string that is not
// quoted is returned as it is.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		inner := s[1 : len(s)-1]
		if s[0] == '"' {
			inner = strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, " ", `\t`, " ").Replace(inner)
		} else {
			inner = strings.ReplaceAll(inner, "''", "'")
		}
		return inner
	}
	return s
}
