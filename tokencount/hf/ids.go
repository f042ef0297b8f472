package hf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Encoding is the input of a model for one sequence or a pair of
// sequences: the token ids, with the post-processor's special tokens, and
// the type id (segment) of each, as the library's encode returns them.
type Encoding struct {
	IDs     []int32
	TypeIDs []int32
}

// An Encoder gives the token ids of texts, what a model such as BERT is
// fed, as the library's tokenizer.encode gives them. It also counts,
// through its Tokenizer, so that one file serves a model and the chunker
// that sizes its input. Ids are given for the WordPiece model (BERT and
// the embedders built on it) with the TemplateProcessing or
// BertProcessing post-processor, or none; LoadEncoder refuses other
// files with an error wrapping ErrUnsupported. An Encoder is safe for
// concurrent use.
type Encoder struct {
	tok   *Tokenizer
	wp    *wordPiece
	unk   int32
	added map[string]int32 // added tokens by content, raw and normalized
	// The post-processor's templates; nil when it adds nothing.
	single, pair []templateItem
}

// templateItem is one part of a post-processor template: special tokens
// (seq < 0) or sequence A (seq 0) or B (seq 1), with its type id.
type templateItem struct {
	seq    int
	ids    []int32
	typeID int32
}

// LoadEncoderFile reads the tokenizer.json at path. See LoadEncoder.
func LoadEncoderFile(path string, opts Options) (*Encoder, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("hf: %w", err)
	}
	defer f.Close()
	return LoadEncoder(f, opts)
}

// LoadEncoder reads a Hugging Face tokenizer.json from r, as Load does,
// for its token ids. opts configures the Encoder's Tokenizer (its counts);
// IDs never adds special tokens and Encode always does, whatever
// opts.AddSpecialTokens says.
func LoadEncoder(r io.Reader, opts Options) (*Encoder, error) {
	// Load reads all of r, within its bounds; the ids need the file again.
	var data bytes.Buffer
	tok, err := Load(io.TeeReader(r, &data), opts)
	if err != nil {
		return nil, err
	}
	wp, ok := tok.model.(*wordPiece)
	if !ok {
		return nil, unsupported("token ids for a model other than WordPiece")
	}
	var f struct {
		AddedTokens []addedJSON     `json:"added_tokens"`
		Post        json.RawMessage `json:"post_processor"`
		Model       struct {
			UnkToken *string `json:"unk_token"`
		} `json:"model"`
	}
	if err := json.Unmarshal(data.Bytes(), &f); err != nil {
		return nil, formatErr("%v", err)
	}
	e := &Encoder{tok: tok, wp: wp, added: make(map[string]int32, len(f.AddedTokens))}
	unk := "[UNK]"
	if f.Model.UnkToken != nil {
		unk = *f.Model.UnkToken
	}
	e.unk = wp.first[unk] // Load checked that it is in the vocabulary
	for _, a := range f.AddedTokens {
		if a.ID == nil || *a.ID < 0 || *a.ID > 1<<31-1 {
			return nil, formatErr("added token %q without a valid id", a.Content)
		}
		id := int32(*a.ID)
		e.added[a.Content] = id
		if tok.norm != nil {
			n, _ := tok.norm.normalize(a.Content, false)
			if _, dup := e.added[n]; !dup {
				e.added[n] = id
			}
		}
	}
	if e.single, e.pair, err = readTemplates(f.Post); err != nil {
		return nil, err
	}
	return e, nil
}

// readTemplates reads the post-processor's templates for one sequence
// and for a pair.
func readTemplates(raw json.RawMessage) (single, pair []templateItem, err error) {
	if isNull(raw) {
		return nil, nil, nil
	}
	type part struct {
		ID     string `json:"id"`
		TypeID int32  `json:"type_id"`
	}
	type item struct {
		SpecialToken *part `json:"SpecialToken"`
		Sequence     *part `json:"Sequence"`
	}
	var c struct {
		Type          string `json:"type"`
		Single, Pair  []item
		Sep, Cls      []json.RawMessage
		SpecialTokens map[string]struct {
			IDs []int32 `json:"ids"`
		} `json:"special_tokens"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, nil, formatErr("post-processor: %v", err)
	}
	switch c.Type {
	case "TemplateProcessing":
		conv := func(items []item) ([]templateItem, error) {
			out := make([]templateItem, 0, len(items))
			for _, it := range items {
				switch {
				case it.SpecialToken != nil:
					st, ok := c.SpecialTokens[it.SpecialToken.ID]
					if !ok {
						return nil, formatErr("post-processor TemplateProcessing: special token %q not in special_tokens", it.SpecialToken.ID)
					}
					out = append(out, templateItem{seq: -1, ids: st.IDs, typeID: it.SpecialToken.TypeID})
				case it.Sequence != nil && (it.Sequence.ID == "A" || it.Sequence.ID == "B"):
					out = append(out, templateItem{seq: int(it.Sequence.ID[0] - 'A'), typeID: it.Sequence.TypeID})
				default:
					return nil, formatErr("post-processor TemplateProcessing: a part that is neither a special token nor sequence A or B")
				}
			}
			return out, nil
		}
		if single, err = conv(c.Single); err != nil {
			return nil, nil, err
		}
		pair, err = conv(c.Pair)
		return single, pair, err
	case "BertProcessing":
		cls, err1 := tokenPair(c.Cls)
		sep, err2 := tokenPair(c.Sep)
		if err1 != nil || err2 != nil {
			return nil, nil, formatErr("post-processor BertProcessing: cls and sep must be [token, id]")
		}
		single = []templateItem{{seq: -1, ids: []int32{cls}}, {seq: 0}, {seq: -1, ids: []int32{sep}}}
		pair = append(single, templateItem{seq: 1, typeID: 1}, templateItem{seq: -1, ids: []int32{sep}, typeID: 1})
		return single, pair, nil
	}
	return nil, nil, unsupported("token ids with post-processor %s", c.Type)
}

// tokenPair reads BertProcessing's ["[CLS]", 101].
func tokenPair(raw []json.RawMessage) (int32, error) {
	var id int32
	if len(raw) != 2 {
		return 0, formatErr("not a pair")
	}
	err := json.Unmarshal(raw[1], &id)
	return id, err
}

// Tokenizer returns the Tokenizer that counts as the Encoder encodes.
func (e *Encoder) Tokenizer() *Tokenizer { return e.tok }

// IDs appends to dst the ids of the tokens of text, without special
// tokens (the library's encode(text, add_special_tokens=False).ids), and
// returns the extended slice: Tokenizer().Count(text) ids when the
// Tokenizer does not add special tokens.
func (e *Encoder) IDs(dst []int32, text string) []int32 {
	s := text
	if !utf8.ValidString(text) {
		s = sanitizeEach(text)
	}
	if e.tok.added == nil {
		return e.segmentIDs(dst, s, true)
	}
	e.tok.added.split(s, func(a, b int, token bool) {
		if token {
			dst = append(dst, e.addedID(s[a:b]))
			return
		}
		dst = e.segmentIDs(dst, s[a:b], a == 0)
	})
	return dst
}

// sanitizeEach reads each invalid byte of text as U+FFFD, as Count does
// (strings.ToValidUTF8 would replace a run of them by one).
func sanitizeEach(text string) string {
	var b strings.Builder
	b.Grow(len(text) + 8)
	for _, r := range text {
		b.WriteRune(r) // ranging yields U+FFFD for each invalid byte
	}
	return b.String()
}

// addedID returns the id of the added token matched as s, which may
// carry the spaces that lstrip and rstrip take with it.
func (e *Encoder) addedID(s string) int32 {
	if id, ok := e.added[s]; ok {
		return id
	}
	return e.added[strings.TrimFunc(s, unicode.IsSpace)]
}

// segmentIDs appends the ids of s, a stretch between added tokens;
// atStart says whether it starts the text.
func (e *Encoder) segmentIDs(dst []int32, s string, atStart bool) []int32 {
	if s == "" {
		return dst
	}
	t := e.tok
	ns := s
	if t.norm != nil {
		if ns, _ = t.norm.normalize(s, false); ns == "" {
			return dst
		}
	}
	if t.normAdded == nil {
		return e.pieceIDs(dst, ns, atStart)
	}
	t.normAdded.split(ns, func(a, b int, token bool) {
		if token {
			dst = append(dst, e.addedID(ns[a:b]))
		} else {
			dst = e.pieceIDs(dst, ns[a:b], atStart && a == 0)
		}
	})
	return dst
}

// pieceIDs runs the pre-tokenizers over normalized text s and appends the
// model's ids for each piece.
func (e *Encoder) pieceIDs(dst []int32, s string, first bool) []int32 {
	var feed func(k int, p piece)
	feed = func(k int, p piece) {
		if k < len(e.tok.pre) {
			e.tok.pre[k].split(p, func(q piece) { feed(k+1, q) })
			return
		}
		if p.s != "" {
			dst = e.wordIDs(dst, p.s)
		}
	}
	feed(0, piece{s: s, first: first})
	return dst
}

// wordIDs appends the WordPiece ids of word s.
func (e *Encoder) wordIDs(dst []int32, s string) []int32 {
	ends := e.wp.lookup(s)
	if len(ends) == 1 && utf8.RuneCountInString(s) > e.wp.maxChars {
		return append(dst, e.unk)
	}
	start := 0
	for _, end := range ends {
		table := e.wp.first
		if start > 0 {
			table = e.wp.cont
		}
		id, ok := table[s[start:end]]
		if !ok {
			id = e.unk // the word matches nothing: one unknown token
		}
		dst = append(dst, id)
		start = int(end)
	}
	return dst
}

// Special returns the number of tokens the post-processor adds to one
// sequence (pair false) or to a pair: what a caller leaves room for when
// it truncates ids to a model's limit.
func (e *Encoder) Special(pair bool) int {
	tmpl := e.single
	if pair {
		tmpl = e.pair
	}
	n := 0
	for _, it := range tmpl {
		n += len(it.ids)
	}
	return n
}

// Encode returns text's ids with the post-processor's special tokens
// (BERT's [CLS] text [SEP]) and their type ids, as the library's
// encode(text) returns them; it does not truncate.
func (e *Encoder) Encode(text string) Encoding {
	return e.wrap(e.single, e.IDs(nil, text), nil)
}

// EncodePair returns the ids of the pair (a, b) with the
// post-processor's special tokens (BERT's [CLS] a [SEP] b [SEP], type ids
// 0 for [CLS] a [SEP] and 1 for b [SEP]), as the library's encode(a, b)
// returns them, for a cross-encoder; it does not truncate.
func (e *Encoder) EncodePair(a, b string) Encoding {
	return e.WrapPair(e.IDs(nil, a), e.IDs(nil, b))
}

// Wrap puts the post-processor's special tokens for one sequence around
// ids: Encode on ids that a caller has truncated.
func (e *Encoder) Wrap(ids []int32) Encoding { return e.wrap(e.single, ids, nil) }

// WrapPair puts the post-processor's special tokens for a pair around
// ids a and b: EncodePair on ids that a caller has truncated.
func (e *Encoder) WrapPair(a, b []int32) Encoding {
	tmpl := e.pair
	if tmpl == nil {
		tmpl = []templateItem{{seq: 0}, {seq: 1}}
	}
	return e.wrap(tmpl, a, b)
}

func (e *Encoder) wrap(tmpl []templateItem, a, b []int32) Encoding {
	if tmpl == nil {
		tmpl = []templateItem{{seq: 0}}
	}
	n := len(a) + len(b)
	for _, it := range tmpl {
		n += len(it.ids)
	}
	enc := Encoding{IDs: make([]int32, 0, n), TypeIDs: make([]int32, 0, n)}
	for _, it := range tmpl {
		ids := it.ids
		switch it.seq {
		case 0:
			ids = a
		case 1:
			ids = b
		}
		enc.IDs = append(enc.IDs, ids...)
		for range ids {
			enc.TypeIDs = append(enc.TypeIDs, it.typeID)
		}
	}
	return enc
}
