package parse

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ragkit/ragkit/document"
)

// maxKey is the longest value of a key column used as a row's identity.
const maxKey = 80

// CSV reads a table of comma-separated (comma ',', or ';' when the header
// row holds more semicolons than commas) or tab-separated values (comma
// '\t') whose first row is the header.
//
// Each row is a section of its own, "column: value" lines under a
// heading that identifies the row: "<first column>: <value>" when the
// first column's values are all different and short (a key, such as an
// ID or a name), else "Row N". A row read as "column: value" lines means
// what it says in any chunk, with or without the header row, and a
// heading per row makes the rows the chunker's strongest cuts, so that
// a changed row changes its own chunk and no other. Empty values are left
// out. A mark per row gives its Row (1-based, the header not counted)
// and Line.
func CSV(data string, comma rune) (document.Document, error) {
	if comma == ',' {
		first, _, _ := strings.Cut(data, "\n")
		if strings.Count(first, ";") > strings.Count(first, ",") {
			comma = ';'
		}
	}
	r := csv.NewReader(strings.NewReader(data))
	r.Comma = comma
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	header, err := r.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return document.Document{Format: document.Markdown}, nil
		}
		return document.Document{}, fmt.Errorf("the header row: %w", err)
	}
	for i := range header {
		header[i] = oneLine(header[i])
	}
	type row struct {
		fields []string
		line   int
	}
	var rows []row
	keys := map[string]bool{}
	unique := header[0] != ""
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return document.Document{}, err
		}
		line, _ := r.FieldPos(0)
		if len(rec) == 1 && rec[0] == "" {
			continue
		}
		if unique {
			k := oneLine(rec[0])
			if k == "" || len(k) > maxKey || keys[k] {
				unique = false
			}
			keys[k] = true
		}
		rows = append(rows, row{rec, line})
	}
	var w writer
	for n, rw := range rows {
		w.block()
		w.mark(document.Mark{Row: n + 1, Line: rw.line})
		if unique {
			w.heading(2, header[0]+": "+oneLine(rw.fields[0]))
		} else {
			w.heading(2, "Row "+strconv.Itoa(n+1))
		}
		w.sb.WriteByte('\n')
		for i, f := range rw.fields {
			f = oneLine(f)
			if f == "" {
				continue
			}
			name := "column " + strconv.Itoa(i+1)
			if i < len(header) && header[i] != "" {
				name = header[i]
			}
			w.sb.WriteString(name + ": " + f + "\n")
		}
	}
	return w.doc("", document.Markdown), nil
}
