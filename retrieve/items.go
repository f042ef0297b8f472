package retrieve

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/internal/parallel"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

var (
	// ErrEmptyText reports a passage whose Text is empty or white space:
	// it would render as nothing in the prompt, and budget refuses it.
	ErrEmptyText = errors.New("retrieve: text is empty or white space")
	// ErrInvalidUTF8 reports a passage's text or label that is not
	// valid UTF-8.
	ErrInvalidUTF8 = errors.New("retrieve: text is not valid UTF-8")
	// ErrPanic means a function of the caller's (the Embedder, the store,
	// the Widener, a Label) panicked during a call: the call fails with
	// an error wrapping ErrPanic instead of taking the program down. It
	// is the ErrPanic of packages contextheader and ingest.
	ErrPanic = parallel.ErrPanic
)

// ItemConfig says how [Items] renders passages. The zero value makes each
// item's text the passage's text alone.
type ItemConfig struct {
	// Label, if set, returns a line of provenance for a passage, put
	// before its text on a line of its own, where a model can cite it;
	// [Citation] is one. An empty label adds nothing.
	Label func(p Passage) string
	// Role is the chat role of every item (see [budget.Item]); empty
	// leaves it to the section.
	Role string
	// Room, if positive, is the tokens the items will have together in
	// the prompt: the context section's budget, less its heading. Items
	// then sizes the passages to share it, so that one long passage (a
	// segment that grew to a whole document) cannot take the whole
	// budget and push the next passage's best hit out: the best passage
	// gets the most room, the i'th (from 1) 1/√i of it, each at least
	// [MinShare] tokens (fewer passages get room where the room cannot
	// give that much; the budget drops the others), and a passage shorter
	// than its share leaves the rest to the others. A passage longer than
	// its share is cut to it as the budget cuts, keeping its protected
	// spans first. Zero leaves passages whole, for the budget alone to
	// cut. It needs Tokenizer.
	Room int
	// Tokenizer counts the items for Room: the prompt's tokenizer.
	Tokenizer tokencount.Tokenizer
}

// Items returns one [budget.Item] per passage, in order: Text is the
// passage's text (after its label, if [ItemConfig.Label] gives one), ID
// names the document and the passage's units ("doc#3-5", or "doc#4" for
// one unit), and Rank follows the order, from len(passages) for the first
// down to 1, so that [budget.DropLowestRank] keeps the best passages
// longest.
//
// A passage that starts inside a Markdown table gets the table's header
// rows before its text, when its hits' contextual headers hold them (a
// contextheader Table part), so that the rows the model reads keep their
// column names; they count in the item's tokens.
//
// Keep, the item's protected spans, holds the header rows, then the
// passage's Focus and HitSpans (moved past the label and header rows),
// then the label, so that a cut keeps the likely answer and its hits
// (with the column names their rows need) first and gives up the text
// farthest from them (see [budget.Item]). With [ItemConfig.Room] a
// passage cut to its share keeps, as its spans, what survived of them.
//
// A passage with an empty or white-space text, or a text or label that
// is not valid UTF-8, gives an error that names it; no passages give no
// items and no error.
func Items(passages []Passage, cfg ItemConfig) ([]budget.Item, error) {
	if len(passages) == 0 {
		return nil, nil
	}
	var fit *budget.Assembler
	switch {
	case cfg.Room < 0:
		return nil, fmt.Errorf("%w: ItemConfig.Room is %d: must not be negative", ErrConfig, cfg.Room)
	case cfg.Room > 0 && cfg.Tokenizer == nil:
		return nil, fmt.Errorf("%w: ItemConfig.Tokenizer is required with Room", ErrConfig)
	case cfg.Room > 0:
		var err error
		if fit, err = budget.New(budget.Config{Tokenizer: cfg.Tokenizer, Limit: math.MaxInt}); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
	}
	items := make([]budget.Item, len(passages))
	for i, p := range passages {
		id := passageID(p)
		text, labelLen, headLen, err := render(p, cfg.Label)
		if err != nil {
			return nil, fmt.Errorf("%w: passage %d (%s)", err, i, id)
		}
		items[i] = budget.Item{Text: text, ID: id, Rank: float64(len(passages) - i), Role: cfg.Role,
			Keep: keepSpans(p, len(text)-len(p.Text), labelLen, headLen)}
	}
	if cfg.Room > 0 {
		if err := share(fit, cfg.Tokenizer, items, cfg.Room); err != nil {
			return nil, err
		}
	}
	return items, nil
}

// keepSpans returns the protected spans of a passage's item: the header
// rows of its table (headLen bytes after the label), which the rows kept
// need to be read; then the passage's Focus and HitSpans that lie within
// its text, moved by off, the bytes of what comes before it; then the
// label of labelLen bytes, the source a model cites.
func keepSpans(p Passage, off, labelLen, headLen int) []segment.Span {
	var keep []segment.Span
	if headLen > 0 {
		s := 0
		if labelLen > 0 {
			s = labelLen + 1
		}
		keep = append(keep, segment.Span{Start: s, End: s + headLen})
	}
	for _, spans := range [][]segment.Span{p.Focus, p.HitSpans} {
		for _, s := range spans {
			if s.Start >= 0 && s.Start < s.End && s.End <= len(p.Text) {
				keep = append(keep, segment.Span{Start: s.Start + off, End: s.End + off})
			}
		}
	}
	if labelLen > 0 {
		keep = append(keep, segment.Span{Start: 0, End: labelLen})
	}
	return keep
}

// sizeItem cuts it to maxTokens with fit, keeping its protected spans
// first; what survives of each span (one span per stretch of the cut it
// lies in) is a protected span of the cut item, in the same order. An
// item that cannot be cut to fit is returned whole, for the budget to
// drop.
func sizeItem(fit *budget.Assembler, it budget.Item, maxTokens int) (budget.Item, error) {
	res, err := fit.Assemble(budget.Section{Name: "passage", MaxTokens: maxTokens, Items: []budget.Item{it}})
	if err != nil {
		return it, err
	}
	r := res.Sections[0].Items[0]
	if r.Status != budget.Truncated {
		return it, nil
	}
	orig, keep := it.Text, it.Keep
	it.Text, it.Keep = r.Text, nil
	// The pieces between markers are stretches of the original text, in
	// order: each maps a range of it into the cut text.
	type piece struct{ from, to, at int }
	var pieces []piece
	from, at := 0, 0
	for _, p := range strings.Split(r.Text, budget.DefaultMarker) {
		s, e := at, at+len(p)
		at = e + len(budget.DefaultMarker)
		s, e = s+len(p)-len(strings.TrimLeft(p, " \n")), e-(len(p)-len(strings.TrimRight(p, " \n")))
		if s >= e {
			continue
		}
		i := strings.Index(orig[from:], r.Text[s:e])
		if i < 0 {
			return it, nil // a marker inside the text: no spans rather than wrong ones
		}
		pieces = append(pieces, piece{from + i, from + i + e - s, s})
		from += i + e - s
	}
	for _, k := range keep {
		for _, p := range pieces {
			if s, e := max(k.Start, p.from), min(k.End, p.to); s < e {
				it.Keep = append(it.Keep, segment.Span{Start: p.at + s - p.from, End: p.at + e - p.from})
			}
		}
	}
	return it, nil
}

// render returns a passage's text as the model reads it: its label, if
// any, on the line before it, then the header rows of the table it starts
// inside, if its hits know them, then Text; and the bytes of the label
// and of the header rows.
func render(p Passage, label func(Passage) string) (text string, labelLen, headLen int, err error) {
	if !utf8.ValidString(p.Text) {
		return "", 0, 0, ErrInvalidUTF8
	}
	if strings.TrimSpace(p.Text) == "" {
		return "", 0, 0, ErrEmptyText
	}
	text = p.Text
	if head := tableHead(p); head != "" {
		text, headLen = head+"\n"+text, len(head)
	}
	if label == nil {
		return text, 0, headLen, nil
	}
	l, err := parallel.Call(func() (string, error) { return label(p), nil })
	if err != nil {
		return "", 0, 0, err
	}
	if !utf8.ValidString(l) {
		return "", 0, 0, ErrInvalidUTF8
	}
	if l == "" {
		return text, 0, headLen, nil
	}
	return l + "\n" + text, len(l), headLen, nil
}

// tableHead returns the header rows (header line and delimiter line) of
// the Markdown table that p starts inside, or "" if it starts elsewhere
// or at the table's own head. They come from the contextual header of the
// passage's first hit in document order that has table header rows in
// its header (the record's Notes.Keywords, as package ingest
// stores a contextheader header with a Table part): the model reads the
// column names the search saw.
func tableHead(p Passage) string {
	first, _, _ := strings.Cut(strings.TrimLeft(p.Text, " \t\r\n"), "\n")
	if !strings.Contains(first, "|") {
		return ""
	}
	best := -1
	head := ""
	for _, h := range p.Hits {
		if best >= 0 && h.Index >= best {
			continue
		}
		if hd := headRows(h.Notes.Keywords); hd != "" {
			best, head = h.Index, hd
		}
	}
	if head == "" || strings.Contains(p.Text, head[:strings.IndexByte(head, '\n')]) {
		return ""
	}
	return head
}

// headRows returns the first line of header that is followed by a table
// delimiter line, with that line, or "".
func headRows(header string) string {
	lines := strings.Split(header, "\n")
	for i := 0; i+1 < len(lines); i++ {
		if strings.Contains(lines[i], "|") && delimiterRow(lines[i+1]) {
			return lines[i] + "\n" + lines[i+1]
		}
	}
	return ""
}

// delimiterRow reports whether line is a Markdown table's delimiter
// row: pipes, dashes, colons and spaces, with a pipe and a dash.
func delimiterRow(line string) bool {
	line = strings.TrimSpace(line)
	if !strings.Contains(line, "|") || !strings.Contains(line, "-") {
		return false
	}
	return strings.Trim(line, "|-: \t") == ""
}

// Citation is a label for [ItemConfig.Label]: the passage's title (or,
// without one, its document's ID) and its section path, in square
// brackets, such as "[Travel policy, Hotels > Asia]". A first heading that
// repeats the title is left out, as headers leave it out.
func Citation(p Passage) string {
	src := p.Title
	if src == "" {
		src = p.DocID
	}
	section := p.Section
	if len(section) > 0 && section[0] == p.Title {
		section = section[1:] // a first heading that repeats the title
	}
	if len(section) == 0 {
		return "[" + src + "]"
	}
	return "[" + src + ", " + strings.Join(section, " > ") + "]"
}
