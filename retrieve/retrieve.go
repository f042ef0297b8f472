package retrieve

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

var (
	// ErrEmptyText reports a hit whose Text is empty or white space: it
	// would render as nothing in the prompt, and budget refuses it.
	ErrEmptyText = errors.New("retrieve: text is empty or white space")
	// ErrInvalidUTF8 reports a hit's text or label that is not valid
	// UTF-8.
	ErrInvalidUTF8 = errors.New("retrieve: text is not valid UTF-8")
	// ErrScore reports a hit whose Score is NaN, which has no rank.
	ErrScore = errors.New("retrieve: score is NaN")
)

// ItemConfig says how [Items] renders hits. The zero value makes each
// item's text the hit's text alone.
type ItemConfig struct {
	// Label, if set, returns a line of provenance for an item (its source
	// and section, say), put before the item's text on a line of its
	// own, where a model can cite it. An empty label adds nothing.
	Label func(o Origin) string
	// Role is the chat role of every item (see [budget.Item]); empty
	// leaves it to the section.
	Role string
}

// An Origin says where an item's text comes from, for its label.
type Origin struct {
	// DocID is the document's ID.
	DocID string
	// Start and End are the text's byte offsets in the document, End
	// exclusive; both zero when the records carry no offsets.
	Start, End int
	// Metadata is the record's metadata. Do not modify it.
	Metadata map[string]string
}

// Items returns one [budget.Item] per hit, in order: Text is the hit's text
// (after its label, if [ItemConfig.Label] gives one), ID the record's ID
// and Rank its Score, so that [budget.DropLowestRank] keeps the best hits
// longest. A hit with an empty or white-space text, text or label that is
// not valid UTF-8, or a NaN score gives an error that names it; nil or no
// hits give no items and no error.
func Items(hits []vectorstore.Hit, cfg ItemConfig) ([]budget.Item, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	items := make([]budget.Item, len(hits))
	for i, h := range hits {
		o := Origin{DocID: h.DocID, Start: h.Start, End: h.End, Metadata: h.Metadata}
		text, err := render(h.Text, o, cfg.Label)
		if err != nil {
			return nil, fmt.Errorf("%w: hit %d (ID %q)", err, i, h.ID)
		}
		if math.IsNaN(float64(h.Score)) {
			return nil, fmt.Errorf("%w: hit %d (ID %q)", ErrScore, i, h.ID)
		}
		items[i] = budget.Item{Text: text, ID: h.ID, Rank: float64(h.Score), Role: cfg.Role}
	}
	return items, nil
}

// render returns a text with its label, if any, on the line before it.
func render(text string, o Origin, label func(Origin) string) (string, error) {
	if !utf8.ValidString(text) {
		return "", ErrInvalidUTF8
	}
	if strings.TrimSpace(text) == "" {
		return "", ErrEmptyText
	}
	if label == nil {
		return text, nil
	}
	l := label(o)
	if !utf8.ValidString(l) {
		return "", ErrInvalidUTF8
	}
	if l == "" {
		return text, nil
	}
	return l + "\n" + text, nil
}

// WindowItems returns one [budget.Item] per window, in order: Text is the
// window's text (after its label, if [ItemConfig.Label] gives one), and ID
// names the document and the window's units ("doc#3-5", or "doc#4" for a
// window of one unit). The windows must be best first, as
// [window.Expander.Expand] (by their best hit's score) and
// [window.Extractor.Extract] (by their value) return them: Rank follows
// that order, from len(windows) for the first down to 1 for the last, so
// that [budget.DropLowestRank] keeps the best windows longest. The label's
// Origin holds the window's document and offsets, and the metadata of its
// best hit. Errors are those of [Items], naming the window.
func WindowItems(windows []window.Window, cfg ItemConfig) ([]budget.Item, error) {
	if len(windows) == 0 {
		return nil, nil
	}
	items := make([]budget.Item, len(windows))
	for i, w := range windows {
		id := w.DocID + "#" + strconv.Itoa(w.First)
		if w.Last != w.First {
			id += "-" + strconv.Itoa(w.Last)
		}
		o := Origin{DocID: w.DocID, Start: w.Start, End: w.End}
		if len(w.Hits) > 0 {
			o.Metadata = w.Hits[0].Metadata
		}
		text, err := render(w.Text, o, cfg.Label)
		if err != nil {
			return nil, fmt.Errorf("%w: window %d (%s)", err, i, id)
		}
		items[i] = budget.Item{Text: text, ID: id, Rank: float64(len(windows) - i), Role: cfg.Role}
	}
	return items, nil
}
