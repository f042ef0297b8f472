package retrieve

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/internal/parallel"
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
}

// Items returns one [budget.Item] per passage, in order: Text is the
// passage's text (after its label, if [ItemConfig.Label] gives one), ID
// names the document and the passage's units ("doc#3-5", or "doc#4" for
// one unit), and Rank follows the order, from len(passages) for the first
// down to 1, so that [budget.DropLowestRank] keeps the best passages
// longest. A passage with an empty or white-space text, or a text or
// label that is not valid UTF-8, gives an error that names it; no
// passages give no items and no error.
func Items(passages []Passage, cfg ItemConfig) ([]budget.Item, error) {
	if len(passages) == 0 {
		return nil, nil
	}
	items := make([]budget.Item, len(passages))
	for i, p := range passages {
		id := passageID(p)
		text, err := render(p, cfg.Label)
		if err != nil {
			return nil, fmt.Errorf("%w: passage %d (%s)", err, i, id)
		}
		items[i] = budget.Item{Text: text, ID: id, Rank: float64(len(passages) - i), Role: cfg.Role}
	}
	return items, nil
}

// render returns a passage's text with its label, if any, on the line
// before it.
func render(p Passage, label func(Passage) string) (string, error) {
	if !utf8.ValidString(p.Text) {
		return "", ErrInvalidUTF8
	}
	if strings.TrimSpace(p.Text) == "" {
		return "", ErrEmptyText
	}
	if label == nil {
		return p.Text, nil
	}
	l, err := parallel.Call(func() (string, error) { return label(p), nil })
	if err != nil {
		return "", err
	}
	if !utf8.ValidString(l) {
		return "", ErrInvalidUTF8
	}
	if l == "" {
		return p.Text, nil
	}
	return l + "\n" + p.Text, nil
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
