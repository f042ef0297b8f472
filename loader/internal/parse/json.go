package parse

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ragkit/ragkit/document"
)

// idKeys are the fields, in order of preference, whose value identifies
// an object of an array of objects in its heading.
var idKeys = []string{"id", "name", "title", "key"}

// A jsonRow is one element of a top-level array, or one line of JSON
// Lines, read into "path: value" lines.
type jsonRow struct {
	lines string
	id    string // the heading's identity, "" if none
	line  int
}

// JSON reads a JSON file into "path: value" lines ("server.ports[0]:
// 8080"), scalars as written in the file, strings on one line.
//
// A top-level array is read as rows, each element a section of its own
// under a heading that identifies it ("id: 42", from its first field
// among id, name, title and key, when those values are all different;
// else "Row N"), with a mark giving its Row and Line. A top-level
// object's scalar fields come first; each field whose value is an array
// or an object is a section under the field's name, with a mark of its
// Line; the objects of an array field are rows of its section, under
// headings of their identity or "field[i]". The Title is the top-level object's "title" or "name" string.
// Nesting deeper than [MaxDepth] is an error wrapping [ErrLimit].
func JSON(data string) (document.Document, error) {
	starts := lineStarts(data)
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return document.Document{}, syntaxError(err)
	}
	var w writer
	title := ""
	switch tok {
	case json.Delim('['):
		var rows []jsonRow
		for dec.More() {
			line := lineOf(starts, nextValue(data, int(dec.InputOffset())))
			row, err := readValue(dec, "", 1)
			if err != nil {
				return document.Document{}, err
			}
			row.line = line
			rows = append(rows, row)
		}
		if _, err := dec.Token(); err != nil {
			return document.Document{}, syntaxError(err)
		}
		writeRows(&w, rows)
	case json.Delim('{'):
		var head, body writer
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return document.Document{}, syntaxError(err)
			}
			key, _ := k.(string)
			at := nextValue(data, int(dec.InputOffset()))
			line := lineOf(starts, at)
			if at < len(data) && data[at] == '[' {
				// An array field: its objects are rows of a section.
				body.block()
				body.mark(document.Mark{Line: line})
				body.heading(2, key)
				if err := arrayRows(&body, dec, data, starts, key); err != nil {
					return document.Document{}, err
				}
				continue
			}
			row, err := readValue(dec, key, 1)
			if err != nil {
				return document.Document{}, err
			}
			if row.id == "\x00scalar" {
				head.sb.WriteString(row.lines)
				if v, ok := strings.CutPrefix(row.lines, key+": "); ok && title == "" && (key == "title" || key == "name") {
					title = strings.TrimSuffix(v, "\n")
				}
				continue
			}
			body.block()
			body.mark(document.Mark{Line: line})
			body.heading(2, key)
			body.sb.WriteByte('\n')
			body.sb.WriteString(row.lines)
		}
		if head.sb.Len() > 0 {
			w.mark(document.Mark{Line: 1})
			w.sb.WriteString(head.sb.String())
		}
		if body.sb.Len() > 0 {
			w.block()
			base := w.sb.Len()
			for _, m := range body.marks {
				m.Offset += base
				w.marks = append(w.marks, m)
			}
			w.sb.WriteString(body.sb.String())
		}
		if _, err := dec.Token(); err != nil {
			return document.Document{}, syntaxError(err)
		}
	default:
		w.sb.WriteString(scalarText(tok) + "\n")
	}
	if _, err := dec.Token(); err == nil || !errors.Is(err, io.EOF) {
		if err == nil {
			return document.Document{}, errors.New("more than one value: for JSON Lines, name the file .jsonl")
		}
		return document.Document{}, syntaxError(err)
	}
	return w.doc(title, document.Markdown), nil
}

// JSONLines reads a file of one JSON value per line, each line a row as
// the elements of a top-level array are in [JSON]; blank lines are
// skipped, a line that is not JSON is an error naming it.
func JSONLines(data string) (document.Document, error) {
	var rows []jsonRow
	line := 0
	for rest := data; rest != ""; {
		var l string
		l, rest, _ = strings.Cut(rest, "\n")
		line++
		if strings.TrimSpace(l) == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(l))
		dec.UseNumber()
		row, err := readValue(dec, "", 1)
		if err != nil {
			return document.Document{}, fmt.Errorf("line %d: %w", line, err)
		}
		if dec.More() {
			return document.Document{}, fmt.Errorf("line %d: more than one value", line)
		}
		row.line = line
		rows = append(rows, row)
	}
	var w writer
	writeRows(&w, rows)
	return w.doc("", document.Markdown), nil
}

// arrayRows reads the array of a top-level object's field key into its
// section: the scalars and arrays among its elements as "key[i]: value"
// lines, then its objects as rows, each under a heading of level 3 (its
// identity, else "key[i]"), with a mark of its Row (its index, 1-based)
// and Line.
func arrayRows(w *writer, dec *json.Decoder, data string, starts []int, key string) error {
	if _, err := dec.Token(); err != nil {
		return syntaxError(err)
	}
	var lines strings.Builder
	var rows []jsonRow
	var index []int
	for i := 0; dec.More(); i++ {
		at := nextValue(data, int(dec.InputOffset()))
		path := key + "[" + strconv.Itoa(i) + "]"
		if at < len(data) && data[at] == '{' {
			row, err := readValue(dec, "", 2)
			if err != nil {
				return err
			}
			row.line = lineOf(starts, at)
			rows, index = append(rows, row), append(index, i)
			continue
		}
		row, err := readValue(dec, path, 2)
		if err != nil {
			return err
		}
		lines.WriteString(row.lines)
	}
	if _, err := dec.Token(); err != nil {
		return syntaxError(err)
	}
	if lines.Len() > 0 {
		w.block()
		w.sb.WriteString(lines.String())
	}
	unique := uniqueIDs(rows)
	for n, r := range rows {
		w.block()
		w.mark(document.Mark{Row: index[n] + 1, Line: r.line})
		if unique {
			w.heading(3, r.id)
		} else {
			w.heading(3, key+"["+strconv.Itoa(index[n])+"]")
		}
		w.sb.WriteByte('\n')
		w.sb.WriteString(r.lines)
	}
	return nil
}

// uniqueIDs reports whether every row has an identity, each different.
func uniqueIDs(rows []jsonRow) bool {
	seen := map[string]bool{}
	for _, r := range rows {
		if r.id == "" || r.id == "\x00scalar" || seen[r.id] {
			return false
		}
		seen[r.id] = true
	}
	return true
}

// writeRows writes rows as sections, each under a heading of its
// identity if the rows' identities are all different, else "Row N".
func writeRows(w *writer, rows []jsonRow) {
	unique := uniqueIDs(rows)
	for n, r := range rows {
		w.block()
		w.mark(document.Mark{Row: n + 1, Line: r.line})
		if unique {
			w.heading(2, r.id)
		} else {
			w.heading(2, "Row "+strconv.Itoa(n+1))
		}
		w.sb.WriteByte('\n')
		w.sb.WriteString(r.lines)
	}
}

// A frame is an array or object being read.
type frame struct {
	array bool
	path  string
	next  int // the next element's index, in an array
}

// readValue reads the next value of dec, whose path is path, into
// "path: value" lines, without recursion; depth is the nesting of the
// value. A scalar's row has the id "\x00scalar"; an object's the
// "field: value" of its first identifying field.
func readValue(dec *json.Decoder, path string, depth int) (jsonRow, error) {
	var sb strings.Builder
	var stack []frame
	row := jsonRow{}
	ids := map[string]string{}
	child := func(f *frame, key string) string {
		if f.array {
			p := f.path + "[" + strconv.Itoa(f.next) + "]"
			f.next++
			return p
		}
		if f.path == "" {
			return key
		}
		return f.path + "." + key
	}
	p, key := path, ""
	for {
		tok, err := dec.Token()
		if err != nil {
			return row, syntaxError(err)
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '[' || t == '{' {
				if depth+len(stack) > MaxDepth {
					return row, fmt.Errorf("%w: nested deeper than %d arrays and objects", ErrLimit, MaxDepth)
				}
				stack = append(stack, frame{array: t == '[', path: p})
			} else {
				stack = stack[:len(stack)-1]
			}
		default:
			if len(stack) == 0 {
				row.id = "\x00scalar"
			}
			if p == "" {
				sb.WriteString(scalarText(tok) + "\n")
			} else {
				sb.WriteString(p + ": " + scalarText(tok) + "\n")
			}
			if len(stack) == 1 && !stack[0].array {
				ids[key] = scalarText(tok)
			}
		}
		if len(stack) == 0 {
			break
		}
		top := &stack[len(stack)-1]
		if !dec.More() {
			continue
		}
		if top.array {
			p = child(top, "")
			continue
		}
		k, err := dec.Token()
		if err != nil {
			return row, syntaxError(err)
		}
		key, _ = k.(string)
		p = child(top, key)
	}
	row.lines = sb.String()
	if row.id == "" {
		for _, k := range idKeys {
			if v := ids[k]; v != "" && len(v) <= maxKey {
				row.id = k + ": " + v
				break
			}
		}
	}
	return row, nil
}

// scalarText returns a JSON scalar as text: a string on one line, a
// number as written, true, false or null.
func scalarText(tok json.Token) string {
	switch v := tok.(type) {
	case string:
		return oneLine(v)
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return "null"
	}
	return fmt.Sprint(tok)
}

// syntaxError says where a JSON file stops being JSON.
func syntaxError(err error) error {
	if errors.Is(err, io.EOF) {
		return errors.New("unexpected end of JSON")
	}
	return err
}

// nextValue returns the offset of the next value of data from off, past
// white space, commas and colons.
func nextValue(data string, off int) int {
	for off < len(data) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	return off
}
