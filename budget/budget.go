package budget

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/space"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

// Errors returned by this package wrap one of these; test for them with
// [errors.Is]. The message after the sentinel says what is wrong and where.
var (
	// ErrConfig is returned by [New] for a Config it cannot work with (a
	// missing Tokenizer, a Limit that is not positive, a Reserve that
	// leaves no room, a Separator or Marker that is not valid UTF-8), and
	// by Assemble of the zero or a nil [Assembler].
	ErrConfig = errors.New("budget: invalid configuration")
	// ErrInvalid is returned by Assemble for sections or items it cannot
	// assemble: a section's name empty or repeated, a negative MaxTokens,
	// an unknown Strategy or Cut, a Template without [Placeholder] exactly
	// once, text that is not valid UTF-8, an item whose Text is empty or
	// white space, a Rank that is NaN.
	ErrInvalid = errors.New("budget: invalid input")
	// ErrTokenizer is returned when the Tokenizer returns a negative
	// count.
	ErrTokenizer = errors.New("budget: Tokenizer returned a negative count")
	// ErrRequiredTooLarge is returned when required content cannot fit:
	// a required section's anchor exceeds the section's MaxTokens, or the
	// required content of all sections exceeds Limit minus Reserve. The
	// [Result] returned with it is still filled in; see [Assembler.Assemble].
	ErrRequiredTooLarge = errors.New("budget: required content does not fit")
)

// Placeholder marks where a section's items go in its Template.
const Placeholder = "{content}"

// Defaults used when the corresponding field is empty.
const (
	DefaultSeparator = "\n\n" // between sections, and between the items of a section
	DefaultMarker    = "[…]"  // marks where text was cut
	DefaultRole      = "user" // the role of an item message when neither item nor section has one
)

// A Strategy decides which content of a section gives way first when the
// section must shrink, and whether the item at the boundary may be cut.
//
// Content is shed in whole units: an item, or all the items that share a
// Group key. Units are ranked by how long they are kept; the section keeps
// a prefix of that ranking (it never skips a unit to fit a smaller one
// after it), and, where the strategy allows, the first unit that does not
// fit whole may be kept in part, cut at a sentence boundary or, if not
// even one sentence fits, at a word boundary; a unit that cannot be cut
// even at a word is dropped. A cut is marked with [Config.Marker].
// Kept items are always rendered in their order in Section.Items,
// whatever the strategy.
type Strategy int

const (
	// TruncateEnd gives up content from the end of the section: the last
	// item first, and the item at the boundary is cut at its end. It is the
	// zero value: a section of one long text is shortened from its end.
	TruncateEnd Strategy = iota
	// TruncateStart gives up content from the start: the first item first,
	// and the item at the boundary is cut at its start.
	TruncateStart
	// DropLowestRank drops items in ascending Rank (for equal ranks, the
	// later item in Items first). With Cut set, the best-ranked item that
	// does not fit whole may be kept in part.
	DropLowestRank
	// DropOldest drops items oldest first, by Time (for equal times,
	// including unset ones, the earlier item in Items is older). With Cut
	// set, the oldest surviving item may be kept in part.
	DropOldest
	// KeepNewest drops older items, oldest first, to keep the newest item
	// (the current question) whole. The newest item is the section's
	// anchor: it is never cut, and it survives as long as the section
	// does. With Cut set, the oldest surviving older item may be kept in
	// part.
	KeepNewest
)

var strategyNames = [...]string{
	TruncateEnd:    "TruncateEnd",
	TruncateStart:  "TruncateStart",
	DropLowestRank: "DropLowestRank",
	DropOldest:     "DropOldest",
	KeepNewest:     "KeepNewest",
}

// String returns the constant's Go name, or Strategy(N) for a value out
// of range.
func (s Strategy) String() string {
	if s < 0 || int(s) >= len(strategyNames) {
		return "Strategy(" + strconv.Itoa(int(s)) + ")"
	}
	return strategyNames[s]
}

// Cut says whether the drop strategies may keep the boundary item in
// part, and which end of its text they cut. TruncateEnd and TruncateStart
// always cut (at the end and at the start) and ignore it.
type Cut int

const (
	// NoCut keeps whole items only (the zero value).
	NoCut Cut = iota
	// CutEnd keeps the start of the boundary item and cuts its end.
	CutEnd
	// CutStart keeps the end of the boundary item and cuts its start.
	CutStart
)

var cutNames = [...]string{NoCut: "NoCut", CutEnd: "CutEnd", CutStart: "CutStart"}

// String returns the constant's Go name, or Cut(N) for a value out of
// range.
func (c Cut) String() string {
	if c < 0 || int(c) >= len(cutNames) {
		return "Cut(" + strconv.Itoa(int(c)) + ")"
	}
	return cutNames[c]
}

// An Item is one piece of a section's content: a retrieved chunk, a
// message of the conversation, a remembered fact, a tool call or result.
type Item struct {
	// Text is the item's content: required, valid UTF-8, with at least
	// one character that is not white space. An empty or white-space-only
	// Text is an error wrapping ErrInvalid, as it would render as
	// nothing but spacing.
	Text string
	// ID identifies the item in the report. It need not be unique; the
	// report also gives the item's index in Section.Items.
	ID string
	// Rank orders items for DropLowestRank: higher is kept longer (a
	// similarity score, for instance). NaN is an error.
	Rank float64
	// Time orders items for DropOldest and KeepNewest: later is newer.
	// Items with equal (or unset) times are ordered by their position in
	// Section.Items, later being newer, so a conversation in order needs
	// no times.
	Time time.Time
	// Role is the chat role of the item's message ("user", "assistant",
	// "tool", ...) in [Result.Messages]; see [Section.Role].
	Role string
	// Group ties items together: items of one section with the same
	// non-empty Group are kept or dropped as one unit, such as a tool call
	// and its result. A group is kept as long as its longest-kept member
	// would be on its own (its best Rank, its newest Time, its earliest
	// position under TruncateEnd, its latest under TruncateStart), ties
	// included: a group tied in Rank with another item is ordered by the
	// position of its best-ranked member, not of its first one. If the
	// group is the boundary unit and may be cut, only its last member
	// (CutEnd) or first member (CutStart) in Items order is cut.
	Group string
	// Keep holds protected spans: byte offsets into Text, most important
	// first (the best search hit of a passage, then the next). An item
	// with spans that must be cut keeps them longest: the cut gives up
	// the text farthest from them first, at sentence boundaries, and
	// marks with [Config.Marker] each stretch it leaves out, before,
	// between and after the stretches it keeps, each marker set off from
	// the kept text by the break the text had there (blank line, line
	// break or space). The sentences of the first span go last; only if
	// not even they fit are they cut at words, from the span's start.
	// The Cut side then says only which member of a group is cut.
	// [ItemReport.SpansKept] says which spans survived. Each span must
	// have 0 <= Start < End <= len(Text). Empty means the strategy's own
	// cut: the end or the start of the text.
	Keep []segment.Span
}

// A Section is one part of the prompt, with its own budget and priority.
//
// A section's content is rendered as its kept items in Items order, joined
// by Separator, preceded by Heading and a newline if Heading is set, and
// placed into Template if Template is set. A section with no kept items
// renders nothing at all, not even its heading. Its size is the
// Tokenizer's count of exactly that rendered block, which is the substring
// Result.Text[Start:End] of its report: heading, template and the
// separators between its items count against the section's budget; the
// separators between sections do not (they count against the Limit).
type Section struct {
	// Name identifies the section in the report; required and unique.
	Name string
	// Priority orders sections when the whole prompt must shrink: lower
	// priorities give up content first. Among equal priorities, the
	// section listed later gives up content first.
	Priority int
	// MaxTokens is the section's budget. 0 means the section has no budget
	// of its own and only the Assembler's limit applies. Negative is an
	// error.
	MaxTokens int
	// Required sections are never dropped. Their anchor (the unit their
	// strategy keeps longest: the first item under TruncateEnd, the last
	// under TruncateStart, the best-ranked under DropLowestRank, the
	// newest under DropOldest and KeepNewest, with its group, ties broken
	// as the strategy breaks them) is never cut either; other content of
	// theirs may still be shed. If the anchors cannot fit, Assemble
	// returns an error wrapping ErrRequiredTooLarge.
	Required bool
	// Strategy decides which content gives way first; see [Strategy].
	Strategy Strategy
	// Cut lets the drop strategies keep the boundary item in part.
	Cut Cut
	// Heading, if set, is rendered on its own line before the items.
	Heading string
	// Template, if set, must contain Placeholder once; the heading and
	// items are rendered in its place, such as "<context>\n{content}\n</context>".
	Template string
	// Separator joins the section's items; empty means DefaultSeparator.
	Separator string
	// Role, if set, makes the whole section one message of that role in
	// [Result.Messages]. If empty, each kept item is a message of its own
	// with the item's Role (or DefaultRole); heading and template are then
	// not part of the messages.
	Role string
	// Items are the section's content, in the order they are rendered.
	Items []Item
}

// Config configures an [Assembler]. Tokenizer and Limit are required;
// every other field's zero value means the default.
type Config struct {
	// Tokenizer counts tokens as the model does; required.
	Tokenizer tokencount.Tokenizer
	// Limit is the model's context window in tokens; required, positive.
	Limit int
	// Reserve is the number of tokens kept free for the answer: the
	// assembled text has at most Limit - Reserve tokens. It must be at
	// least 0 and less than Limit; 0 reserves nothing.
	Reserve int
	// Separator joins the sections' rendered blocks; empty means
	// [DefaultSeparator]. Sections that render nothing get no separator.
	Separator string
	// Marker marks a cut: it follows a text cut at its end and precedes a
	// text cut at its start, with a space between. Empty means
	// [DefaultMarker].
	Marker string
	// Flow lets budget that sections leave unused flow to sections that
	// were cut to their own budget, highest priority first (among equal
	// priorities, the section listed first). The pool is the sum, over
	// sections with a MaxTokens, of MaxTokens minus the tokens used; a
	// section's extra budget is reported as [SectionReport.Extra]. Off by
	// default: each section stays within its own MaxTokens.
	Flow bool
}

// An Assembler fits sections into a model's context window. Make one with
// [New]. The zero Assembler, and a nil *Assembler, have no Tokenizer:
// their Assemble returns an error wrapping [ErrConfig]. An Assembler is safe for
// concurrent use if its Tokenizer is.
type Assembler struct {
	cfg Config
}

// New validates cfg and returns an Assembler. Its errors wrap [ErrConfig]
// and name the field.
func New(cfg Config) (*Assembler, error) {
	if err := validate(cfg); err != nil {
		return nil, err
	}
	return &Assembler{cfg: cfg}, nil
}

// Config returns the configuration a was made with, as given to [New]:
// empty fields are not replaced by their defaults. A nil Assembler
// returns the zero Config.
func (a *Assembler) Config() Config {
	if a == nil {
		return Config{}
	}
	return a.cfg
}

// errNoTokenizer is the error of a Config without a Tokenizer.
var errNoTokenizer = fmt.Errorf("%w: Tokenizer is required", ErrConfig)

func validate(cfg Config) error {
	switch {
	case cfg.Tokenizer == nil:
		return errNoTokenizer
	case cfg.Limit <= 0:
		return fmt.Errorf("%w: Limit is %d: must be positive", ErrConfig, cfg.Limit)
	case cfg.Reserve < 0 || cfg.Reserve >= cfg.Limit:
		return fmt.Errorf("%w: Reserve is %d: must be at least 0 and less than Limit (%d)", ErrConfig, cfg.Reserve, cfg.Limit)
	case !utf8.ValidString(cfg.Separator):
		return fmt.Errorf("%w: Separator is not valid UTF-8", ErrConfig)
	case !utf8.ValidString(cfg.Marker):
		return fmt.Errorf("%w: Marker is not valid UTF-8", ErrConfig)
	}
	return nil
}

func validateSections(sections []Section) error {
	seen := make(map[string]bool, len(sections))
	for i := range sections {
		s := &sections[i]
		if s.Name == "" || seen[s.Name] {
			return fmt.Errorf("%w: section %d is named %q: names must be non-empty and unique", ErrInvalid, i, s.Name)
		}
		seen[s.Name] = true
		if err := validateSection(s); err != nil {
			return err
		}
	}
	return nil
}

// badSpan returns the index of the first of it.Keep that is empty or not
// within its text, or -1.
func badSpan(it *Item) int {
	for k, s := range it.Keep {
		if s.Start < 0 || s.Start >= s.End || s.End > len(it.Text) {
			return k
		}
	}
	return -1
}

func validateSection(s *Section) error {
	switch {
	case s.MaxTokens < 0:
		return fmt.Errorf("%w: section %q: MaxTokens is %d: must not be negative", ErrInvalid, s.Name, s.MaxTokens)
	case s.Strategy < TruncateEnd || s.Strategy > KeepNewest:
		return fmt.Errorf("%w: section %q: unknown Strategy %v", ErrInvalid, s.Name, s.Strategy)
	case s.Cut < NoCut || s.Cut > CutStart:
		return fmt.Errorf("%w: section %q: unknown Cut %v", ErrInvalid, s.Name, s.Cut)
	case s.Template != "" && strings.Count(s.Template, Placeholder) != 1:
		return fmt.Errorf("%w: section %q: Template %q must contain %s exactly once", ErrInvalid, s.Name, s.Template, Placeholder)
	case !utf8.ValidString(s.Heading) || !utf8.ValidString(s.Template) || !utf8.ValidString(s.Separator):
		return fmt.Errorf("%w: section %q: Heading, Template or Separator is not valid UTF-8", ErrInvalid, s.Name)
	}
	for j := range s.Items {
		it := &s.Items[j]
		var why string
		switch {
		case space.Skip(it.Text, 0, len(it.Text)) == len(it.Text):
			why = "Text is empty or white space"
		case !utf8.ValidString(it.Text):
			why = "Text is not valid UTF-8"
		case math.IsNaN(it.Rank):
			why = "Rank is NaN"
		case badSpan(it) >= 0:
			k := badSpan(it)
			why = fmt.Sprintf("Keep span %d is [%d, %d): it must have 0 <= Start < End <= len(Text) (%d)",
				k, it.Keep[k].Start, it.Keep[k].End, len(it.Text))
		default:
			continue
		}
		return fmt.Errorf("%w: section %q: item %d (ID %q): %s", ErrInvalid, s.Name, j, it.ID, why)
	}
	return nil
}
