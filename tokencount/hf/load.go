package hf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

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

func build(data []byte) (*Tokenizer, error) {
	var f fileJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, formatErr("%v", err)
	}
	if isNull(f.Model) {
		return nil, formatErr("no model")
	}
	t := &Tokenizer{}
	var err error
	if t.norm, err = buildNormalizer(f.Normalizer, 0); err != nil {
		return nil, err
	}
	if t.pre, err = buildPre(f.PreTokenizer, 0); err != nil {
		return nil, err
	}
	byteLvl := false
	for k, p := range t.pre {
		if _, ok := p.(byteLevel); ok {
			if k != len(t.pre)-1 {
				return nil, unsupported("pre-tokenizer ByteLevel followed by another pre-tokenizer")
			}
			byteLvl = true
		}
	}
	if t.model, err = buildModel(f.Model, byteLvl); err != nil {
		return nil, err
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
			return nil, unsupported("normalizer Replace with a Regex pattern")
		}
		if *c.Pattern.String == "" {
			return nil, unsupported("normalizer Replace with an empty pattern")
		}
		return replace{*c.Pattern.String, *c.Content}, nil
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
				return nil, err
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

func buildModel(raw json.RawMessage, byteLvl bool) (model, error) {
	var m modelJSON
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, formatErr("model: %v", err)
	}
	if m.Type == "" {
		// Files from old versions of the library leave the type out.
		switch {
		case !isNull(m.Merges):
			m.Type = "BPE"
		case m.UnkID != nil || bytes.HasPrefix(bytes.TrimSpace(m.Vocab), []byte("[")):
			m.Type = "Unigram"
		case m.MaxInputCharsPerWord != nil:
			m.Type = "WordPiece"
		default:
			return nil, formatErr("model without type")
		}
	}
	switch m.Type {
	case "BPE":
		return buildBPE(&m, byteLvl)
	case "WordPiece":
		if byteLvl {
			return nil, unsupported("model WordPiece after a ByteLevel pre-tokenizer")
		}
		return buildWordPiece(&m)
	case "Unigram":
		if byteLvl {
			return nil, unsupported("model Unigram after a ByteLevel pre-tokenizer")
		}
		return buildUnigram(&m)
	case "WordLevel":
		return nil, unsupported("model WordLevel")
	}
	return nil, unsupported("model %s", m.Type)
}

func parseVocabMap(raw json.RawMessage) (map[string]int32, error) {
	if isNull(raw) {
		return nil, formatErr("model without vocab")
	}
	var v map[string]int64
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, formatErr("model vocab: %v", err)
	}
	if len(v) > maxVocab {
		return nil, formatErr("model vocab of %d tokens, more than %d", len(v), maxVocab)
	}
	out := make(map[string]int32, len(v))
	for tok, id := range v {
		if id < 0 || id >= maxVocab {
			return nil, formatErr("model vocab: id %d of %q out of range", id, tok)
		}
		if len(tok) > maxTokenLen {
			return nil, formatErr("model vocab: token of %d bytes", len(tok))
		}
		out[tok] = int32(id)
	}
	return out, nil
}

func parseMerges(raw json.RawMessage) ([][2]string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var pairs [][2]string
	var flat []string
	if err := json.Unmarshal(raw, &flat); err == nil {
		pairs = make([][2]string, len(flat))
		for k, s := range flat {
			a, b, ok := strings.Cut(s, " ")
			if !ok || strings.Contains(b, " ") {
				return nil, formatErr("model merges: %q is not two tokens separated by a space", s)
			}
			pairs[k] = [2]string{a, b}
		}
		return pairs, nil
	}
	var nested [][]string
	if err := json.Unmarshal(raw, &nested); err != nil {
		return nil, formatErr("model merges: %v", err)
	}
	pairs = make([][2]string, len(nested))
	for k, p := range nested {
		if len(p) != 2 {
			return nil, formatErr("model merges: entry %d has %d tokens, not 2", k, len(p))
		}
		pairs[k] = [2]string{p[0], p[1]}
	}
	return pairs, nil
}

// byteLevelAlphabet maps the printable characters of GPT-2's byte-level
// alphabet back to bytes.
var byteLevelAlphabet = func() map[rune]byte {
	m := make(map[rune]byte, 256)
	n := 0
	for b := range 256 {
		if b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE && b <= 0xFF {
			m[rune(b)] = byte(b)
		} else {
			m[rune(256+n)] = byte(b)
			n++
		}
	}
	return m
}()

// fromByteLevel decodes a token of the byte-level alphabet into the bytes
// it stands for; ok is false for a token with other characters.
func fromByteLevel(tok string) (string, bool) {
	var b strings.Builder
	b.Grow(len(tok))
	for _, r := range tok {
		c, ok := byteLevelAlphabet[r]
		if !ok {
			return "", false
		}
		b.WriteByte(c)
	}
	return b.String(), true
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
	vocab, err := parseVocabMap(m.Vocab)
	if err != nil {
		return nil, err
	}
	pairs, err := parseMerges(m.Merges)
	if err != nil {
		return nil, err
	}
	if len(pairs) > maxVocab {
		return nil, formatErr("model merges: %d, more than %d", len(pairs), maxVocab)
	}
	b := &bpe{merges: make(map[uint64]merge, len(pairs)), byteLevel: byteLvl, ignoreMerges: m.IgnoreMerges,
		byteFallback: m.ByteFallback, fuseUnk: m.FuseUnk, unk: -1, cache: newCache()}
	// Merges refer to tokens as the file spells them.
	for k, p := range pairs {
		a, ok1 := vocab[p[0]]
		c, ok2 := vocab[p[1]]
		if !ok1 || !ok2 {
			return nil, formatErr("model merges: %q %q: a token not in the vocabulary", p[0], p[1])
		}
		id, ok := vocab[p[0]+p[1]]
		if !ok {
			return nil, formatErr("model merges: %q: not in the vocabulary", p[0]+p[1])
		}
		key := pairKey(a, c)
		if _, dup := b.merges[key]; !dup {
			b.merges[key] = merge{rank: int32(k), id: id}
		}
	}
	if m.UnkToken != nil {
		id, ok := vocab[*m.UnkToken]
		if !ok {
			return nil, formatErr("model unk_token %q not in the vocabulary", *m.UnkToken)
		}
		b.unk = id
	}
	for k := range 256 {
		b.byteIDs[k], b.fallbackIDs[k] = -1, -1
		if id, ok := vocab[byteToken(byte(k))]; ok {
			b.fallbackIDs[k] = id
		}
	}
	if byteLvl {
		raw := make(map[string]int32, len(vocab))
		for tok, id := range vocab {
			if bs, ok := fromByteLevel(tok); ok {
				raw[bs] = id
			}
		}
		vocab = raw
		for k := range 256 {
			if id, ok := vocab[string([]byte{byte(k)})]; ok {
				b.byteIDs[k] = id
			}
		}
	}
	b.vocab = vocab
	return b, nil
}

func buildWordPiece(m *modelJSON) (model, error) {
	vocab, err := parseVocabMap(m.Vocab)
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
	w := &wordPiece{first: vocab, cont: make(map[string]int32), maxChars: 100}
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
	var entries [][2]json.RawMessage
	if err := json.Unmarshal(m.Vocab, &entries); err != nil {
		return nil, formatErr("model Unigram vocab: %v", err)
	}
	if len(entries) > maxVocab {
		return nil, formatErr("model Unigram vocab of %d tokens, more than %d", len(entries), maxVocab)
	}
	u := &unigram{ids: make(map[string]int32, len(entries)), scores: make([]float64, len(entries)),
		child: make(map[uint64]int32), term: []int32{0}, unk: -1, byteFallback: m.ByteFallback, cache: newCache()}
	minScore := math.Inf(1)
	for id, e := range entries {
		var tok string
		var score float64
		if err := json.Unmarshal(e[0], &tok); err != nil {
			return nil, formatErr("model Unigram vocab entry %d: %v", id, err)
		}
		if err := json.Unmarshal(e[1], &score); err != nil {
			return nil, formatErr("model Unigram vocab entry %d: %v", id, err)
		}
		if len(tok) > maxTokenLen {
			return nil, formatErr("model Unigram vocab: token of %d bytes", len(tok))
		}
		u.ids[tok] = int32(id)
		u.scores[id] = score
		minScore = min(minScore, score)
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
			u.term[node] = int32(id + 1)
		}
	}
	// The trie gives the last id of a duplicated token, as the library's
	// token map does.
	for tok, id := range u.ids {
		node := int32(0)
		for i := 0; i < len(tok); i++ {
			node = u.child[uint64(node)<<8|uint64(tok[i])]
		}
		if tok != "" {
			u.term[node] = id + 1
		}
	}
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
