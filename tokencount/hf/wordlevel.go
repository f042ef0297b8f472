package hf

// wordLevel is the WordLevel model: every piece the pre-tokenizers make
// is one token, its own id when the vocabulary has it and the unknown
// token's otherwise. The vocabulary does not change the count; the loader
// still reads it, and refuses a file whose unknown token is not in it (the
// library fails to encode an unknown word then).
type wordLevel struct{}

func (wordLevel) count(s string) int {
	if s == "" {
		return 0
	}
	return 1
}

func (wordLevel) ends(dst []int32, s string) []int32 {
	if s == "" {
		return dst
	}
	return append(dst, int32(len(s)))
}

// buildWordLevel reads a WordLevel model: vocab, an object of token ids,
// and unk_token, both required as the library requires them.
func buildWordLevel(m *modelJSON) (model, error) {
	if m.UnkToken == nil {
		return nil, formatErr("model WordLevel without unk_token")
	}
	vocab, _, err := readVocab(m.Vocab, false)
	if err != nil {
		return nil, err
	}
	if _, ok := vocab[*m.UnkToken]; !ok {
		return nil, formatErr("model WordLevel: unk_token %q not in the vocabulary", *m.UnkToken)
	}
	return wordLevel{}, nil
}
