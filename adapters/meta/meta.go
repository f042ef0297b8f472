package meta

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ragkit/ragkit/vectorstore"
)

// Keys of a framework document's metadata that stand for a record's or a
// passage's fields.
const (
	// IDKey holds the record's ID.
	IDKey = "ragkit.id"
	// DocIDKey holds the ID of the document the unit belongs to.
	DocIDKey = "ragkit.doc"
	// IndexKey holds the unit's position in its document, from 0, as an int.
	IndexKey = "ragkit.index"
	// StartKey and EndKey hold the unit's byte offsets in its document,
	// as ints, End exclusive; both are absent when the record has none.
	StartKey = "ragkit.start"
	EndKey   = "ragkit.end"
	// TokensKey holds a chunk's exact token count by the chunker's
	// Tokenizer, as an int. It is not stored: a store recounts nothing.
	TokensKey = "ragkit.tokens"
	// EmbedTextKey holds the text to embed for a chunk when it is not the
	// chunk's own text: its contextual header, a separator and the chunk.
	// The adapters' stores embed it and do not store it.
	EmbedTextKey = "ragkit.embed_text"
	// ScoreKey holds a hit's score, as a float64, for frameworks whose
	// documents have no score of their own (Genkit).
	ScoreKey = "ragkit.score"
	// ScoreKindKey holds the name of the hit's [ScoreKind].
	ScoreKindKey = "ragkit.score_kind"
	// TitleKey, SourceKey and SectionKey hold the record's Title, Source
	// and Section (its headings joined by newlines, a heading being one
	// line), as strings, where they are not empty.
	TitleKey   = "ragkit.title"
	SourceKey  = "ragkit.source"
	SectionKey = "ragkit.section"
	// LocationKey holds the record's Location, where it is not zero, as a
	// JSON object ({"page": 3, "last_page": 4}; the fields of
	// document.Location in snake case, zero ones left out).
	LocationKey = "ragkit.location"
	// NotesKey holds the record's Notes, the library's bookkeeping (the
	// header keyword search reads, the gap windows rebuild text with, what
	// a re-index reuses), where there are any, as a JSON object
	// ({"keywords": "...", "gap": "\n\n"}; the fields of vectorstore.Notes
	// in snake case, empty ones left out).
	NotesKey = "ragkit.notes"
	// LastKey holds the Index of a passage's last unit, as an int;
	// IndexKey holds its first. A passage of one unit has none.
	LastKey = "ragkit.last"
	// HitSpansKey and FocusKey hold a passage's HitSpans and Focus (byte
	// spans inside its text that a budget cut keeps longest), as a string
	// of "start-end" pairs joined by commas, where it has them.
	HitSpansKey = "ragkit.hit_spans"
	FocusKey    = "ragkit.focus"
)

// Errors of the conversions, wrapped with the key or option at fault.
var (
	// ErrUnsupported reports a metadata value, filter, option or document
	// that has no meaning in ragkit (or none in the framework): the
	// adapters refuse it rather than guess.
	ErrUnsupported = errors.New("meta: cannot be mapped")
	// ErrEmbedding reports an embedder that returned a number of vectors
	// other than the number of texts, or values a float32 cannot hold.
	ErrEmbedding = errors.New("meta: embedder returned unusable vectors")
)

// ScoreKind says what a hit's score measures. Scores of different kinds
// are not comparable.
type ScoreKind int

const (
	// Cosine is the cosine similarity of a vector search, in [-1, 1].
	Cosine ScoreKind = iota
	// Keyword is a keyword search's relevance (BM25 for
	// memory.Store): 0 or more, unbounded.
	Keyword
	// Fused is a score made from ranks by vectorstore.Fuse or
	// vectorstore.Hybrid; it orders the hits of one query and means
	// nothing on its own.
	Fused
)

var scoreKindNames = [...]string{Cosine: "Cosine", Keyword: "Keyword", Fused: "Fused"}

// String returns the kind's name, such as "Cosine".
func (k ScoreKind) String() string {
	if k < 0 || int(k) >= len(scoreKindNames) {
		return "ScoreKind(" + strconv.Itoa(int(k)) + ")"
	}
	return scoreKindNames[k]
}

// CheckThreshold returns nil if t is a score threshold that means something
// for scores of kind k: a number in [-1, 1] for Cosine. Any threshold on a
// Keyword or Fused score gives an error wrapping [ErrUnsupported], since
// neither scale has a fixed meaning.
func CheckThreshold(k ScoreKind, t float64) error {
	if k != Cosine {
		return fmt.Errorf("%w: a score threshold on %v scores, which have no fixed scale", ErrUnsupported, k)
	}
	if !(t >= -1 && t <= 1) {
		return fmt.Errorf("%w: score threshold %v: a cosine threshold lies in [-1, 1]", ErrUnsupported, t)
	}
	return nil
}

// Encode returns the string a record stores for a metadata value v (see
// the package documentation for the rules), or an error wrapping
// [ErrUnsupported].
func Encode(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case int:
		return strconv.Itoa(v), nil
	case int8, int16, int32, int64:
		return strconv.FormatInt(toInt64(v), 10), nil
	case uint, uint8, uint16, uint32, uint64, uintptr:
		return strconv.FormatUint(toUint64(v), 10), nil
	case float32:
		return encodeFloat(float64(v), v)
	case float64:
		return encodeFloat(v, v)
	case json.Number:
		return v.String(), nil
	case time.Time:
		return v.UTC().Format(time.RFC3339Nano), nil
	case nil:
		return "", fmt.Errorf("%w: a nil value", ErrUnsupported)
	}
	return "", fmt.Errorf("%w: a value of type %T", ErrUnsupported, v)
}

func toInt64(v any) int64 {
	switch v := v.(type) {
	case int8:
		return int64(v)
	case int16:
		return int64(v)
	case int32:
		return int64(v)
	}
	return v.(int64)
}

func toUint64(v any) uint64 {
	switch v := v.(type) {
	case uint:
		return uint64(v)
	case uint8:
		return uint64(v)
	case uint16:
		return uint64(v)
	case uint32:
		return uint64(v)
	case uintptr:
		return uint64(v)
	}
	return v.(uint64)
}

// encodeFloat writes f as encoding/json does (v is f at its own width, so
// that a float32 is written with float32 precision).
func encodeFloat(f float64, v any) (string, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", fmt.Errorf("%w: the number %v", ErrUnsupported, f)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnsupported, err)
	}
	return string(b), nil
}

// Strings encodes every value of m with [Encode]. The error names the
// first key (in sorted order) whose value cannot be encoded. A nil or empty m
// gives nil.
func Strings(m map[string]any) (map[string]string, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(m))
	for _, k := range sortedKeys(m) {
		s, err := Encode(m[k])
		if err != nil {
			return nil, fmt.Errorf("metadata %q: %w", k, err)
		}
		out[k] = s
	}
	return out, nil
}

// FromRecord returns the framework metadata of r: its Metadata (as string
// values), and its ID, DocID and Index under [IDKey], [DocIDKey] and
// [IndexKey], its offsets under [StartKey] and [EndKey] unless both are
// zero, and its provenance and notes as [AddProvenance] puts them.
// [ToRecord] turns it back into r without its vector.
func FromRecord(r vectorstore.Record) map[string]any {
	out := make(map[string]any, len(r.Metadata)+5)
	for k, v := range r.Metadata {
		out[k] = v
	}
	out[IDKey] = r.ID
	out[DocIDKey] = r.DocID
	out[IndexKey] = r.Index
	if r.Start != 0 || r.End != 0 {
		out[StartKey] = r.Start
		out[EndKey] = r.End
	}
	AddProvenance(out, r)
	return out
}

// AddProvenance puts r's Title, Source, Section, Location and Notes into
// m under [TitleKey], [SourceKey], [SectionKey], [LocationKey] and
// [NotesKey], each where it is not empty.
func AddProvenance(m map[string]any, r vectorstore.Record) {
	for key, v := range map[string]string{TitleKey: r.Title, SourceKey: r.Source, SectionKey: strings.Join(r.Section, "\n")} {
		if v != "" {
			m[key] = v
		}
	}
	if !r.Location.IsZero() {
		js, _ := json.Marshal(r.Location) // ints and a string always marshal
		m[LocationKey] = string(js)
	}
	if r.Notes != (vectorstore.Notes{}) {
		js, _ := json.Marshal(r.Notes) // strings always marshal
		m[NotesKey] = string(js)
	}
}

// takeProvenance moves the provenance and notes keys of m into r.
func takeProvenance(m map[string]any, r *vectorstore.Record) error {
	var err error
	var section, loc, nt string
	for _, f := range []struct {
		key string
		dst *string
	}{{TitleKey, &r.Title}, {SourceKey, &r.Source}, {SectionKey, &section}, {LocationKey, &loc}, {NotesKey, &nt}} {
		if *f.dst, err = takeString(m, f.key); err != nil {
			return err
		}
	}
	if section != "" {
		r.Section = strings.Split(section, "\n")
	}
	if loc != "" {
		if err := json.Unmarshal([]byte(loc), &r.Location); err != nil {
			return fmt.Errorf("metadata %q: %w: %v", LocationKey, ErrUnsupported, err)
		}
	}
	if nt != "" {
		if err := json.Unmarshal([]byte(nt), &r.Notes); err != nil {
			return fmt.Errorf("metadata %q: %w: %v", NotesKey, ErrUnsupported, err)
		}
	}
	return nil
}

// FromHit is [FromRecord] with the hit's score and its kind under
// [ScoreKey] and [ScoreKindKey].
func FromHit(h vectorstore.Hit, kind ScoreKind) map[string]any {
	out := FromRecord(h.Record)
	out[ScoreKey] = float64(h.Score)
	out[ScoreKindKey] = kind.String()
	return out
}

// Unit is what [ToRecord] reads from a framework document besides its
// record: the text to embed.
type Unit struct {
	vectorstore.Record
	// EmbedText is the text to embed: the document's [EmbedTextKey] if
	// it has one, else its text.
	EmbedText string
	// Placed reports that the metadata gave the unit's Index ([IndexKey]).
	// [Number] numbers the units that were not placed.
	Placed bool
}

// ToRecord converts a framework document's text and metadata into a record
// (without a vector), by the rules of the package documentation:
//
//   - DocID is metadata[DocIDKey]; failing that metadata[docIDKey], if
//     docIDKey is not empty (a loader's "source", say); failing that an ID
//     made from the text, "sha256:" and 16 hex digits of its SHA-256, so
//     that the same text written twice is one record, not two.
//   - Index, Start and End are metadata[IndexKey], [StartKey] and [EndKey]
//     if present (ints, integral floats, json.Numbers or decimal strings),
//     else 0; see [Number] for the units of a write that have no Index.
//   - ID is metadata[IDKey]; else, with an Index or an ID made from the
//     text, DocID, "#" and Index, the IDs of window.Sentences; else DocID,
//     "#" and 16 hex digits of the
//     SHA-256 of the text, so that the chunks of one document made by a
//     framework's own splitter, which carry its document's ID but no place,
//     are records of their own rather than one record replaced by the next.
//   - Title, Source, Section, Location and Notes are those of
//     [TitleKey], [SourceKey], [SectionKey], [LocationKey] and [NotesKey]
//     (strings; the last two JSON), if present.
//   - Metadata is every other key, encoded with [Encode]; [TokensKey],
//     [ScoreKey], [ScoreKindKey], [LastKey] and [EmbedTextKey] are dropped.
//
// A value that cannot be encoded, or a field key with a value of the wrong
// type, gives an error wrapping [ErrUnsupported]. The record is not checked
// further: the store refuses what vectorstore.CheckRecords refuses.
func ToRecord(text string, m map[string]any, docIDKey string) (Unit, error) {
	u := Unit{Record: vectorstore.Record{Text: text}, EmbedText: text}
	var err error
	rest := maps.Clone(m)
	var made bool
	if u.DocID, made, err = docID(text, rest, docIDKey); err != nil {
		return Unit{}, err
	}
	delete(rest, DocIDKey)
	_, u.Placed = rest[IndexKey]
	for _, f := range []struct {
		key string
		dst *int
	}{{IndexKey, &u.Index}, {StartKey, &u.Start}, {EndKey, &u.End}} {
		if *f.dst, err = takeInt(rest, f.key); err != nil {
			return Unit{}, err
		}
	}
	if u.ID, err = takeString(rest, IDKey); err != nil {
		return Unit{}, err
	}
	if u.ID == "" {
		if u.Placed || made {
			u.ID = u.DocID + "#" + strconv.Itoa(u.Index)
		} else {
			sum := sha256.Sum256([]byte(text))
			u.ID = u.DocID + "#" + hex.EncodeToString(sum[:8])
		}
	}
	embed, err := takeString(rest, EmbedTextKey)
	if err != nil {
		return Unit{}, err
	}
	if embed != "" {
		u.EmbedText = embed
	}
	for _, k := range []string{TokensKey, ScoreKey, ScoreKindKey, LastKey} {
		delete(rest, k)
	}
	if err := takeProvenance(rest, &u.Record); err != nil {
		return Unit{}, err
	}
	if u.Metadata, err = Strings(rest); err != nil {
		return Unit{}, err
	}
	return u, nil
}

// Number gives the units of one write that were not placed (see
// [Unit.Placed]) their Index: the units of each document are numbered in the
// order given, from 0, as a framework's splitter returns a document's chunks
// in order. Two of them with the same ID (the same text in one document) get
// "-1", "-2", ... after the second and later ones' IDs, so that both are
// kept. A later write numbers its units from 0 again: write a document's
// chunks in one call, or place them (an adapter's splitter does).
func Number(units []Unit) {
	next := make(map[string]int)
	seen := make(map[string]int)
	for i := range units {
		u := &units[i]
		if u.Placed {
			continue
		}
		u.Index = next[u.DocID]
		next[u.DocID]++
		if n := seen[u.ID]; n > 0 {
			seen[u.ID]++
			u.ID += "-" + strconv.Itoa(n)
		} else {
			seen[u.ID] = 1
		}
	}
}

// DocID returns the ID of the document that a framework's document with
// this text and metadata belongs to, by the rule of [ToRecord].
func DocID(text string, m map[string]any, docIDKey string) (string, error) {
	id, _, err := docID(text, m, docIDKey)
	return id, err
}

// docID is DocID, and reports whether it made the ID from the text.
func docID(text string, m map[string]any, docIDKey string) (id string, made bool, err error) {
	if v, ok := m[DocIDKey]; ok {
		s, ok := v.(string)
		if !ok {
			return "", false, fmt.Errorf("metadata %q: %w: a value of type %T where a string belongs", DocIDKey, ErrUnsupported, v)
		}
		if s != "" {
			return s, false, nil
		}
	}
	if v, ok := m[docIDKey]; ok && docIDKey != "" {
		s, err := Encode(v)
		if err != nil {
			return "", false, fmt.Errorf("metadata %q: %w", docIDKey, err)
		}
		if s != "" {
			return s, false, nil
		}
	}
	sum := sha256.Sum256([]byte(text))
	return "sha256:" + hex.EncodeToString(sum[:8]), true, nil
}

// takeString removes m[key] and returns it; it must be a string.
func takeString(m map[string]any, key string) (string, error) {
	v, ok := m[key]
	if !ok {
		return "", nil
	}
	delete(m, key)
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("metadata %q: %w: a value of type %T where a string belongs", key, ErrUnsupported, v)
	}
	return s, nil
}

// takeInt removes m[key] and returns it as an int.
func takeInt(m map[string]any, key string) (int, error) {
	v, ok := m[key]
	if !ok {
		return 0, nil
	}
	delete(m, key)
	n, ok := toInt(v)
	if !ok {
		return 0, fmt.Errorf("metadata %q: %w: %T %v is not an integer", key, ErrUnsupported, v, v)
	}
	return n, nil
}

func toInt(v any) (int, bool) {
	switch v := v.(type) {
	case int:
		return v, true
	case int32:
		return int(v), true
	case int64:
		return int(v), int64(int(v)) == v
	case float64:
		// JSON brings integers back as float64.
		if v == math.Trunc(v) && math.Abs(v) <= 1<<53 {
			return int(v), true
		}
	case json.Number:
		n, err := strconv.Atoi(v.String())
		return n, err == nil
	case string:
		n, err := strconv.Atoi(v)
		return n, err == nil
	}
	return 0, false
}
