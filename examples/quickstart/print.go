package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/retrieve"
)

// printDocuments prints the run's setup and, per document, its chunks and
// their sizes.
func printDocuments(w io.Writer, o options, m *models, ix *index) {
	source := "the embedded corpus"
	if o.dir != "" {
		source = o.dir
	}
	fmt.Fprintf(w, "ragkit quickstart: %d documents from %s, chunks of at most %d tokens\n%s\n\n",
		len(ix.docs), source, o.maxTokens, m.describe())
	rows := [][]string{{"document", "chunks", "tokens"}}
	lo, hi := 0, 0
	for i, d := range ix.docs {
		l, h := tokenRange(ix.chunks[i])
		rows = append(rows, []string{d.id, fmt.Sprint(len(ix.chunks[i])), fmt.Sprintf("%d-%d", l, h)})
		if i == 0 || l < lo {
			lo = l
		}
		hi = max(hi, h)
	}
	rows = append(rows, []string{"total", fmt.Sprint(ix.total()), fmt.Sprintf("%d-%d", lo, hi)})
	for _, l := range table(rows, "  ") {
		fmt.Fprintln(w, l)
	}
}

// printPassages prints the retrieved passages as a table, best first
// (by the scores of the hits they hold, the strongest first): the score of
// its best hit, how many hits it holds, its document and section (from
// the records), its chunks and tokens, each followed by the start of its
// text.
func printPassages(w io.Writer, ps []retrieve.Passage) {
	rows := [][]string{{"#", "score", "hits", "source", "section", "chunks", "tokens"}}
	for i, p := range ps {
		section := strings.Join(p.Section, " > ")
		if section == "" {
			section = "-"
		}
		rows = append(rows, []string{
			fmt.Sprint(i + 1), fmt.Sprintf("%.4f", p.Score), fmt.Sprint(len(p.Hits)), p.DocID, section,
			fmt.Sprintf("%d-%d", p.First, p.Last), fmt.Sprint(p.Tokens),
		})
	}
	lines := table(rows, "  ")
	fmt.Fprintln(w, lines[0])
	for i, p := range ps {
		fmt.Fprintln(w, lines[i+1])
		fmt.Fprintf(w, "      %s\n", excerpt(p.Text, 96))
	}
}

// table aligns rows into columns: text columns to the left, numeric ones
// (every cell after the header starts with a digit) to the right.
func table(rows [][]string, gap string) []string {
	width := make([]int, len(rows[0]))
	numeric := make([]bool, len(rows[0]))
	for c := range numeric {
		numeric[c] = len(rows) > 1
	}
	for r, row := range rows {
		for c, cell := range row {
			width[c] = max(width[c], utf8.RuneCountInString(cell))
			if r > 0 && (cell == "" || cell[0] < '0' || cell[0] > '9') {
				numeric[c] = false
			}
		}
	}
	lines := make([]string, len(rows))
	for r, row := range rows {
		var b strings.Builder
		for c, cell := range row {
			if c > 0 {
				b.WriteString(gap)
			}
			pad := strings.Repeat(" ", width[c]-utf8.RuneCountInString(cell))
			if numeric[c] {
				b.WriteString(pad + cell)
			} else {
				b.WriteString(cell)
				if c < len(row)-1 {
					b.WriteString(pad)
				}
			}
		}
		lines[r] = b.String()
	}
	return lines
}

// excerpt returns the start of a chunk's text on one line, without
// Markdown headings (the section column names them), cut at a word to at
// most n characters.
func excerpt(text string, n int) string {
	var words []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		words = append(words, strings.Fields(line)...)
	}
	s := strings.Join(words, " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := 0
	for i := range s {
		if utf8.RuneCountInString(s[:i]) > n-1 {
			break
		}
		if s[i] == ' ' {
			cut = i
		}
	}
	if cut == 0 {
		cut = len(string([]rune(s)[:n-1]))
	}
	return s[:cut] + " …"
}

// tokenRange returns the fewest and most tokens of the chunks.
func tokenRange(chunks []chunker.Chunk) (lo, hi int) {
	for i, c := range chunks {
		if i == 0 || c.Tokens < lo {
			lo = c.Tokens
		}
		hi = max(hi, c.Tokens)
	}
	return lo, hi
}
