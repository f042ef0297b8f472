package hf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"golang.org/x/text/unicode/norm"
)

// Bounds on what a tokenizer.json may hold, checked before allocating.
const (
	maxVocab    = 1 << 22 // tokens in a vocabulary
	maxTokenLen = 1 << 12 // bytes in one token
	maxAdded    = 1 << 20 // added tokens
)

type fileJSON struct {
	AddedTokens   []addedJSON     `json:"added_tokens"`
	Normalizer    json.RawMessage `json:"normalizer"`
	PreTokenizer  json.RawMessage `json:"pre_tokenizer"`
	PostProcessor json.RawMessage `json:"post_processor"`
	Model         json.RawMessage `json:"model"`
	model         *modelJSON      // Model read by readModel, or nil for null
}

type addedJSON struct {
	ID         *int64 `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	Lstrip     bool   `json:"lstrip"`
	Rstrip     bool   `json:"rstrip"`
	Normalized *bool  `json:"normalized"`
	Special    bool   `json:"special"`
}

// component is what every normalizer, pre-tokenizer, model and
// post-processor object has, with the fields of all the kinds read here.
type component struct {
	Type string `json:"type"`

	// Sequence
	Normalizers   []json.RawMessage `json:"normalizers"`
	Pretokenizers []json.RawMessage `json:"pretokenizers"`
	Processors    []json.RawMessage `json:"processors"`

	// Replace, Split
	Pattern  *patternJSON `json:"pattern"`
	Content  *string      `json:"content"`
	Behavior string       `json:"behavior"`
	Invert   bool         `json:"invert"`
	// Prepend
	Prepend *string `json:"prepend"`
	// Precompiled
	PrecompiledCharsmap *string `json:"precompiled_charsmap"`
	// Strip
	StripLeft  bool `json:"strip_left"`
	StripRight bool `json:"strip_right"`
	// BertNormalizer
	CleanText          *bool `json:"clean_text"`
	HandleChineseChars *bool `json:"handle_chinese_chars"`
	StripAccents       *bool `json:"strip_accents"`
	Lowercase          *bool `json:"lowercase"`
	// ByteLevel
	AddPrefixSpace *bool `json:"add_prefix_space"`
	UseRegex       *bool `json:"use_regex"`
	// Metaspace
	Replacement   *string `json:"replacement"`
	PrependScheme string  `json:"prepend_scheme"`
	SplitOn       *bool   `json:"split"`
	// Digits
	IndividualDigits bool `json:"individual_digits"`
	// TemplateProcessing
	Single []templatePart `json:"single"`
	// BertProcessing, RobertaProcessing: sep and cls
	Sep json.RawMessage `json:"sep"`
	Cls json.RawMessage `json:"cls"`
	// TemplateProcessing's special_tokens
	SpecialTokens map[string]struct {
		IDs []int64 `json:"ids"`
	} `json:"special_tokens"`
}

type patternJSON struct {
	String *string `json:"String"`
	Regex  *string `json:"Regex"`
}

type templatePart struct {
	SpecialToken *struct {
		ID string `json:"id"`
	} `json:"SpecialToken"`
	Sequence json.RawMessage `json:"Sequence"`
}

type modelJSON struct {
	Type                    string          `json:"type"`
	Dropout                 *float64        `json:"dropout"`
	UnkToken                *string         `json:"unk_token"`
	ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
	EndOfWordSuffix         *string         `json:"end_of_word_suffix"`
	FuseUnk                 bool            `json:"fuse_unk"`
	ByteFallback            bool            `json:"byte_fallback"`
	IgnoreMerges            bool            `json:"ignore_merges"`
	MaxInputCharsPerWord    *int64          `json:"max_input_chars_per_word"`
	UnkID                   *int64          `json:"unk_id"`
	Vocab                   json.RawMessage `json:"vocab"`
	Merges                  json.RawMessage `json:"merges"`
	// How many entries Vocab and Merges have when they are valid JSON,
	// counted while reading past them: sizes to allocate.
	vocabLen, mergesLen int
	// read holds the vocabulary and merges of a BPE model when they
	// were read where they are in the file, or nil.
	read *bpeRead
}

// bpeRead is the vocabulary and merges of a BPE model read where they are
// in the file, on the reading of the fields before them and of the
// pre-tokenizer, which files write before their model: so that they are
// read once, not passed over and then read. build uses them only when
// the whole file reads the same (see bpeRead.fits); otherwise, or when
// reading them there fails, they are passed over and read as any other
// file's are, errors in the order they come.
type bpeRead struct {
	byteLvl bool
	unk     *string
	vocab   *tokenTable
	info    vocabInfo
	merges  *mergeTable // nil until read
	reader  *mergeReader
	ahead   *ahead // the merges read ahead, or nil
	aheadN  int32  // how many merges were read ahead and used
}

// fits reports whether r was read as the model m after pre-tokenizers of
// byte-level input (or not) reads it.
func (r *bpeRead) fits(m *modelJSON, byteLvl bool) bool {
	return r != nil && r.merges != nil && m.Type == "BPE" && r.byteLvl == byteLvl &&
		(r.unk == nil) == (m.UnkToken == nil) && (r.unk == nil || *r.unk == *m.UnkToken)
}

// readBPEVocab reads the vocabulary at sc if the fields before it (small,
// the object so far) and the pre-tokenizer make a BPE model that
// buildBPE would read; else, or when the vocabulary fails to read, it
// returns nil and leaves sc where it was.
func readBPEVocab(sc *scan, small []byte, pre json.RawMessage) *bpeRead {
	var m modelJSON
	if json.Unmarshal(append(small[:len(small):len(small)], '}'), &m) != nil || m.Type != "BPE" ||
		m.Dropout != nil && *m.Dropout > 0 || m.ContinuingSubwordPrefix != nil && *m.ContinuingSubwordPrefix != "" ||
		m.EndOfWordSuffix != nil && *m.EndOfWordSuffix != "" {
		return nil
	}
	pres, err := buildPre(pre, 0)
	if err != nil {
		return nil
	}
	byteLvl, err := isByteLevel(pres)
	if err != nil || sc.peek() != '{' {
		return nil
	}
	start := sc.pos
	rest := len(sc.data) - start
	a := readAhead(sc.data, start, m.UnkToken, byteLvl)
	t, info, err := readVocabTableAt(sc, byteLvl, min(rest/32, maxVocab), min(rest/4, maxSlab))
	if err != nil {
		a.cancel()
		sc.pos = start
		return nil
	}
	a.setVocab(t, info.byID)
	return &bpeRead{byteLvl: byteLvl, unk: m.UnkToken, vocab: t, info: info, ahead: a}
}

// readMerges reads the merges at sc into r, with what was read ahead
// when it is of them; when they fail to read, it reports false and
// leaves sc where it was.
func (r *bpeRead) readMerges(sc *scan) bool {
	start := sc.pos
	rest := len(sc.data) - start
	size := min(rest/16, maxVocab)
	if r.ahead != nil {
		size = 0 // finish sizes it
	}
	mr := newMergeReader(size, r.vocab, r.info, r.byteLvl, r.unk)
	var err error
	switch a := r.ahead; {
	case a != nil && a.at(start) && a.finish(mr):
		sc.pos, r.aheadN = a.end, a.ranks
		if !a.complete {
			err = mr.elements(sc)
		}
	default:
		if a != nil {
			a.cancel()
		}
		err = mr.read(sc)
	}
	r.ahead = nil
	if err != nil {
		sc.pos = start
		return false
	}
	if r.merges = mr.table(r.info.maxID); r.merges == nil {
		sc.pos = start
		return false
	}
	r.reader = mr
	return true
}

func formatErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
}

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUnsupported}, args...)...)
}

func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// validJSON checks that data is one valid JSON value.
func validJSON(data []byte) error {
	sc := &scan{data: data}
	if _, err := sc.skip(0); err != nil {
		return err
	}
	return sc.end()
}

// readFile splits the top-level object into its parts. All of it is
// checked to be valid JSON here, except the model's vocab and merges: a
// BPE model's are read where they are when they can be (see bpeRead),
// others passed over as if valid (skipValid) and checked when they are
// parsed: each parser takes all of its value or fails, or, for the merges
// of a model that has no use for them, validJSON checks them.
func readFile(data []byte) (*fileJSON, error) {
	var f fileJSON
	var added json.RawMessage
	sc := &scan{data: data}
	err := sc.object(func(key []byte) error {
		if string(key) == "model" {
			start := sc.pos
			m, err := readModel(sc, f.PreTokenizer)
			f.Model, f.model = data[start:sc.pos], m
			return err
		}
		raw, err := sc.skip(0)
		if err != nil {
			return err
		}
		switch string(key) {
		case "added_tokens":
			added = raw
		case "normalizer":
			f.Normalizer = raw
		case "pre_tokenizer":
			f.PreTokenizer = raw
		case "post_processor":
			f.PostProcessor = raw
		}
		return nil
	})
	if err == nil && sc.peek() != 0 {
		err = &syntaxError{"invalid JSON: data after the top-level object", sc.pos}
	}
	if err != nil {
		return nil, formatErr("%v", err)
	}
	if !isNull(added) {
		if err := json.Unmarshal(added, &f.AddedTokens); err != nil {
			return nil, formatErr("added_tokens: %v", err)
		}
	}
	return &f, nil
}

func build(data []byte) (*Tokenizer, error) {
	f, err := readFile(data)
	if err != nil {
		return nil, err
	}
	if isNull(f.Model) {
		return nil, formatErr("no model")
	}
	t := &Tokenizer{}
	if t.norm, err = buildNormalizer(f.Normalizer, 0); err != nil {
		return nil, err
	}
	if t.pre, err = buildPre(f.PreTokenizer, 0); err != nil {
		return nil, err
	}
	byteLvl, err := isByteLevel(t.pre)
	if err != nil {
		return nil, err
	}
	if !f.model.read.fits(f.model, byteLvl) {
		f.model.read = nil
	}
	if t.model, err = buildModel(f.model, byteLvl); err != nil {
		return nil, err
	}
	if _, ok := t.model.(*bpe); !ok {
		if err := validJSON(f.model.Merges); err != nil && !isNull(f.model.Merges) {
			return nil, formatErr("model merges: %v", err)
		}
	}
	for _, p := range t.pre {
		if m, ok := p.(metaspace); ok && m.prepend == prependFirst {
			t.metaFirst = true
		}
	}
	if n := len(t.pre); n > 0 && t.pre[n-1] == (byteLevel{}) {
		t.pre = t.pre[:n-1] // maps bytes to characters only: the model reads bytes
	}
	if t.special, t.specialLead, err = buildPost(f.PostProcessor, 0); err != nil {
		return nil, err
	}
	if len(f.AddedTokens) > maxAdded {
		return nil, formatErr("%d added tokens, more than %d", len(f.AddedTokens), maxAdded)
	}
	var raw, normed []addedToken
	for _, a := range f.AddedTokens {
		if len(a.Content) > maxTokenLen {
			return nil, formatErr("added token of %d bytes", len(a.Content))
		}
		tok := addedToken{content: a.Content, singleWord: a.SingleWord, lstrip: a.Lstrip, rstrip: a.Rstrip}
		// The library's default for normalized is the opposite of special.
		isNorm := !a.Special
		if a.Normalized != nil {
			isNorm = *a.Normalized
		}
		if isNorm {
			if t.norm != nil {
				tok.content, _ = t.norm.normalize(tok.content, false)
			}
			normed = append(normed, tok)
		} else {
			raw = append(raw, tok)
		}
	}
	t.added = newAddedVocab(raw)
	t.normAdded = newAddedVocab(normed)
	return t, nil
}

// isByteLevel reports whether the pre-tokenizers pre end with ByteLevel,
// where it must be if it is anywhere.
func isByteLevel(pre []preTokenizer) (bool, error) {
	for k, p := range pre {
		if _, ok := p.(byteLevel); ok {
			if k != len(pre)-1 {
				return false, unsupported("pre-tokenizer ByteLevel followed by another pre-tokenizer")
			}
			return true, nil
		}
	}
	return false, nil
}

const maxDepth = 16 // nesting of Sequence components

func parseComponent(raw json.RawMessage, what string, depth int) (*component, error) {
	if depth > maxDepth {
		return nil, formatErr("%s: Sequence nested more than %d deep", what, maxDepth)
	}
	var c component
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, formatErr("%s: %v", what, err)
	}
	return &c, nil
}

func buildNormalizer(raw json.RawMessage, depth int) (normalizer, error) {
	if isNull(raw) {
		return nil, nil
	}
	c, err := parseComponent(raw, "normalizer", depth)
	if err != nil {
		return nil, err
	}
	switch c.Type {
	case "Sequence":
		var seq sequence
		for _, r := range c.Normalizers {
			n, err := buildNormalizer(r, depth+1)
			if err != nil {
				return nil, err
			}
			if n != nil {
				seq = append(seq, n)
			}
		}
		switch len(seq) {
		case 0:
			return nil, nil
		case 1:
			return seq[0], nil
		}
		return seq, nil
	case "NFC":
		return unicodeForm{norm.NFC}, nil
	case "NFD":
		return unicodeForm{norm.NFD}, nil
	case "NFKC":
		return unicodeForm{norm.NFKC}, nil
	case "NFKD":
		return unicodeForm{norm.NFKD}, nil
	case "Lowercase":
		return lowercase{}, nil
	case "Nmt":
		return nmt{}, nil
	case "StripAccents":
		return stripAccents{}, nil
	case "Strip":
		return strip{left: c.StripLeft, right: c.StripRight}, nil
	case "Prepend":
		if c.Prepend == nil {
			return nil, formatErr("normalizer Prepend without prepend")
		}
		return prependNorm{*c.Prepend}, nil
	case "Replace":
		if c.Pattern == nil || c.Content == nil {
			return nil, formatErr("normalizer Replace without pattern or content")
		}
		if c.Pattern.String == nil {
			if c.Pattern.Regex == nil {
				return nil, formatErr("normalizer Replace without pattern")
			}
			m, err := compileRegex(*c.Pattern.Regex)
			if err != nil {
				return nil, fmt.Errorf("normalizer Replace: %w", err)
			}
			return regexReplace{m, *c.Content}, nil
		}
		if *c.Pattern.String == "" {
			return nil, unsupported("normalizer Replace with an empty pattern")
		}
		return replace{*c.Pattern.String, *c.Content}, nil
	case "Precompiled":
		if c.PrecompiledCharsmap == nil {
			return nil, formatErr("normalizer Precompiled without precompiled_charsmap")
		}
		p, err := newPrecompiled(*c.PrecompiledCharsmap)
		if err != nil {
			return nil, formatErr("normalizer Precompiled: %v", err)
		}
		return p, nil
	case "BertNormalizer":
		b := bertNorm{clean: orTrue(c.CleanText), chinese: orTrue(c.HandleChineseChars), lower: orTrue(c.Lowercase)}
		b.stripAccents = b.lower
		if c.StripAccents != nil {
			b.stripAccents = *c.StripAccents
		}
		return b, nil
	case "":
		return nil, formatErr("normalizer without type")
	}
	return nil, unsupported("normalizer %s", c.Type)
}

func orTrue(b *bool) bool { return b == nil || *b }

func parseBehavior(s, what string) (behavior, error) {
	switch s {
	case "Isolated":
		return isolated, nil
	case "Removed":
		return removed, nil
	case "MergedWithPrevious":
		return mergedWithPrevious, nil
	case "MergedWithNext":
		return mergedWithNext, nil
	case "Contiguous":
		return contiguous, nil
	}
	return 0, unsupported("%s with behavior %q", what, s)
}

func buildPre(raw json.RawMessage, depth int) ([]preTokenizer, error) {
	if isNull(raw) {
		return nil, nil
	}
	c, err := parseComponent(raw, "pre-tokenizer", depth)
	if err != nil {
		return nil, err
	}
	switch c.Type {
	case "Sequence":
		var out []preTokenizer
		for _, r := range c.Pretokenizers {
			p, err := buildPre(r, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, p...)
		}
		return out, nil
	case "Split":
		if c.Pattern == nil {
			return nil, formatErr("pre-tokenizer Split without pattern")
		}
		bh, err := parseBehavior(c.Behavior, "pre-tokenizer Split")
		if err != nil {
			return nil, err
		}
		var m matcher
		switch {
		case c.Pattern.String != nil && *c.Pattern.String != "":
			m = literal(*c.Pattern.String)
		case c.Pattern.Regex != nil:
			if m, err = compileRegex(*c.Pattern.Regex); err != nil {
				return nil, fmt.Errorf("pre-tokenizer Split: %w", err)
			}
		default:
			return nil, unsupported("pre-tokenizer Split with an empty pattern")
		}
		return []preTokenizer{patternSplit{m: m, behavior: bh, invert: c.Invert}}, nil
	case "ByteLevel":
		return []preTokenizer{byteLevel{addPrefixSpace: orTrue(c.AddPrefixSpace), useRegex: orTrue(c.UseRegex)}}, nil
	case "BertPreTokenizer":
		return []preTokenizer{bertPre{}}, nil
	case "Whitespace":
		return []preTokenizer{whitespacePre{}}, nil
	case "WhitespaceSplit":
		return []preTokenizer{whitespaceSplit{}}, nil
	case "Digits":
		return []preTokenizer{digitsPre(c.IndividualDigits)}, nil
	case "Punctuation":
		bh := isolated
		if c.Behavior != "" {
			if bh, err = parseBehavior(c.Behavior, "pre-tokenizer Punctuation"); err != nil {
				return nil, err
			}
		}
		return []preTokenizer{runeSplit{is: isBertPunct, behavior: bh}}, nil
	case "Metaspace":
		m := metaspace{repl: "▁", splitOn: orTrue(c.SplitOn)}
		if c.Replacement != nil {
			if len([]rune(*c.Replacement)) != 1 {
				return nil, formatErr("pre-tokenizer Metaspace replacement %q is not one character", *c.Replacement)
			}
			m.repl = *c.Replacement
		}
		switch c.PrependScheme {
		case "", "always":
			m.prepend = prependAlways
			if c.AddPrefixSpace != nil && !*c.AddPrefixSpace {
				m.prepend = prependNever
			}
		case "first":
			m.prepend = prependFirst
		case "never":
			m.prepend = prependNever
		default:
			return nil, unsupported("pre-tokenizer Metaspace with prepend_scheme %q", c.PrependScheme)
		}
		return []preTokenizer{m}, nil
	case "":
		return nil, formatErr("pre-tokenizer without type")
	}
	return nil, unsupported("pre-tokenizer %s", c.Type)
}

// buildPost returns how many tokens the post-processor adds to a single
// sequence and how many of them go before it.
func buildPost(raw json.RawMessage, depth int) (total, lead int, err error) {
	if isNull(raw) {
		return 0, 0, nil
	}
	c, err := parseComponent(raw, "post-processor", depth)
	if err != nil {
		return 0, 0, err
	}
	switch c.Type {
	case "ByteLevel":
		return 0, 0, nil
	case "BertProcessing", "RobertaProcessing":
		return 2, 1, nil
	case "TemplateProcessing":
		seen := false
		for _, p := range c.Single {
			if p.SpecialToken == nil {
				seen = true
				continue
			}
			st, ok := c.SpecialTokens[p.SpecialToken.ID]
			if !ok {
				return 0, 0, formatErr("post-processor TemplateProcessing: special token %q not in special_tokens", p.SpecialToken.ID)
			}
			total += len(st.IDs)
			if !seen {
				lead += len(st.IDs)
			}
		}
		return total, lead, nil
	case "Sequence":
		for _, r := range c.Processors {
			t, l, err := buildPost(r, depth+1)
			if err != nil {
				return 0, 0, err
			}
			if total == 0 {
				lead = l
			}
			total += t
		}
		return total, lead, nil
	case "":
		return 0, 0, formatErr("post-processor without type")
	}
	return 0, 0, unsupported("post-processor %s", c.Type)
}

// readModel reads the model object at sc. The vocabulary and merges are
// passed over (see readFile), to be read by hand; the other fields,
// small, are read by encoding/json.
func readModel(sc *scan, pre json.RawMessage) (*modelJSON, error) {
	if sc.peek() == 'n' {
		_, err := sc.skip(0)
		return nil, err
	}
	var m modelJSON
	var read *bpeRead
	var ahead *ahead
	defer func() {
		if ahead != nil {
			ahead.cancel() // when the merges were not read
		}
	}()
	small := []byte{'{'}
	err := sc.object(func(key []byte) error {
		switch string(key) {
		case "vocab":
			if m.Vocab == nil && m.Merges == nil {
				sc.ws()
				start := sc.pos
				if read = readBPEVocab(sc, small, pre); read != nil {
					ahead = read.ahead
					m.Vocab, m.vocabLen = sc.data[start:sc.pos], read.vocab.len()
					return nil
				}
			}
			read = nil // passed over, read in build
			m.Vocab, m.vocabLen = sc.skipValid()
			m.vocabLen = min(m.vocabLen, maxVocab) // more fail when parsed
			return noValue(sc, m.Vocab)
		case "merges":
			if read != nil && m.Merges == nil {
				sc.ws()
				start := sc.pos
				if read.readMerges(sc) {
					m.Merges, m.mergesLen = sc.data[start:sc.pos], read.reader.n
					return nil
				}
			}
			read = nil
			m.Merges, m.mergesLen = sc.skipValid()
			m.mergesLen = min(m.mergesLen, maxVocab)
			return noValue(sc, m.Merges)
		}
		v, err := sc.skip(0)
		if err != nil {
			return err
		}
		if len(small) > 1 {
			small = append(small, ',')
		}
		q, _ := json.Marshal(string(key))
		small = append(small, q...)
		small = append(small, ':')
		small = append(small, v...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(append(small, '}'), &m); err != nil {
		return nil, fmt.Errorf("model: %v", err)
	}
	m.read = read
	return &m, nil
}

// noValue returns an error when skipValid passed over nothing: a member
// without a value ("merges":}), which would otherwise read as null.
func noValue(sc *scan, raw []byte) error {
	if len(raw) == 0 {
		return &syntaxError{"invalid JSON: a member without a value", sc.pos}
	}
	return nil
}

func buildModel(m *modelJSON, byteLvl bool) (model, error) {
	if m.Type == "" {
		// Files from old versions of the library leave the type out.
		switch {
		case !isNull(m.Merges):
			m.Type = "BPE"
		case m.UnkID != nil || bytes.HasPrefix(bytes.TrimSpace(m.Vocab), []byte("[")):
			m.Type = "Unigram"
		case m.UnkToken != nil && m.ContinuingSubwordPrefix != nil && m.MaxInputCharsPerWord != nil:
			m.Type = "WordPiece" // the library requires all three
		case m.UnkToken != nil:
			m.Type = "WordLevel"
		default:
			return nil, formatErr("model without type")
		}
	}
	switch m.Type {
	case "BPE":
		return buildBPE(m, byteLvl)
	case "WordPiece":
		if byteLvl {
			return nil, unsupported("model WordPiece after a ByteLevel pre-tokenizer")
		}
		return buildWordPiece(m)
	case "Unigram":
		if byteLvl {
			return nil, unsupported("model Unigram after a ByteLevel pre-tokenizer")
		}
		return buildUnigram(m)
	case "WordLevel":
		if byteLvl {
			return nil, unsupported("model WordLevel after a ByteLevel pre-tokenizer")
		}
		return buildWordLevel(m)
	}
	return nil, unsupported("model %s", m.Type)
}

// vocabInfo is what reading a vocabulary tells besides its tokens.
type vocabInfo struct {
	maxID int32 // -1 for none
	// skipped holds the tokens left out of a byte-level vocabulary.
	skipped map[string]bool
	// byID, when not nil, holds the tokens in the order of their ids
	// (see tokensByID).
	byID *tokensByID
}

// tokensByID holds the tokens of a vocabulary whose ids are 0, 1, 2, ...
// in the order the file gives them (as tokenizer.json writes them), each
// token once: token id is text[ends[id]:ends[id+1]]. Reading the merges
// uses it to check a guess at a merged token's id, the next token or the
// one before, where looking it up in the table would miss the cache.
type tokensByID struct {
	text []byte
	ends []uint32
}

// is reports whether id is the id of tok.
func (v *tokensByID) is(id int32, tok string) bool {
	if uint32(id)+1 >= uint32(len(v.ends)) {
		return false
	}
	start, end := v.ends[id], v.ends[id+1]
	return int(end-start) == len(tok) && string(v.text[start:end]) == tok
}

// scanVocab reads a vocabulary object {"token": id, ...} and calls add
// with each token (in scratch space, valid during the call) and its id.
// With byteLvl, tokens are decoded from the byte-level alphabet; tokens
// with other characters cannot occur in byte-level input and are left
// out, but kept in skipped so that merges naming them are not errors.
func scanVocab(raw []byte, byteLvl bool, add func(tok []byte, id int32) error) (vocabInfo, error) {
	if isNull(raw) {
		return vocabInfo{maxID: -1}, formatErr("model without vocab")
	}
	sc := &scan{data: raw}
	info, err := scanVocabAt(sc, byteLvl, add)
	if err == nil {
		err = sc.end()
	}
	if err != nil {
		return info, formatErr("model vocab: %v", err)
	}
	return info, nil
}

// scanVocabAt is scanVocab for the object at sc, which it reads.
func scanVocabAt(sc *scan, byteLvl bool, add func(tok []byte, id int32) error) (vocabInfo, error) {
	info := vocabInfo{maxID: -1}
	var buf []byte
	n := 0
	// entry adds the entry of key (as in the file) and id; tok is key
	// decoded, or nil.
	entry := func(key, tok []byte, id int64) error {
		if n++; n > maxVocab {
			return fmt.Errorf("more than %d tokens", maxVocab)
		}
		if id < 0 || id >= maxVocab {
			return fmt.Errorf("id %d of %q out of range", id, key)
		}
		if len(key) > maxTokenLen {
			return fmt.Errorf("token of %d bytes", len(key))
		}
		if tok == nil {
			tok = key
			if byteLvl {
				var ok bool
				if buf, ok = appendFromByteLevel(buf[:0], key); !ok {
					if info.skipped == nil {
						info.skipped = make(map[string]bool)
					}
					info.skipped[string(key)] = true
					return nil
				}
				tok = buf
			}
		}
		info.maxID = max(info.maxID, int32(id))
		return add(tok, int32(id))
	}
	var fast func(int) (bool, error)
	if byteLvl {
		// A key of the byte-level alphabet without escapes, the usual
		// case, read and decoded in one pass.
		out := make([]byte, maxTokenLen)
		fast = func(keyStart int) (bool, error) {
			end, k, sp, _ := decodeQuoted(sc.data, keyStart, out)
			if end < 0 || sp >= 0 {
				return false, nil
			}
			i := skipWS(sc.data, end+1)
			if i >= len(sc.data) || sc.data[i] != ':' {
				return false, nil
			}
			sc.pos = i + 1
			id, err := sc.int()
			if err != nil {
				return true, err
			}
			return true, entry(sc.data[keyStart:end], out[:k], id)
		}
	}
	err := sc.objectFast(fast, func(key []byte) error {
		id, err := sc.int()
		if err != nil {
			return err
		}
		return entry(key, nil, id)
	})
	return info, err
}

// readVocab reads a vocabulary object into a map (see scanVocab).
func readVocab(raw []byte, byteLvl bool) (vocab map[string]int32, skipped map[string]bool, err error) {
	type entry struct{ off, n, id int32 }
	var slab []byte
	var entries []entry
	info, err := scanVocab(raw, byteLvl, func(tok []byte, id int32) error {
		if len(slab)+len(tok) > maxSlab {
			return fmt.Errorf("more than %d bytes of tokens", maxSlab)
		}
		entries = append(entries, entry{int32(len(slab)), int32(len(tok)), id})
		slab = append(slab, tok...)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	all := string(slab)
	vocab = make(map[string]int32, len(entries))
	for _, e := range entries {
		vocab[all[e.off:e.off+e.n]] = e.id
	}
	return vocab, info.skipped, nil
}

// readVocabTable reads a vocabulary object of about n tokens into a
// tokenTable (see scanVocab).
func readVocabTable(raw []byte, byteLvl bool, n int) (*tokenTable, vocabInfo, error) {
	if isNull(raw) {
		return nil, vocabInfo{maxID: -1}, formatErr("model without vocab")
	}
	sc := &scan{data: raw}
	t, info, err := readVocabTableAt(sc, byteLvl, n, len(raw))
	if err == nil {
		err = sc.end()
	}
	if err != nil {
		return nil, info, formatErr("model vocab: %v", err)
	}
	return t, info, nil
}

// readVocabTableAt is readVocabTable for the object at sc, of about n
// tokens in about size bytes. The tokens are gathered in the order of the
// file first and the table made of them once all are read (see
// tokenTable.fill).
func readVocabTableAt(sc *scan, byteLvl bool, n, size int) (*tokenTable, vocabInfo, error) {
	all := &tokensByID{text: make([]byte, 0, size/2), ends: make([]uint32, 1, n+1)}
	var ids []int32 // nil while the ids are 0, 1, 2, ...
	info, err := scanVocabAt(sc, byteLvl, func(tok []byte, id int32) error {
		k := len(all.ends) - 1
		if len(all.text)+len(tok) > maxSlab {
			return fmt.Errorf("more than %d bytes of tokens", maxSlab)
		}
		if ids == nil && int(id) != k {
			ids = make([]int32, k, max(n, k+1))
			for j := range ids {
				ids[j] = int32(j)
			}
		}
		if ids != nil {
			ids = append(ids, id)
		}
		all.text = append(all.text, tok...)
		all.ends = append(all.ends, uint32(len(all.text)))
		return nil
	})
	if err != nil {
		return nil, info, err
	}
	t, ok := newTokenTableOf(all, ids)
	if !ok {
		return nil, info, fmt.Errorf("more than %d bytes of tokens", maxSlab)
	}
	if ids == nil && t.len() == len(all.ends)-1 { // each token once
		info.byID = all
	}
	return t, info, nil
}

// byteOf maps the characters of GPT-2's byte-level alphabet (all below
// U+0144) to the bytes they stand for; -1 marks other characters.
var byteOf = func() (t [0x144]int16) {
	for k := range t {
		t[k] = -1
	}
	n := 0
	for b := range 256 {
		if b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE && b <= 0xFF {
			t[b] = int16(b)
		} else {
			t[256+n] = int16(b)
			n++
		}
	}
	return t
}()

// appendFromByteLevel appends the bytes that tok spells in the byte-level
// alphabet; ok is false for a token with other characters. The alphabet
// is U+0021 to U+0143: one UTF-8 byte or two, the first 0xC2 to 0xC5.
func appendFromByteLevel(dst, tok []byte) ([]byte, bool) {
	// The bytes take at most as many as their characters.
	n := len(dst)
	dst = slices.Grow(dst, len(tok))[:n+len(tok)]
	out := dst[n:]
	j := 0
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c-'!' <= '~'-'!' { // printable ASCII stands for itself
			out[j] = c
			j++
			continue
		}
		if c < 0xC2 || c > 0xC5 || i+1 >= len(tok) || tok[i+1]&0xC0 != 0x80 {
			return dst[:n], false
		}
		r := rune(c&0x1F)<<6 | rune(tok[i+1]&0x3F)
		if r >= rune(len(byteOf)) || byteOf[r] < 0 {
			return dst[:n], false
		}
		out[j] = byte(byteOf[r])
		j++
		i++
	}
	return dst[:n+j], true
}

func buildBPE(m *modelJSON, byteLvl bool) (model, error) {
	if m.Dropout != nil && *m.Dropout > 0 {
		return nil, unsupported("model BPE with dropout %v (counts would be random)", *m.Dropout)
	}
	if m.ContinuingSubwordPrefix != nil && *m.ContinuingSubwordPrefix != "" {
		return nil, unsupported("model BPE with continuing_subword_prefix %q", *m.ContinuingSubwordPrefix)
	}
	if m.EndOfWordSuffix != nil && *m.EndOfWordSuffix != "" {
		return nil, unsupported("model BPE with end_of_word_suffix %q", *m.EndOfWordSuffix)
	}
	var vocab *tokenTable
	var v vocabInfo
	var merges *mergeTable
	var mr *mergeReader
	if r := m.read; r != nil {
		vocab, v, merges, mr = r.vocab, r.info, r.merges, r.reader
	} else {
		var err error
		if vocab, v, err = readVocabTable(m.Vocab, byteLvl, m.vocabLen); err != nil {
			return nil, err
		}
		if merges, mr, err = readBPEMerges(m.Merges, m.mergesLen, vocab, v, byteLvl, m.UnkToken); err != nil {
			return nil, err
		}
	}
	oddMerge := mr.odd
	b := &bpe{vocab: vocab, merges: merges, byteLevel: byteLvl, ignoreMerges: m.IgnoreMerges,
		byteFallback: m.ByteFallback, fuseUnk: m.FuseUnk, unk: -1, cache: newCache(), small: newSmallCache()}
	if m.UnkToken != nil {
		id, ok := vocab.get(*m.UnkToken)
		if !ok && byteLvl {
			if raw, ok2 := appendFromByteLevel(nil, []byte(*m.UnkToken)); ok2 {
				id, ok = vocab.getBytes(raw)
			}
		}
		if !ok {
			return nil, formatErr("model unk_token %q not in the vocabulary", *m.UnkToken)
		}
		b.unk = id
	}
	if !byteLvl && !oddMerge {
		b.metaSplit()
	}
	b.whole = make([]atomic.Uint32, v.maxID+1)
	for k := range 256 {
		b.byteIDs[k], b.fallbackIDs[k] = -1, -1
		if id, ok := vocab.get(byteToken(byte(k))); ok && !byteLvl {
			b.fallbackIDs[k] = id
		}
		if id, ok := vocab.getBytes([]byte{byte(k)}); ok && byteLvl {
			b.byteIDs[k] = id
		}
	}
	b.metaID = -1
	if id, ok := vocab.get(meta); ok && !byteLvl {
		b.metaID = id
	}
	for c := range b.charIDs {
		b.charIDs[c] = -1
		if id, ok := vocab.get(string(rune(c))); ok && !byteLvl {
			b.charIDs[c] = id
		}
	}
	if !slices.Contains(b.byteIDs[:], -1) {
		b.bytePairs = mr.bytePairs // a word's symbols are its bytes
	}
	return b, nil
}

// isByteToken reports whether tok is a byte fallback token, <0xXX>.
func isByteToken(tok []byte) bool {
	return len(tok) == 6 && string(tok[:3]) == "<0x" && tok[5] == '>'
}

func buildWordPiece(m *modelJSON) (model, error) {
	vocab, _, err := readVocab(m.Vocab, false)
	if err != nil {
		return nil, err
	}
	prefix := "##"
	if m.ContinuingSubwordPrefix != nil {
		prefix = *m.ContinuingSubwordPrefix
	}
	unk := "[UNK]"
	if m.UnkToken != nil {
		unk = *m.UnkToken
	}
	if _, ok := vocab[unk]; !ok {
		return nil, formatErr("model WordPiece: unk_token %q not in the vocabulary", unk)
	}
	w := &wordPiece{first: vocab, cont: make(map[string]int32), maxChars: 100, cache: newCache()}
	if m.MaxInputCharsPerWord != nil {
		if *m.MaxInputCharsPerWord < 0 || *m.MaxInputCharsPerWord > math.MaxInt32 {
			return nil, formatErr("model WordPiece: max_input_chars_per_word %d", *m.MaxInputCharsPerWord)
		}
		w.maxChars = int(*m.MaxInputCharsPerWord)
	}
	for tok, id := range vocab {
		w.maxLen = max(w.maxLen, len(tok))
		if rest, ok := strings.CutPrefix(tok, prefix); ok {
			w.cont[rest] = id
		}
	}
	return w, nil
}

func buildUnigram(m *modelJSON) (model, error) {
	if isNull(m.Vocab) {
		return nil, formatErr("model Unigram without vocab")
	}
	// Size the tables from the vocabulary's length (an entry such as
	// ["▁word",-9.876543] takes 20 to 35 bytes, and adds about two nodes
	// to the trie) so that they seldom grow by doubling; beyond a million
	// entries (four times XLM-R's) they grow as they fill.
	est := min(len(m.Vocab)/24, 1<<20)
	u := &unigram{ids: make(map[string]int32, est), child: make(map[uint64]int32, est*2), term: make([]int32, 1, 1+est*2), unk: -1,
		byteFallback: m.ByteFallback, cache: newCache()}
	minScore := math.Inf(1)
	sc := &scan{data: m.Vocab}
	err := sc.array(func() error {
		id := len(u.scores)
		if id >= maxVocab {
			return fmt.Errorf("more than %d tokens", maxVocab)
		}
		k := 0
		var tok string
		err := sc.array(func() error {
			switch k++; k {
			case 1:
				b, err := sc.str()
				if err != nil {
					return err
				}
				if len(b) > maxTokenLen {
					return fmt.Errorf("token of %d bytes", len(b))
				}
				tok = string(b)
			case 2:
				score, err := sc.float()
				if err != nil {
					return err
				}
				u.scores = append(u.scores, score)
				minScore = min(minScore, score)
			default:
				return fmt.Errorf("entry %d has more than 2 fields", id)
			}
			return nil
		})
		if err == nil && k != 2 {
			err = fmt.Errorf("entry %d has %d fields, not 2", id, k)
		}
		if err != nil {
			return err
		}
		u.ids[tok] = int32(id)
		node := int32(0)
		for i := 0; i < len(tok); i++ {
			key := uint64(node)<<8 | uint64(tok[i])
			next, ok := u.child[key]
			if !ok {
				next = int32(len(u.term))
				u.term = append(u.term, 0)
				u.child[key] = next
			}
			node = next
		}
		if tok != "" {
			// The trie gives the last id of a duplicated token, as the
			// library's token map does.
			u.term[node] = int32(id) + 1
		}
		return nil
	})
	if err == nil {
		err = sc.end()
	}
	if err != nil {
		return nil, formatErr("model Unigram vocab: %v", err)
	}
	entries := u.scores
	u.unkScore = minScore - 10
	if m.UnkID != nil {
		if *m.UnkID < 0 || *m.UnkID >= int64(len(entries)) {
			return nil, formatErr("model Unigram unk_id %d out of range", *m.UnkID)
		}
		u.unk = int32(*m.UnkID)
	} else {
		return nil, unsupported("model Unigram without unk_id (the library fails on unknown characters)")
	}
	return u, nil
}
