package budget

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Status says how much of a section or an item was kept.
type Status int

const (
	// Preserved: kept whole. A section with no items is preserved.
	Preserved Status = iota
	// Truncated: kept in part. A section is truncated when it lost some
	// of its items or kept one of them cut; an item when it was cut.
	Truncated
	// Dropped: nothing kept.
	Dropped
)

var statusNames = [...]string{Preserved: "Preserved", Truncated: "Truncated", Dropped: "Dropped"}

// String returns the constant's Go name, or Status(N) for a value out of
// range. The report table of [Result.String] words statuses its own way.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return "Status(" + strconv.Itoa(int(s)) + ")"
	}
	return statusNames[s]
}

// A Message is one chat message of the assembled prompt; see [Section.Role].
type Message struct {
	Role    string
	Content string
	Section string // name of the section it comes from
	ID      string // the item's ID; empty for a message of a whole section
}

// An ItemReport says what became of one item.
type ItemReport struct {
	Index  int    // position in Section.Items
	ID     string // Item.ID
	Status Status // Preserved (kept whole), Truncated (cut) or Dropped
	// Text is the item's text as kept: Item.Text if preserved, the part
	// kept and the marker if truncated, empty if dropped.
	Text string
	// SpansKept says, for each of the item's protected spans
	// (Item.Keep), whether it is in Text whole: all true if the item was
	// preserved, all false if it was dropped. Nil for an item without
	// spans. It tells whether a passage's hits survived its cut.
	SpansKept []bool
}

// A SectionReport says what became of one section.
type SectionReport struct {
	Name     string
	Priority int
	Required bool
	// Budget is the section's MaxTokens (0: none); Extra is the budget it
	// received from other sections with [Config.Flow].
	Budget, Extra int
	// Tokens is the exact count of the section's block, Text[Start:End]
	// of the Result, the section's content as it appears in the final
	// text: heading, template and separators between its items included,
	// the separators between sections not. It never exceeds Budget+Extra
	// when the section has a budget and Assemble returned no error.
	Tokens     int
	Start, End int
	Status     Status
	// Limited reports that the section gave up content to make the whole
	// fit Limit - Reserve, beyond what its own budget asked.
	Limited bool
	Items   []ItemReport // one per item, in Section.Items order
}

// Count returns the number of the section's items with status s.
func (r SectionReport) Count(s Status) int {
	n := 0
	for _, it := range r.Items {
		if it.Status == s {
			n++
		}
	}
	return n
}

// A Result is an assembled prompt with its report.
type Result struct {
	// Text is the assembled prompt.
	Text string
	// Tokens is the Tokenizer's exact count of Text. Without an error it
	// is at most Limit - Reserve.
	Tokens int
	// Messages is the prompt as chat messages, for chat APIs; they carry
	// the same content as Text, without the separators between sections.
	// Chat formats add a few tokens per message: keep them in Reserve.
	Messages []Message
	// Sections reports on each section, in the order given to Assemble.
	Sections []SectionReport
	// Warnings notes what a caller may want to know: content given up to
	// fit the limit, cuts that fell back to a word boundary, and every
	// section with items that its own budget left empty, with the reason
	// (its heading and template alone exceed the budget, or its first
	// unit does not fit and cannot be cut to fit: no Cut, no boundary to
	// cut at, a marker longer than the budget).
	Warnings []string
	// Limit and Reserve repeat the Assembler's [Config].
	Limit, Reserve int
}

// Section returns the report of the section with the given name.
func (r Result) Section(name string) (SectionReport, bool) {
	for _, s := range r.Sections {
		if s.Name == name {
			return s, true
		}
	}
	return SectionReport{}, false
}

// String renders the report as a table, one row per section and a total:
//
//	section      | tokens | budget | use | status
//	-------------+--------+--------+-----+--------------------------------------------------------------
//	instructions |    161 |    255 | 63% | preserved
//	retrieval    |    315 |    550 | 57% | truncated (197 of 200 items dropped, 1 cut) to fit the limit
//	tool outputs |      0 |    855 |  0% | dropped (4 items) to fit the limit
//	-------------+--------+--------+-----+--------------------------------------------------------------
//	total        |    478 |    600 | 80% | limit 900, reserve 300
//
// The use of a section is its tokens as a share of its budget, rounded;
// "-" marks a section without a budget. A budget with extra from Flow
// reads "550+40". "to fit the limit" marks a section that gave up content
// to the limit rather than to its own budget.
func (r Result) String() string {
	rows := [][]string{{"section", "tokens", "budget", "use", "status"}}
	for _, s := range r.Sections {
		budget := s.Budget + s.Extra
		b := "-"
		if s.Budget > 0 {
			b = strconv.Itoa(s.Budget)
			if s.Extra > 0 {
				b += "+" + strconv.Itoa(s.Extra)
			}
		}
		rows = append(rows, []string{s.Name, strconv.Itoa(s.Tokens), b, percent(s.Tokens, budget), s.describe()})
	}
	avail := r.Limit - r.Reserve
	total := fmt.Sprintf("limit %d, reserve %d", r.Limit, r.Reserve)
	if r.Tokens > avail {
		total += ": does not fit"
	}
	rows = append(rows, []string{"total", strconv.Itoa(r.Tokens), strconv.Itoa(avail), percent(r.Tokens, avail), total})
	return table(rows)
}

func percent(n, of int) string {
	if of <= 0 {
		return "-"
	}
	return strconv.Itoa(int(math.Round(100*float64(n)/float64(of)))) + "%"
}

// describe renders the status column: the status, what was lost, and
// whether it was lost to the limit.
func (r SectionReport) describe() string {
	n, dropped, cut := len(r.Items), r.Count(Dropped), r.Count(Truncated)
	var s string
	switch {
	case r.Status == Preserved:
		s = "preserved"
	case r.Status == Dropped:
		s = fmt.Sprintf("dropped (%s)", items(n))
	case dropped > 0 && cut > 0:
		s = fmt.Sprintf("truncated (%d of %s dropped, %d cut)", dropped, items(n), cut)
	case dropped > 0:
		s = fmt.Sprintf("truncated (%d of %s dropped)", dropped, items(n))
	default:
		s = fmt.Sprintf("truncated (%d of %s cut)", cut, items(n))
	}
	if r.Limited {
		s += " to fit the limit"
	}
	return s
}

func items(n int) string {
	if n == 1 {
		return "1 item"
	}
	return strconv.Itoa(n) + " items"
}

// table aligns rows into columns separated by " | ", with rules under the
// header and above the last row. Columns 1 to 3 are numbers and align
// right; the last column is not padded.
func table(rows [][]string) string {
	width := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row {
			width[i] = max(width[i], len([]rune(cell)))
		}
	}
	var b strings.Builder
	rule := func() {
		for i, w := range width {
			if i > 0 {
				b.WriteString("-+-")
			}
			b.WriteString(strings.Repeat("-", w))
		}
		b.WriteByte('\n')
	}
	for r, row := range rows {
		if r == len(rows)-1 {
			rule()
		}
		for i, cell := range row {
			pad := strings.Repeat(" ", width[i]-len([]rune(cell)))
			switch {
			case i > 0 && i < 4:
				b.WriteString(" | " + pad + cell)
			case i == 4:
				b.WriteString(" | " + cell)
			default:
				b.WriteString(cell + pad)
			}
		}
		b.WriteByte('\n')
		if r == 0 {
			rule()
		}
	}
	return b.String()
}
